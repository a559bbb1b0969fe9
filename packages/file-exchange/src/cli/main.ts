#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FileExchangeClient } from '../client.js';
import { referenceRetryPolicy } from '../core/rules.js';
import { TlsConfigurationError } from '../core/tls/errors.js';
import { ClientOptionsError, FileExchangeError, InvalidFileNameError, InvalidUploadContentError } from '../errors.js';
import { defaultLedgerPath } from '../ledger.js';
import type { RetryEvent } from '../retry-policy.js';
import { downloadCommand, listCommand, uploadCommand, type CliIo } from './commands.js';
import { clientOptionsFrom, environmentVariables as envVars, UsageError, type ConnectionFlags } from './config.js';
import { Reporter } from './reporter.js';
import { exitCleanlyOnSignals } from './signals.js';

export type { CliIo };

export const usage = `usage: paykit-files <command> [options]

Commands:
  upload NAME       send standard input to the service as file NAME
  list              print the names of the files waiting for download, one per line
  download          download every waiting file, process it, then delete it from the queue;
                    process with --exec CMD (content on its standard input, PAYKIT_FILE_NAME and
                    PAYKIT_FILE_PATH set) and/or --out DIR (saved under its name)

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

Options:
  --content-type TYPE        upload: Content-Type to send (default application/octet-stream)
  --size BYTES               upload: length of standard input when it is a pipe: sent as it is read
                             (without it, a pipe is read to its end first); a redirected file needs none
  --xml                      list: ask for the XML list instead of plain text
  --exec CMD                 download: processing command, run through the shell
  --out DIR                  download: folder to save files into
  --ledger FILE              download: processed-files record (${envVars.ledger}, default ${defaultLedgerPath})
  -q, --quiet                say nothing but errors: no progress, no retry lines, no summary

Standard output carries only list's names and the processing command's output. Standard error says what happens:
a line per retry (what failed, when the next try is) and, on a terminal, the progress of each transfer.

Exit status: 0 success; 1 the service or a file failed (details on standard error); 2 bad usage or configuration;
128 + N stopped by signal N (130 for Ctrl-C).`;

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
        'content-type': { type: 'string' },
        size: { type: 'string' },
        xml: { type: 'boolean' },
        exec: { type: 'string' },
        out: { type: 'string' },
        ledger: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
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

/** The exit status for an error, after saying what it is: 2 for usage and configuration, 1 for the rest. */
function exitStatusFor(error: unknown, reporter: Reporter): number {
  if (error instanceof UsageError) {
    reporter.error(`${error.message}\n\n${usage}`);
    return 2;
  }
  const configuration = [TlsConfigurationError, ClientOptionsError, InvalidFileNameError, InvalidUploadContentError];
  if (configuration.some((type) => error instanceof type)) {
    reporter.error((error as Error).message);
    return 2;
  }
  const kind = error instanceof FileExchangeError ? `${error.name}: ` : '';
  reporter.error(`${kind}${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

/** Runs one CLI invocation and returns its exit status; the bin wrapper below only wires it to the process. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let reporter = new Reporter(io.stderr, false);
  let client: FileExchangeClient | undefined;
  try {
    const { values, positionals } = parse(argv);
    reporter = new Reporter(io.stderr, values.quiet === true);
    if (values.help || positionals.length === 0) {
      (values.help ? io.stdout : io.stderr).write(`${usage}\n`);
      return values.help ? 0 : 2;
    }
    const { command, name } = checkCommand(positionals, values);
    const clientOptions = await clientOptionsFrom(values as ConnectionFlags, io.env);
    const onRetry = (event: RetryEvent) => reporter.retry(event);
    client = await FileExchangeClient.create({ ...clientOptions, retry: { ...clientOptions.retry, onRetry } });
    const context = { client, options: values, io, reporter };
    if (command === 'upload') return await uploadCommand(context, name!);
    if (command === 'list') return await listCommand(context);
    return await downloadCommand(context);
  } catch (error) {
    return exitStatusFor(error, reporter);
  } finally {
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

if (isEntryPoint()) {
  exitCleanlyOnSignals();
  runCli(process.argv.slice(2), { stdin: () => process.stdin, stdinFd: 0, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
