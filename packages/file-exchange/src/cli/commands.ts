import { fstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import type { FileExchangeClient } from '../client.js';
import type { TransferProgress } from '../transfer-options.js';
import type { UploadContent } from '../upload-content.js';
import { abortedBy } from '../core/abort.js';
import { assertValidFileName, isValidFileName } from '../core/file-name.js';
import { defaultLedgerPath, defaultLedgerPathFor, FileLedger, type ProcessedFileLedger } from '../ledger.js';
import type { FileOutcome, ProcessAllReport } from '../process-all.js';
import { holdTemporaryFolder } from '../temporary-files.js';
import { ReusedBufferPipeReader } from '../transport/reused-buffer-pipe-reader.js';
import { environmentVariables as envVars, seconds, UsageError } from './config.js';
import { exitStatus } from './exit-status.js';
import { printableName } from './printable.js';
import { ProcessingCommandError, runProcessingCommand } from './processing-command.js';
import { formatBytes, type Reporter } from './reporter.js';
import { RunLock } from './run-lock.js';
import { saveToFolder } from './save-to-folder.js';
import { undoOnSignal } from './signals.js';

export interface CliIo {
  /** Standard input, opened only when it is read as a stream. */
  stdin: () => NodeJS.ReadableStream;
  /** Standard input's descriptor, when it is this process's own (0): a file redirected to it is read in place. */
  stdinFd?: number;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Aborts the run (paykit-files aborts it on SIGINT, SIGTERM and SIGHUP): every call and processAll end with it. */
  signal?: AbortSignal | undefined;
  /** The clock of the log's times and the certificate's expiry (default Date.now). */
  now?: () => number;
}

/** The options of the command line that the commands read (connection options are the client's). */
/**
 * The temporary folder of the environment the CLI was given (`TMPDIR`), for its spool and its downloads without
 * --out; undefined means the system's (`os.tmpdir()`, which reads the process's own environment).
 */
export function temporaryFolder(io: CliIo): string | undefined {
  const folder = io.env.TMPDIR;
  return folder === undefined || folder === '' ? undefined : folder;
}

export interface CommandOptions {
  'content-type'?: string | undefined;
  size?: string | undefined;
  'allow-empty'?: boolean | undefined;
  'allow-unknown-size'?: boolean | undefined;
  xml?: boolean | undefined;
  exec?: string | undefined;
  out?: string | undefined;
  ledger?: string | undefined;
  reprocess?: string[] | undefined;
  'wait-lock'?: string | undefined;
}

export interface CommandContext {
  client: FileExchangeClient;
  options: CommandOptions;
  io: CliIo;
  reporter: Reporter;
  signal?: AbortSignal | undefined;
}

function parseSize(size: string | undefined): number | undefined {
  if (size === undefined) return undefined;
  const bytes = Number(size);
  if (!/^\d+$/.test(size) || !Number.isSafeInteger(bytes)) throw new UsageError(`--size must be a number of bytes, not ${JSON.stringify(size)}.`);
  return bytes;
}

const emptyRefused = 'Standard input is empty: nothing to upload. An empty file is usually a mistake upstream (a failed export); give --allow-empty to send one.';

/**
 * The first piece of a stream, put back: the stream is read as before, and a stream that ends without a byte is
 * known before anything is sent.
 */
function isEmptyStream(stream: Readable, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const done = (empty: boolean) => {
      stream.off('readable', onReadable).off('end', onEnd).off('error', reject);
      signal?.removeEventListener('abort', onAbort);
      resolve(empty);
    };
    const onAbort = () => {
      stream.off('readable', onReadable).off('end', onEnd).off('error', reject);
      reject(abortedBy(signal!, { operation: 'uploadFile' }));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const onReadable = () => {
      const piece = stream.read() as Buffer | null;
      if (piece === null) return;
      stream.unshift(piece);
      done(piece.length === 0);
    };
    const onEnd = () => done(true);
    stream.on('readable', onReadable).once('end', onEnd).once('error', reject);
  });
}

/**
 * What to upload from standard input without copying it first, when possible: a file redirected to it (`< file`) is
 * read in place (its size is known, and a resend reads it again); a pipe is read as a stream, sent as it comes when
 * --size gives its length, read to its end first (into a temporary file) otherwise. A directory is refused, and so
 * is empty input unless --allow-empty: both are far more often a mistake than a file meant to be empty.
 */
