import { fstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { isatty } from 'node:tty';
import type { FileExchangeClient } from '../client.js';
import type { TransferProgress } from '../transfer-options.js';
import type { UploadContent } from '../upload-content.js';
import { isValidFileName } from '../core/file-name.js';
import { defaultLedgerPath, FileLedger } from '../ledger.js';
import type { FileOutcome } from '../process-all.js';
import { environmentVariables as envVars, UsageError } from './config.js';
import { printableName } from './printable-name.js';
import { runProcessingCommand } from './processing-command.js';
import { formatBytes, type Reporter } from './reporter.js';
import { saveToFolder } from './save-to-folder.js';

export interface CliIo {
  /** Standard input, opened only when it is read as a stream. */
  stdin: () => NodeJS.ReadableStream;
  /** Standard input's descriptor, when it is this process's own (0): a file redirected to it is read in place. */
  stdinFd?: number;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The options of the command line that the commands read (connection options are the client's). */
export interface CommandOptions {
  'content-type'?: string | undefined;
  size?: string | undefined;
  xml?: boolean | undefined;
  exec?: string | undefined;
  out?: string | undefined;
  ledger?: string | undefined;
}

export interface CommandContext {
  client: FileExchangeClient;
  options: CommandOptions;
  io: CliIo;
  reporter: Reporter;
}

function parseSize(size: string | undefined): number | undefined {
  if (size === undefined) return undefined;
  const bytes = Number(size);
  if (!/^\d+$/.test(size) || !Number.isSafeInteger(bytes)) throw new UsageError(`--size must be a number of bytes, not ${JSON.stringify(size)}.`);
  return bytes;
}

/**
 * What to upload from standard input without copying it first, when possible: a file redirected to it (`< file`) is
 * read in place (its size is known, and a resend reads it again); a pipe is read as a stream, sent as it comes when
 * --size gives its length, read to its end first (into a temporary file) otherwise.
 */
function standardInput(io: CliIo): { content: UploadContent; interactive: boolean } {
  if (io.stdinFd !== undefined) {
    if (fstatSync(io.stdinFd).isFile()) return { content: { fd: io.stdinFd }, interactive: false };
    return { content: io.stdin() as NodeJS.ReadableStream & AsyncIterable<Uint8Array>, interactive: isatty(io.stdinFd) };
  }
  const stream = io.stdin();
  return { content: stream as NodeJS.ReadableStream & AsyncIterable<Uint8Array>, interactive: (stream as { isTTY?: boolean }).isTTY === true };
}

export async function uploadCommand({ client, options, io, reporter }: CommandContext, name: string): Promise<number> {
  const contentLength = parseSize(options.size);
  const { content, interactive } = standardInput(io);
  if (interactive) reporter.info(`reading the content of ${name} from standard input (end with Ctrl-D)`);
  const started = Date.now();
  let size = 0;
  await client.upload(name, content, {
    ...(options['content-type'] === undefined ? {} : { contentType: options['content-type'] }),
    ...(contentLength === undefined ? {} : { contentLength }),
    onProgress: (progress) => {
      size = progress.bytes;
      reporter.progress(progress);
    },
  });
  reporter.info(`uploaded ${name} (${formatBytes(size)} in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return 0;
}

export async function listCommand({ client, options, io, reporter }: CommandContext): Promise<number> {
  const names = await client.list({ format: options.xml ? 'xml' : 'text' });
  for (const name of names) io.stdout.write(`${printableName(name)}\n`);
  const invalid = names.filter((name) => !isValidFileName(name)).length;
  if (invalid > 0) {
    const are = invalid === 1 ? 'name from the service is not a valid file name' : 'names from the service are not valid file names';
    reporter.error(`${invalid} ${are} (printed with escapes); they cannot be downloaded.`);
  }
  return 0;
}

function describeOutcome(outcome: FileOutcome): string {
  const name = printableName(outcome.name);
  if (outcome.result === 'processed') return `${name} processed and deleted`;
  if (outcome.result === 'already-processed') return `${name} was already processed; deleted`;
  const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  return `${name} failed at ${outcome.stage} and stays in the queue: ${reason}`;
}

export async function downloadCommand({ client, options, io, reporter }: CommandContext): Promise<number> {
  const ledger = new FileLedger(options.ledger ?? io.env[envVars.ledger] ?? defaultLedgerPath);
  const out = options.out;
  // Downloads saved with --out are made in that folder, so that putting them in place is a rename, not a copy.
  if (out !== undefined) await mkdir(out, { recursive: true });
  const report = await client.processAll(
    async (file) => {
      if (out !== undefined) await saveToFolder(out, file, { link: options.exec === undefined });
      if (options.exec !== undefined) await runProcessingCommand(options.exec, file, io.env);
    },
    {
      ledger,
      ...(out === undefined ? {} : { workDir: out }),
      ...(reporter.drawsProgress ? { onProgress: (progress: TransferProgress) => reporter.progress(progress) } : {}),
      onFile: (outcome) => (outcome.result === 'failed' ? reporter.error(describeOutcome(outcome)) : reporter.info(describeOutcome(outcome))),
    },
  );
  const summary = `${report.processed.length + report.alreadyProcessed.length} file(s) done, ${report.failed.length} failed`;
  if (report.failed.length === 0) reporter.info(summary);
  else reporter.error(summary);
  return report.failed.length === 0 ? 0 : 1;
}
