#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FileExchangeClient } from '../client.js';
import { referenceRetryPolicy } from '../core/rules.js';
import { TlsConfigurationError } from '../core/tls/errors.js';
import { AbortedError, AccessRefusedError, ClientOptionsError, FileExchangeError, InvalidFileNameError, InvalidUploadContentError } from '../errors.js';
import type { RetryEvent } from '../retry-policy.js';
import { downloadCommand, listCommand, temporaryFolder, uploadCommand, type CliIo } from './commands.js';
import { clientOptionsFrom, environmentVariables as envVars, pick, seconds, UsageError, type ConnectionFlags } from './config.js';
import { describeLocalFailure } from './describe-failure.js';
import { exitStatus } from './exit-status.js';
import { defaultLogIntervalMs, Reporter } from './reporter.js';
import { RunLockedError } from './run-lock.js';
import { exitCleanlyOnSignals, StoppedBySignal } from './signals.js';

export type { CliIo };

export const usage = `usage: paykit-files <command> [options]

Commands:
  upload NAME       send standard input to the service as file NAME
  list              print the names of the files waiting for download, one per line
  download          download every waiting file, process it, then delete it from the queue;
                    process with --exec CMD and/or --out DIR (saved under its name). CMD starts once
                    the file is complete: its standard input is the downloaded file itself, and
                    PAYKIT_FILE_NAME, PAYKIT_FILE_PATH, PAYKIT_FILE_SIZE, PAYKIT_FILE_SHA256 are set

Connection (each option falls back to the environment variable shown):
  --base-url URL             ${envVars['base-url']}  ends with /services/messaging/rest
  --cert FILE                ${envVars.cert}  PKCS12 (.p12/.pfx) or PEM certificate
  --key FILE                 ${envVars.key}  PEM private key, when not inside --cert
  --cert-password-file FILE  ${envVars['cert-password-file']}  or the password itself in ${envVars.password}
                             (never on the command line, where other users could read it)
  --ca FILE                  ${envVars.ca}  CA certificate to trust (PEM)
  --proxy URL                ${envVars.proxy}  http://[user:password@]host:port
  --retry-interval SECONDS   ${envVars['retry-interval']}  wait between retries (default ${referenceRetryPolicy.intervalMs / 1000})
  --retry-for SECONDS        ${envVars['retry-for']}  give up after (default ${referenceRetryPolicy.maxDurationMs / 1000})
  --stall-timeout SECONDS    ${envVars['stall-timeout']}  no byte for that long is a network failure (retried)

Options:
  --content-type TYPE        upload: Content-Type to send (default application/octet-stream)
  --size BYTES               upload: length of standard input when it is a pipe: sent as it is read
                             (without it, a pipe is read to its end first); a redirected file needs none
  --allow-empty              upload: send empty input (refused without it: usually a mistake upstream)
  --allow-unknown-size       upload: send a pipe without --size (refused without it: if the program writing
                             the pipe dies half way, what it wrote would be sent as the whole file)
  --xml                      list: ask for the XML list instead of plain text
  --exec CMD                 download: processing command, run through the shell
  --out DIR                  download: folder to save files into
  --ledger FILE              download: processed-files record (${envVars.ledger}; default the service's for this
                             user, ~/.local/state/paykit/file-exchange/<host>_<port>-<hash>/processed.txt);
                             one download at a time per ledger (lock: FILE.lock)
  --wait-lock SECONDS        download: wait that long for another run on the same ledger (default: refuse)
  --reprocess NAME           download: process NAME although the ledger has it (an operator's resend under
                             the same name; without it, such a file is deleted unprocessed); repeatable
  --log-interval SECONDS     ${envVars['log-interval']}  without a terminal, say what is going on at least this
                             often (default ${defaultLogIntervalMs / 1000})
  --log-format text|json     ${envVars['log-format']}  without a terminal: lines with their UTC time (text,
                             the default) or one JSON object a line ({ time, level, message })
  -q, --quiet                say nothing but errors: no progress, no retry lines, no summary
  -V, --version              print the version of paykit-files

Standard output carries only list's names and the processing command's output. Standard error says what happens:
a line per retry (what failed, when the next try is) and, on a terminal, the progress of each transfer; without a
terminal (cron), a line at the start, then at least every --log-interval, and a summary.

Exit status: 0 success; 1 the service or a file failed (details on standard error); 2 bad usage or configuration,
or input refused; 3 a processing command failed or was killed (its file stays queued); 75 another run holds the
ledger's lock (nothing done); 128 + N stopped by signal N (130 for Ctrl-C).`;

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        cert: { type: 'string' },
        key: { type: 'string' },
        'cert-password-file': { type: 'string' },
        ca: { type: 'string' },
        proxy: { type: 'string' },
        'retry-interval': { type: 'string' },
        'retry-for': { type: 'string' },
        'stall-timeout': { type: 'string' },
        'content-type': { type: 'string' },
        size: { type: 'string' },
        'allow-empty': { type: 'boolean' },
        xml: { type: 'boolean' },
        exec: { type: 'string' },
        out: { type: 'string' },
        ledger: { type: 'string' },
        'wait-lock': { type: 'string' },
        reprocess: { type: 'string', multiple: true },
        'log-interval': { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        'log-format': { type: 'string' },
        'allow-unknown-size': { type: 'boolean' },
        version: { type: 'boolean', short: 'V' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

type Command = 'upload' | 'list' | 'download';

/** The command and its argument, once the command line is known to be complete. */
function checkCommand(positionals: string[], values: ReturnType<typeof parse>['values']): { command: Command; name: string | undefined } {
  const [command, ...rest] = positionals;
  if (command !== 'upload' && command !== 'list' && command !== 'download') throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  if (rest.length !== (command === 'upload' ? 1 : 0)) {
    throw new UsageError(command === 'upload' ? 'upload takes exactly one file name' : `${command} takes no arguments`);
  }
  if (command === 'download' && values.exec === undefined && values.out === undefined) {
    throw new UsageError('download needs --exec CMD and/or --out DIR to process each file');
  }
  return { command, name: rest[0] };
}

/**
 * The exit status for an error, after saying what it is: 2 for usage and configuration, 75 for a held lock, 128 + N
 * for a run stopped by signal N, else 1 (the service refused or failed, including AccessRefusedError, ProtocolError,
 * RetriesExhaustedError, UnexpectedResponseError, or a local failure).
 */
function exitStatusFor(error: unknown, command: string | undefined, reporter: Reporter): number {
  const status = reportFailure(error, command, reporter);
  if (error instanceof FileExchangeError && error.unsentContentPath !== undefined) reporter.error(unsentContentKept(error.unsentContentPath, error.fileName));
  return status;
}

/** How to send again what standard input gave, kept by an upload that failed (see UploadOptions.keepUnsent). */
function unsentContentKept(path: string, fileName: string | undefined): string {
  const quoted = shellQuote(path);
  return (
    `The content read from standard input is kept in ${quoted}. Send it with: paykit-files upload ${fileName ?? 'NAME'} < ${quoted}` +
    `, then remove its folder: rm -r ${shellQuote(dirname(path))}`
  );
}

const shellQuote = (text: string) => (/^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** The day the client certificate expired, when it has: a 403 is then most likely that (see warnOfExpiry). */
let expiredOn: string | undefined;

/**
 * A client certificate that expires within 30 days gets a warning on every run (cron mails it), even with --quiet;
 * an expired one is named in the failure it causes (the service's 403 does not say why).
 */
function warnOfExpiry(expiresAt: Date | undefined, reporter: Reporter, now: number): void {
  expiredOn = undefined;
  if (expiresAt === undefined) return;
  const days = Math.floor((expiresAt.getTime() - now) / 86_400_000);
  const day = expiresAt.toISOString().slice(0, 10);
  if (expiresAt.getTime() <= now) expiredOn = day;
  else if (days < 30) reporter.warn(`the client certificate expires on ${day} (in ${days} day(s)): ask the operator for a new one before then.`);
}

function reportFailure(error: unknown, command: string | undefined, reporter: Reporter): number {
  if (error instanceof AbortedError && error.cause instanceof StoppedBySignal) {
    reporter.error(`${command ?? 'paykit-files'} stopped by ${error.cause.signal}: ${error.message} Nothing in hand was deleted from the service.`);
    return error.cause.exitStatus;
  }
  if (error instanceof UsageError) {
    reporter.error(`${error.message}\n\n${usage}`);
    return exitStatus.usage;
  }
  if (error instanceof RunLockedError) {
    reporter.error(error.message);
    return exitStatus.locked;
  }
  const configuration = [TlsConfigurationError, ClientOptionsError, InvalidFileNameError, InvalidUploadContentError];
  if (configuration.some((type) => error instanceof type)) {
    reporter.error((error as Error).message);
    return exitStatus.usage;
  }
  if (error instanceof AccessRefusedError && expiredOn !== undefined) reporter.error(`${error.name}: ${error.message} The client certificate expired on ${expiredOn}: ask the operator for a new one.`);
  else if (error instanceof FileExchangeError) reporter.error(`${error.name}: ${error.message}`);
  else reporter.error(`${command ?? 'paykit-files'} stopped: ${describeLocalFailure(error)}`);
  return exitStatus.failed;
}

/** Runs one CLI invocation and returns its exit status; the bin wrapper below only wires it to the process. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let reporter = new Reporter(io.stderr, false);
  let client: FileExchangeClient | undefined;
  let command: string | undefined;
  try {
    const { values, positionals } = parse(argv);
    const logIntervalMs = seconds(pick(values, io.env, 'log-interval'), '--log-interval', true) ?? defaultLogIntervalMs;
    const logFormat = pick(values, io.env, 'log-format') ?? 'text';
    if (logFormat !== 'text' && logFormat !== 'json') throw new UsageError(`--log-format must be text or json, not ${JSON.stringify(logFormat)}.`);
    reporter = new Reporter(io.stderr, values.quiet === true, logIntervalMs, io.now, logFormat);
    if (values.version) {
      io.stdout.write(`paykit-files ${packageVersion()}\n`);
      return exitStatus.ok;
    }
    if (values.help || positionals.length === 0) {
      (values.help ? io.stdout : io.stderr).write(`${usage}\n`);
      return values.help ? exitStatus.ok : exitStatus.usage;
    }
    const checked = checkCommand(positionals, values);
    command = checked.command;
    const clientOptions = await clientOptionsFrom(values as ConnectionFlags, io.env);
    reporter.start(`${command}${checked.name === undefined ? '' : ` ${checked.name}`} started (pid ${process.pid})`);
    const onRetry = (event: RetryEvent) => reporter.retry(event);
    const spoolDir = temporaryFolder(io);
    client = await FileExchangeClient.create({ ...clientOptions, retry: { ...clientOptions.retry, onRetry }, ...(spoolDir === undefined ? {} : { spoolDir }) });
    warnOfExpiry(client.certificateExpiresAt, reporter, io.now?.() ?? Date.now());
    const context = { client, options: values, io, reporter, signal: io.signal };
    if (command === 'upload') return await uploadCommand(context, checked.name!);
    if (command === 'list') return await listCommand(context);
    return await downloadCommand(context);
  } catch (error) {
    return exitStatusFor(error, command, reporter);
  } finally {
    reporter.stop();
    await client?.close();
  }
}

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

/** The version of the package this file was built from. */
function packageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

if (isEntryPoint()) {
  // A reader that stops reading (`paykit-files list | head -1`) closes the pipe: what it wanted was written; the
  // rest is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  const stop = new AbortController();
  const io = { stdin: () => process.stdin, stdinFd: 0, stdout: process.stdout, stderr: process.stderr, env: process.env, signal: stop.signal };
  const run = runCli(process.argv.slice(2), io);
  exitCleanlyOnSignals(stop, run);
  void run.then((code) => {
    process.exitCode = code;
  });
}
