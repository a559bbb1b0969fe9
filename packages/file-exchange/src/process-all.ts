import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { abortedBy, throwIfAborted } from './core/abort.js';
import { assertValidFileName } from './core/file-name.js';
import { AbortedError, ClientOptionsError, FileExchangeError, FileNotInListError, LocalFileError } from './errors.js';
import type { FileListFormat } from './file-list.js';
import { defaultLedgerPath, defaultLedgerPathFor, FileLedger, type ProcessedFileLedger } from './ledger.js';
import { freeBytes } from './free-space.js';
import { makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from './temporary-files.js';
import type { CallOptions, TransferOptions } from './transfer-options.js';

/** What processAll needs of a client (a FileExchangeClient is one): the download queue's three calls. */
export interface DownloadQueue {
  /** The service's address: the default ledger is that service's (see defaultLedgerPathFor). */
  readonly baseUrl?: string;
  list(options: { format: FileListFormat } & CallOptions): Promise<string[]>;
  downloadToFile(name: string, path: string, options: TransferOptions): Promise<{ size: number }>;
  delete(name: string, options: CallOptions): Promise<void>;
}

/** A downloaded file handed to the processing handler; `path` is a private temporary copy removed afterwards. */
export interface ReceivedFile {
  name: string;
  path: string;
  size: number;
  /** A fresh stream of the content (the handler may call it more than once). */
  open(): Readable;
  /** processAll's signal: a handler that takes long should stop when it fires (processAll waits for it either way). */
  signal: AbortSignal;
}

export type FileHandler = (file: ReceivedFile) => Promise<void> | void;

export interface ProcessAllOptions extends CallOptions {
  /**
   * Where processed names are remembered. Default: the FileLedger of the service and user,
   * `defaultLedgerPathFor(client.baseUrl)` under `~/.local/state/paykit/file-exchange/`, whatever the working folder
   * (a ledger of an earlier version at `.paykit/file-exchange-processed.txt` in the working folder is read too).
   * Required for a DownloadQueue without `baseUrl`.
   */
  ledger?: ProcessedFileLedger;
  /**
   * Folder in which a private folder (`~paykit-download-<pid>-…`) holds the copies handed to the handler (default: the
   * system temporary folder). Such folders left by a killed run are removed by the next one.
   */
  workDir?: string;
  /** List format to ask for (default `text`). */
  listFormat?: FileListFormat;
  /** Told about each file as it is settled; for progress output. */
  onFile?: (outcome: FileOutcome) => void;
  /** Told as each file downloads; for progress output. */
  onProgress?: TransferOptions['onProgress'];
}

export type FileOutcome =
  | { name: string; result: 'processed' }
  | { name: string; result: 'already-processed' }
  | { name: string; result: 'failed'; stage: 'download' | 'handler' | 'ledger' | 'delete'; error: unknown };

export interface ProcessAllReport {
  /** Downloaded, handled and deleted in this run. */
  processed: string[];
  /** Found in the ledger from an earlier run: deleted without being handled again. */
  alreadyProcessed: string[];
  /** Left in the queue (or, for stage `delete`, handled and recorded but still listed); to be looked at. */
  failed: Array<Extract<FileOutcome, { result: 'failed' }>>;
}

/**
 * Drains the download queue: list, download each file, run `handler`, record it in the ledger, then delete it.
 * A file is deleted only after its handler succeeded and the ledger holds it, so a crash at any point loses nothing:
 * at worst a file is handled again (crash between handler and ledger) or deleted on the next run (crash after the
 * ledger). A failing file stays in the queue and is reported; the others carry on. Fatal errors (403, TLS, retries
 * exhausted while listing, a ledger that cannot be read or written) end the run by throwing.
 *
 * `signal` ends the run between any two steps and inside every call (AbortedError, operation `processAll`, whose
 * `cause` is the signal's reason): the file in hand stays queued, unless its handler had already succeeded (then it
 * is recorded, and deleted by the next run). The handler is given the signal and is waited for; the private work
 * folder is removed before the promise settles.
 */
export async function processAll(client: DownloadQueue, handler: FileHandler, options: ProcessAllOptions = {}): Promise<ProcessAllReport> {
  const ledger = options.ledger ?? defaultLedger(client);
  const report: ProcessAllReport = { processed: [], alreadyProcessed: [], failed: [] };
  const settle = (outcome: FileOutcome) => {
    if (outcome.result === 'processed') report.processed.push(outcome.name);
    else if (outcome.result === 'already-processed') report.alreadyProcessed.push(outcome.name);
    else report.failed.push(outcome);
    options.onFile?.(outcome);
  };
  const signal = options.signal ?? new AbortController().signal;
  throwIfAborted(signal, { operation: 'processAll' });
  const parent = options.workDir ?? tmpdir();
  // A processing command that outlived a killed run and finished has handled its file: recorded, not handed over again.
  await removeStaleTemporaries(parent, (name) => ledger.record(name));
  const workDir = await makeTemporaryFolder(parent, 'download');
  const seen = new Set<string>();
  try {
    // The list is capped (fileExchangeRules.downloads.listCap); deleting processed files lets the next listing show the rest.
    for (;;) {
      const names = (await client.list({ format: options.listFormat ?? 'text', signal })).filter((name) => !seen.has(name));
      if (names.length === 0) break;
      for (const name of names) {
        throwIfAborted(signal, { operation: 'processAll' });
        seen.add(name);
        const outcome = await processOne({ client, handler, ledger, workDir, signal, onProgress: options.onProgress }, name);
        settle(outcome);
        // Every later file would be handled, then not recorded, then handled again by the next run: stop here.
        if (outcome.result === 'failed' && outcome.stage === 'ledger') throw outcome.error;
      }
    }
  } catch (error) {
    // Whichever call the abort reached (the list, a download, a wait before a retry), the run is what was aborted.
    if (signal.aborted && !(error instanceof AbortedError && error.operation === 'processAll')) throw abortedBy(signal, { operation: 'processAll' });
    throw error;
  } finally {
    await removeTemporary(workDir);
  }
  return report;
}

/** The ledger of the client's service for this user, reading the former default in the working folder too. */
function defaultLedger(client: DownloadQueue): FileLedger {
  if (client.baseUrl === undefined) {
    throw new ClientOptionsError('processAll needs options.ledger for a download queue without a baseUrl (the default ledger is the service\'s).');
  }
  return new FileLedger(defaultLedgerPathFor(client.baseUrl), { alsoRead: [defaultLedgerPath] });
}

async function deleteProcessed(client: DownloadQueue, name: string, signal: AbortSignal): Promise<void> {
  try {
    await client.delete(name, { signal });
  } catch (error) {
    // Gone from the list is what deleting is for; the ledger already holds the name.
    if (!(error instanceof FileNotInListError)) throw error;
  }
}

/** What one run hands each file's steps. */
interface Run {
  client: DownloadQueue;
  handler: FileHandler;
  ledger: ProcessedFileLedger;
  workDir: string;
  signal: AbortSignal;
  onProgress: TransferOptions['onProgress'];
}

async function processOne(run: Run, name: string): Promise<FileOutcome> {
  const { client, ledger, workDir, signal, onProgress } = run;
  if (await ledger.has(name)) {
    try {
      await deleteProcessed(client, name, signal);
      return { name, result: 'already-processed' };
    } catch (error) {
      return failed(name, 'delete', error);
    }
  }
  let copy: { path: string; size: number };
  try {
    // The name comes from the service: check it before it becomes part of a local path.
    assertValidFileName(name);
    await checkSpaceNoted(ledger, name, workDir);
    copy = await downloadWorkCopy(client, name, workDir, onProgress === undefined ? { signal } : { onProgress, signal });
  } catch (error) {
    if (error instanceof LocalFileError && isFullDisk(error.code) && !(error as { notedBefore?: boolean }).notedBefore) {
      await ledger.noteLocalFailure?.(name, { code: error.code!, neededBytes: error.neededBytes, at: new Date().toISOString() }).catch(() => undefined);
    }
    return failed(name, 'download', error);
  }
  await ledger.clearLocalFailure?.(name).catch(() => undefined);
  try {
    return await handOver(run, name, copy);
  } finally {
    // A copy that cannot be removed must not stop the run: it is in the private work folder, removed at the end.
    await rm(copy.path, { force: true }).catch(() => undefined);
  }
}

const isFullDisk = (code: string | undefined) => code === 'ENOSPC' || code === 'EDQUOT';

/**
 * A file an earlier run could not save for want of space is not downloaded again until the work folder has the room
 * it needs: each download spends one of those the service allows per file (then 429, for good), and a job run from
 * cron every 10 minutes on a full disk spent them all within hours.
 */
async function checkSpaceNoted(ledger: ProcessedFileLedger, name: string, workDir: string): Promise<void> {
  const noted = await ledger.localFailure?.(name);
  if (noted?.neededBytes === undefined) return;
  const free = await freeBytes(workDir);
  if (free === undefined || free >= noted.neededBytes) return;
  throw Object.assign(
    new LocalFileError(
      `downloadFile ${name}: still not enough space in ${workDir} (${noted.neededBytes} bytes needed, ${free} free) since a download ` +
        `of it failed for want of space at ${noted.at}; not downloaded again, to spare the downloads the service allows per file. ` +
        'Free some space: the next run downloads it.',
      { operation: 'downloadFile', fileName: name, code: noted.code, path: workDir, neededBytes: noted.neededBytes },
    ),
    { notedBefore: true },
  );
}

/**
 * The private copy is named after the file, unless the name is too long for this file system (the service's names
 * have no length limit): then it gets a short name of its own, so that the file can still be handled.
 */
async function downloadWorkCopy(client: DownloadQueue, name: string, workDir: string, options: TransferOptions): Promise<{ path: string; size: number }> {
  try {
    const path = join(workDir, name);
    return { path, ...(await client.downloadToFile(name, path, options)) };
  } catch (error) {
    if (!(error instanceof LocalFileError && error.code === 'ENAMETOOLONG')) throw error;
    const path = join(workDir, `~long-name-${++longNames}`);
    return { path, ...(await client.downloadToFile(name, path, options)) };
  }
}
let longNames = 0;

/** Handler, ledger, delete: each step only once the one before succeeded. */
async function handOver(run: Run, name: string, copy: { path: string; size: number }): Promise<FileOutcome> {
  const { client, handler, ledger, signal } = run;
  try {
    await handler({ name, path: copy.path, size: copy.size, open: () => createReadStream(copy.path), signal });
  } catch (error) {
    // A handler stopped by the abort did not handle the file: it stays queued, and the run ends.
    if (signal.aborted) throw abortedBy(signal, { operation: 'processAll', fileName: name });
    return failed(name, 'handler', error);
  }
  // Handled is handled, abort or not: recorded, so the next run deletes it instead of handling it again.
  try {
    await ledger.record(name);
  } catch (error) {
    return failed(name, 'ledger', error);
  }
  try {
    await deleteProcessed(client, name, signal);
  } catch (error) {
    return failed(name, 'delete', error);
  }
  return { name, result: 'processed' };
}

function failed(name: string, stage: 'download' | 'handler' | 'ledger' | 'delete', error: unknown): FileOutcome {
  if (isFatal(error)) throw error;
  // An abort ends the run, whichever call it reached; the file stays queued (or, after the ledger, is deleted next run).
  if (error instanceof AbortedError) throw new AbortedError({ operation: 'processAll', fileName: name, reason: error.cause });
  return { name, result: 'failed', stage, error };
}

/** Errors that would hit every other file too: stop the run rather than repeat them per file. */
function isFatal(error: unknown): boolean {
  return error instanceof FileExchangeError && ['AccessRefusedError', 'TlsHandshakeError', 'ProxyRefusedError'].includes(error.name);
}
