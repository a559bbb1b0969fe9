#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FileExchangeClient } from '../client.js';
import { ClientOptionsError, FileExchangeError, InvalidFileNameError, InvalidUploadContentError } from '../errors.js';
import { isValidFileName } from '../file-name.js';
import { defaultLedgerPath, FileLedger } from '../ledger.js';
import type { FileOutcome } from '../process-all.js';
import { TlsConfigurationError } from '../core/tls/errors.js';
import { referenceRetryPolicy } from '../core/rules.js';
import { clientOptionsFrom, environmentVariables as envVars, UsageError, type ConnectionFlags } from './config.js';
import { runProcessingCommand } from './processing-command.js';
import { printableName } from './printable-name.js';
import { saveToFolder } from './save-to-folder.js';
import { exitCleanlyOnSignals } from './signals.js';

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
  --xml                      list: ask for the XML list instead of plain text
  --exec CMD                 download: processing command, run through the shell
  --out DIR                  download: folder to save files into
  --ledger FILE              download: processed-files record (${envVars.ledger}, default ${defaultLedgerPath})

Exit status: 0 success; 1 the service or a file failed (details on standard error); 2 bad usage or configuration.`;

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

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
        xml: { type: 'boolean' },
        exec: { type: 'string' },
        out: { type: 'string' },
        ledger: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function describeFailure(outcome: Extract<FileOutcome, { result: 'failed' }>): string {
  const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  return `paykit-files: ${printableName(outcome.name)} failed at ${outcome.stage} and stays in the queue: ${reason}`;
}

/** Runs one CLI invocation and returns its exit status; the bin wrapper below only wires it to the process. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const line = (stream: NodeJS.WritableStream, text: string) => stream.write(`${text}\n`);
  let client: FileExchangeClient | undefined;
  try {
    const { values, positionals } = parse(argv);
    const [command, ...rest] = positionals;
    if (values.help || command === undefined) {
      line(values.help ? io.stdout : io.stderr, usage);
      return values.help ? 0 : 2;
    }
    const expectedArguments = command === 'upload' ? 1 : 0;
    if (!['upload', 'list', 'download'].includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    if (rest.length !== expectedArguments) {
      throw new UsageError(command === 'upload' ? 'upload takes exactly one file name' : `${command} takes no arguments`);
    }
    if (command === 'download' && values.exec === undefined && values.out === undefined) {
      throw new UsageError('download needs --exec CMD and/or --out DIR to process each file');
    }

    client = await FileExchangeClient.create(await clientOptionsFrom(values as ConnectionFlags, io.env));

    if (command === 'upload') {
      const name = rest[0]!;
      if ((io.stdin as { isTTY?: boolean }).isTTY) line(io.stderr, `paykit-files: reading the content of ${name} from standard input (end with Ctrl-D)`);
      await client.upload(name, io.stdin as NodeJS.ReadableStream & AsyncIterable<Uint8Array>, {
        ...(values['content-type'] === undefined ? {} : { contentType: values['content-type'] }),
      });
      line(io.stderr, `paykit-files: uploaded ${name}`);
      return 0;
    }
    if (command === 'list') {
      const names = await client.list({ format: values.xml ? 'xml' : 'text' });
      for (const name of names) line(io.stdout, printableName(name));
      const invalid = names.filter((name) => !isValidFileName(name)).length;
      if (invalid > 0) {
        line(io.stderr, `paykit-files: ${invalid} name${invalid === 1 ? '' : 's'} from the service ${invalid === 1 ? 'is' : 'are'} not valid file names (printed with escapes); they cannot be downloaded.`);
      }
      return 0;
    }

    const ledger = new FileLedger(values.ledger ?? io.env[envVars.ledger] ?? defaultLedgerPath);
    // Downloads saved with --out are made in that folder, so that putting them in place is a rename, not a copy.
    if (values.out !== undefined) await mkdir(values.out, { recursive: true });
    const report = await client.processAll(
      async (file) => {
        if (values.out !== undefined) await saveToFolder(values.out, file, { link: values.exec === undefined });
        if (values.exec !== undefined) await runProcessingCommand(values.exec, file, io.env);
      },
      {
        ledger,
        ...(values.out === undefined ? {} : { workDir: values.out }),
        onFile: (outcome) => {
          if (outcome.result === 'failed') line(io.stderr, describeFailure(outcome));
          else line(io.stderr, `paykit-files: ${printableName(outcome.name)} ${outcome.result === 'processed' ? 'processed and deleted' : 'was already processed; deleted'}`);
        },
      },
    );
    const total = report.processed.length + report.alreadyProcessed.length;
    line(io.stderr, `paykit-files: ${total} file(s) done, ${report.failed.length} failed`);
    return report.failed.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      line(io.stderr, `paykit-files: ${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof TlsConfigurationError || error instanceof ClientOptionsError || error instanceof InvalidFileNameError || error instanceof InvalidUploadContentError) {
      line(io.stderr, `paykit-files: ${error.message}`);
      return 2;
    }
    const kind = error instanceof FileExchangeError ? `${error.name}: ` : '';
    line(io.stderr, `paykit-files: ${kind}${error instanceof Error ? error.message : String(error)}`);
    return 1;
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
  runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