const unknownSizeRefused =
  'Standard input is a pipe and --size was not given: if the program writing it dies half way, what it wrote so far ' +
  'would be uploaded as the whole file, with exit status 0. Give --size BYTES (a pipe of another length is then refused), ' +
  'redirect a file (upload NAME < FILE), or give --allow-unknown-size to send whatever the pipe gives.';

async function standardInput(io: CliIo, reporter: Reporter, name: string, allowEmpty: boolean, announced: number | undefined, allowUnknownSize: boolean): Promise<UploadContent> {
  const signal = io.signal;
  if (announced === 0 && !allowEmpty) throw new UsageError(emptyRefused);
  let interactive: boolean;
  let pipe = false;
  if (io.stdinFd !== undefined) {
    const info = fstatSync(io.stdinFd);
    if (info.isDirectory()) throw new UsageError('Standard input is a directory: redirect the file to upload (upload NAME < FILE).');
    if (info.isFile()) {
      if (info.size === 0 && !allowEmpty) throw new UsageError(emptyRefused);
      return { fd: io.stdinFd };
    }
    pipe = info.isFIFO() || info.isSocket();
    interactive = isatty(io.stdinFd);
  } else interactive = (io.stdin() as { isTTY?: boolean }).isTTY === true;
  if (interactive) reporter.info(`reading the content of ${name} from standard input (end with Ctrl-D)`);
  // A pipe is read into buffers used again (process.stdin would allocate one per read), and never also by process.stdin.
  const stream = pipe ? new ReusedBufferPipeReader(io.stdinFd!) : (io.stdin() as Readable);
  // Only a stream of unknown length is looked at first: with --size, a wrong length already stops the upload.
  if (announced === undefined && (!allowEmpty || !interactive)) {
    const empty = await isEmptyStream(stream, signal);
    if (empty && !allowEmpty) throw new UsageError(emptyRefused);
    // An empty pipe given --allow-empty has a known length; any other pipe's end may be its writer's death.
    if (!empty && !interactive && !allowUnknownSize) {
      stream.destroy();
      throw new UsageError(unknownSizeRefused);
    }
  }
  return stream;
}

