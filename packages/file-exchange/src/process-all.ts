import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FileExchangeError, FileNotInListError, LocalFileError } from './errors.js';
import type { FileListFormat } from './file-list.js';
import { assertValidFileName } from './file-name.js';
import { FileLedger, type ProcessedFileLedger } from './ledger.js';
import { makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from './temporary-files.js';
import type { TransferOptions } from './transfer-options.js';

/** What processAll needs of a client (a FileExchangeClient is one): the download queue's three calls. */
export interface DownloadQueue {
  list(options: { format: FileListFormat }): Promise<string[]>;
  downloadToFile(name: string, path: string, options: TransferOptions): Promise<{ size: number }>;
  delete(name: string): Promise<void>;
}

/** A downloaded file handed to the processing handler; `path` is a private temporary copy removed afterwards. */
export interface ReceivedFile {
  name: string;
  path: string;
  size: number;
  /** A fresh stream of the content (the handler may call it more than once). */
  open(): Readable;
}

export type FileHandler = (file: ReceivedFile) => Promise<void> | void;

export interface ProcessAllOptions {
  /** Where processed names are remembered; default a FileLedger at `.paykit/file-exchange-processed.txt`. */
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
 */
export async function processAll(client: DownloadQueue, handler: FileHandler, options: ProcessAllOptions = {}): Promise<ProcessAllReport> {
  const ledger = options.ledger ?? new FileLedger();
  const report: ProcessAllReport = { processed: [], alreadyProcessed: [], failed: [] };
  const settle = (outcome: FileOutcome) => {
    if (outcome.result === 'processed') report.processed.push(outcome.name);
    else if (outcome.result === 'already-processed') report.alreadyProcessed.push(outcome.name);
    else report.failed.push(outcome);
    options.onFile?.(outcome);
  };
  const parent = options.workDir ?? tmpdir();
  await removeStaleTemporaries(parent);
  const workDir = await makeTemporaryFolder(parent, 'download');
  const seen = new Set<string>();
  try {
    // The list is capped (fileExchangeRules.downloads.listCap); deleting processed files lets the next listing show the rest.
    for (;;) {
      const names = (await client.list({ format: options.listFormat ?? 'text' })).filter((name) => !seen.has(name));
      if (names.length === 0) break;
      for (const name of names) {
        seen.add(name);
        const outcome = await processOne(client, handler, ledger, name, workDir, options.onProgress);
        settle(outcome);
        // Every later file would be handled, then not recorded, then handled again by the next run: stop here.
        if (outcome.result === 'failed' && outcome.stage === 'ledger') throw outcome.error;
      }
    }
  } finally {
    await removeTemporary(workDir);
  }
  return report;
}

async function deleteProcessed(client: DownloadQueue, name: string): Promise<void> {
  try {
    await client.delete(name);
  } catch (error) {
    // Gone from the list is what deleting is for; the ledger already holds the name.
    if (!(error instanceof FileNotInListError)) throw error;
  }
}

async function processOne(
  client: DownloadQueue,
  handler: FileHandler,
  ledger: ProcessedFileLedger,
  name: string,
  workDir: string,
  onProgress: TransferOptions['onProgress'],
): Promise<FileOutcome> {
  if (await ledger.has(name)) {
    try {
      await deleteProcessed(client, name);
      return { name, result: 'already-processed' };
    } catch (error) {
      return failed(name, 'delete', error);
    }
  }
  let copy: { path: string; size: number };
  try {
    // The name comes from the service: check it before it becomes part of a local path.
    assertValidFileName(name);
    copy = await downloadWorkCopy(client, name, workDir, onProgress === undefined ? {} : { onProgress });
  } catch (error) {
    return failed(name, 'download', error);
  }
  try {
    return await handOver(client, handler, ledger, name, copy);
  } finally {
    // A copy that cannot be removed must not stop the run: it is in the private work folder, removed at the end.
    await rm(copy.path, { force: true }).catch(() => undefined);
  }
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
async function handOver(
  client: DownloadQueue,
  handler: FileHandler,
  ledger: ProcessedFileLedger,
  name: string,
  copy: { path: string; size: number },
): Promise<FileOutcome> {
  try {
    await handler({ name, path: copy.path, size: copy.size, open: () => createReadStream(copy.path) });
  } catch (error) {
    return failed(name, 'handler', error);
  }
  try {
    await ledger.record(name);
  } catch (error) {
    return failed(name, 'ledger', error);
  }
  try {
    await deleteProcessed(client, name);
  } catch (error) {
    return failed(name, 'delete', error);
  }
  return { name, result: 'processed' };
}

function failed(name: string, stage: 'download' | 'handler' | 'ledger' | 'delete', error: unknown): FileOutcome {
  if (isFatal(error)) throw error;
  return { name, result: 'failed', stage, error };
}

/** Errors that would hit every other file too: stop the run rather than repeat them per file. */
function isFatal(error: unknown): boolean {
  return error instanceof FileExchangeError && ['AccessRefusedError', 'TlsHandshakeError', 'ProxyRefusedError'].includes(error.name);
}
