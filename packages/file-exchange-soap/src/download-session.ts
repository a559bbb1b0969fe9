import { assertValidFileName } from '@paykit/file-exchange';
import { abortedBy } from '@paykit/file-exchange/core';
import { DownloadNotDrainingError } from './errors.js';
import type { DownloadedFile } from './generated/types.js';

export type { SavedFile } from './folder-sinks.js';

/**
 * What a session over a folder does besides: hand over first the files an earlier run committed and did not finish
 * (`restore`), drop the sidecar of a file once it is processed (`acknowledge`), remove a processed file's copy the
 * service sent again (`discardDuplicate`).
 */
export interface SessionStore<File> {
  restore(): File[];
  acknowledge(file: File): void;
  discardDuplicate(file: File): void;
}

/** A failure of a response after some of its files were saved (a full disk): those files, handed over first. */
export interface PartlySaved<File> {
  savedFiles?: File[];
}

/** Remembers which fileIDs were processed. A `Set<string>` fits; pass a persistent one to recognise duplicates across runs. */
export interface FileIdLedger {
  has(fileID: string): boolean | Promise<boolean>;
  add(fileID: string): unknown;
}

export interface DownloadAllOptions {
  /** fileIDs already processed. Default: an in-memory set for this session. */
  seen?: FileIdLedger;
  /** Stops the loop in any phase (a request, reading its body, the wait before a retry): AbortedError. */
  signal?: AbortSignal;
  /** After this many responses in a row holding only known files, stop with DownloadNotDrainingError. Default 10. */
  maxResponsesWithOnlyDuplicates?: number;
}

export interface DownloadStats {
  /** DownloadFiles exchanges that completed. */
  responses: number;
  /** Files received, duplicates included. */
  received: number;
  /** Files skipped because their fileID was already processed. */
  duplicates: number;
  /** Files the loop finished with (it asked for the next one). */
  processed: number;
}

/**
 * Drains a download queue: repeats DownloadFiles until a response holds no file, and yields every file once.
 *
 * A file counts as processed when the loop asks for the next one; only then is its fileID added to `seen`. If the
 * loop stops early (break, an exception, a failed request), the files received but not processed stay in
 * `unprocessed`: the service will not send them again, so nothing is dropped silently.
 */
export class DownloadSession<File extends { fileID: string; fileName?: string } = DownloadedFile> implements AsyncIterable<File> {
  /** Received from the service and not processed yet, in the order received. */
  readonly unprocessed: File[] = [];
  readonly stats: DownloadStats = { responses: 0, received: 0, duplicates: 0, processed: 0 };
  private iterated = false;

  constructor(
    private readonly queueID: string,
    private readonly fetchBatch: (signal?: AbortSignal) => Promise<File[]>,
    private readonly options: DownloadAllOptions = {},
    private readonly store?: SessionStore<File>,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<File, void, undefined> {
    if (this.iterated) throw new Error('A download session can be iterated only once: call downloadAll again.');
    this.iterated = true;
    const seen = this.options.seen ?? new Set<string>();
    const limit = this.options.maxResponsesWithOnlyDuplicates ?? 10;
    let onlyDuplicates = 0;
    const signal = this.options.signal;
    // Files an earlier run committed and did not finish with come first.
    if (this.store) this.unprocessed.push(...this.store.restore());
    const restored = this.unprocessed.length > 0;
    for (let first = true; ; first = false) {
      let failure: unknown;
      if (!(first && restored)) {
        if (signal?.aborted) throw abortedBy(signal, { operation: 'downloadAll' });
        const batch = await this.fetchBatch(signal).catch((error: unknown) => {
          if (signal?.aborted) throw abortedBy(signal, { operation: 'downloadAll' });
          // A response that failed after some of its files were saved (a full disk): those are handed over, then the
          // failure is thrown.
          const saved = (error as PartlySaved<File>).savedFiles;
          if (!saved?.length) throw error;
          failure = error;
          return saved;
        });
        if (failure === undefined) this.stats.responses++;
        if (batch.length === 0) return;
        this.stats.received += batch.length;
        this.unprocessed.push(...batch);
      }
      let fresh = 0;
      while (this.unprocessed.length > 0) {
        const file = this.unprocessed[0]!;
        if (await seen.has(file.fileID)) {
          this.unprocessed.shift();
          this.stats.duplicates++;
          this.store?.discardDuplicate(file);
          continue;
        }
        fresh++;
        // The name comes from the service: checked like a REST name before the caller may use it as a path. A bad
        // one stops the loop (InvalidFileNameError); the file stays in `unprocessed` with the rest of its response.
        if (file.fileName !== undefined) assertValidFileName(file.fileName, { operation: 'downloadAll' });
        yield file;
        await seen.add(file.fileID);
        this.store?.acknowledge(file);
        this.unprocessed.shift();
        this.stats.processed++;
      }
      if (failure !== undefined) throw failure;
      if (first && restored) continue;
      onlyDuplicates = fresh === 0 ? onlyDuplicates + 1 : 0;
      if (onlyDuplicates >= limit) throw new DownloadNotDrainingError(this.queueID, onlyDuplicates);
    }
  }
}