export async function uploadCommand({ client, options, io, reporter, signal }: CommandContext, name: string): Promise<number> {
  // Checked before standard input is looked at: a wrong name is the first thing to say.
  assertValidFileName(name, { operation: 'uploadFile' });
  const contentLength = parseSize(options.size);
  const content = await standardInput(io, reporter, name, options['allow-empty'] === true, contentLength, options['allow-unknown-size'] === true);
  const started = Date.now();
  let size = 0;
  await client.upload(name, content, {
    ...(options['content-type'] === undefined ? {} : { contentType: options['content-type'] }),
    ...(contentLength === undefined ? {} : { contentLength }),
    // A pipe cannot be read again: what it gave is kept when the upload fails, and the failure's report says where.
    keepUnsent: true,
    signal,
    onProgress: (progress) => {
      size = progress.bytes;
      reporter.progress(progress);
    },
  });
  reporter.info(`uploaded ${name} (${formatBytes(size)} in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return exitStatus.ok;
}

export async function listCommand({ client, options, io, reporter, signal }: CommandContext): Promise<number> {
  const names = await client.list({ format: options.xml ? 'xml' : 'text', signal });
  for (const name of names) io.stdout.write(`${printableName(name)}\n`);
  const invalid = names.filter((name) => !isValidFileName(name)).length;
  if (invalid > 0) {
    const are = invalid === 1 ? 'name from the service is not a valid file name' : 'names from the service are not valid file names';
    reporter.error(`${invalid} ${are} (printed with escapes); they cannot be downloaded.`);
  }
  if (reporter.logs && names.length > 0) reporter.info(`${names.length} file(s) waiting for download`);
  return exitStatus.ok;
}

function describeOutcome(outcome: FileOutcome, ledgerPath: string): string {
  const name = printableName(outcome.name);
  if (outcome.result === 'processed') return `${name} processed and deleted`;
  if (outcome.result === 'already-processed') {
    return (
      `${name} is in the ledger ${ledgerPath} as processed already: deleted from the queue without processing it again ` +
      `(if the operator resent it under the same name, run again with --reprocess ${name} before it is deleted)`
    );
  }
  const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  return `${name} failed at ${outcome.stage} and stays in the queue: ${reason}`;
}

/**
 * The ledger, except for the names given with --reprocess: those are handled again although an earlier run processed
 * a file of that name (an operator's resend under the same name).
 */
function ledgerWithExceptions(ledger: FileLedger, reprocess: string[]): ProcessedFileLedger {
  for (const name of reprocess) {
    if (!isValidFileName(name)) throw new UsageError(`--reprocess takes a file name, not ${JSON.stringify(name)}.`);
  }
  const again = new Set(reprocess);
  return {
    has: async (name) => !again.has(name) && (await ledger.has(name)),
    record: (name) => ledger.record(name),
    noteLocalFailure: (name, failure) => ledger.noteLocalFailure(name, failure),
    localFailure: (name) => ledger.localFailure(name),
    clearLocalFailure: (name) => ledger.clearLocalFailure(name),
  };
}

/** 0 when every file was done; 3 when a processing command failed (it comes first: the operator's to fix), else 1. */
function downloadExitStatus(report: ProcessAllReport): number {
  if (report.failed.length === 0) return exitStatus.ok;
  if (report.failed.some((failure) => failure.error instanceof ProcessingCommandError)) return exitStatus.processingCommandFailed;
  return exitStatus.failed;
}

export async function downloadCommand({ client, options, io, reporter, signal }: CommandContext): Promise<number> {
  const given = options.ledger ?? io.env[envVars.ledger];
  // The default is the service's for this user, whatever the working folder: one ledger, one lock for every run.
  const ledgerPath = given || defaultLedgerPathFor(client.baseUrl, io.env);
  const fileLedger = new FileLedger(ledgerPath, given ? {} : { alsoRead: [defaultLedgerPath] });
  const ledger = ledgerWithExceptions(fileLedger, options.reprocess ?? []);
  const waitMs = seconds(options['wait-lock'], '--wait-lock') ?? 0;
  const lock = await RunLock.acquire(ledgerPath, {
    waitMs,
    signal,
    onWait: (holder) => reporter.info(`another run (${holder}) is processing the ledger ${ledgerPath}; waiting up to ${waitMs / 1000} s`),
  });
  const forgetLock = undoOnSignal(() => lock.release());
  try {
    const out = options.out;
    // Downloads saved with --out are made in that folder, so that putting them in place is a rename, not a copy.
    if (out !== undefined) await mkdir(out, { recursive: true });
    const exec = options.exec;
    const workDir = out ?? temporaryFolder(io);
    const report = await client.processAll(
      async (file) => {
        if (out !== undefined) await saveToFolder(out, file, { link: exec === undefined });
        if (exec === undefined) return;
        reporter.doing(`processing command for ${printableName(file.name)} running`);
        try {
          await runProcessingCommand(exec, file, {
            env: io.env,
            output: { stdout: io.stdout, stderr: io.stderr },
            hold: async (leader) => {
              const forgetGroup = lock.holdForGroup(leader);
              const forgetFolder = await holdTemporaryFolder(dirname(file.path), leader);
              return async () => {
                forgetGroup();
                await forgetFolder();
              };
            },
          });
        } finally {
          reporter.doing(undefined);
        }
      },
      {
        ledger,
        signal,
        ...(workDir === undefined ? {} : { workDir }),
        ...(reporter.wantsProgress ? { onProgress: (progress: TransferProgress) => reporter.progress(progress) } : {}),
        onFile: (outcome) => {
          reporter.doing(undefined);
          if (outcome.result === 'failed') reporter.error(describeOutcome(outcome, ledgerPath));
          else reporter.info(describeOutcome(outcome, ledgerPath));
        },
      },
    );
    const done = report.processed.length + report.alreadyProcessed.length;
    const summary = `${done} file(s) done, ${report.failed.length} failed`;
    // A run with nothing to do says nothing: cron mails whatever a job writes.
    if (report.failed.length > 0) reporter.error(summary);
    else if (done > 0) reporter.info(summary);
    return downloadExitStatus(report);
  } finally {
    lock.release();
    forgetLock();
  }
}
