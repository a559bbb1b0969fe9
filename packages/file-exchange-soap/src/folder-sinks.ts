import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { localFileError } from '@paykit/file-exchange/core';
import type { ByteSink } from './codec/base64-decoder.js';

/** Where one received file's content was written. */
export interface SavedContent {
  path: string;
  size: number;
}

/**
 * The files one DownloadFiles response writes into a folder. Each file's content goes, as it is decoded, to a new
 * `.paykit-soap-<uuid>.part` file (this user only) with synchronous writes of at most one decoded piece (48 KiB),
 * so memory stays bounded whatever the file size; the parser's callbacks are synchronous, and so is the write.
 * Once the whole response has been read and checked, `commit` syncs each file and renames it without `.part`: a
 * file without the suffix is complete and on disk. A response that fails part way is `discard`ed (the service
 * sends its files again after a network error); `.part` files left by a killed process are never taken as complete.
 */
export class FolderSinks {
  private readonly open: Array<{ partPath: string; path: string; fd: number | undefined; size: number }> = [];

  constructor(private readonly folder: string) {}

  /** A sink for the next base64 field; its `end` gives the field's value, a SavedContent. */
  sink(): ByteSink {
    const name = `paykit-soap-${randomUUID()}`;
    const entry = { partPath: join(this.folder, `.${name}.part`), path: join(this.folder, name), fd: undefined as number | undefined, size: 0 };
    entry.fd = this.fileStep(entry.partPath, () => openSync(entry.partPath, 'wx', 0o600));
    this.open.push(entry);
    return {
      write: (bytes) => {
        this.fileStep(entry.partPath, () => {
          for (let offset = 0; offset < bytes.length; ) offset += writeSync(entry.fd!, bytes, offset, bytes.length - offset);
        });
        entry.size += bytes.length;
      },
      end: (): SavedContent => {
        const fd = entry.fd!;
        entry.fd = undefined;
        // Synced before it is renamed: "acknowledged means durable", and the service will not send it again.
        this.fileStep(entry.partPath, () => {
          fsyncSync(fd);
          closeSync(fd);
        });
        return { path: entry.path, size: entry.size };
      },
    };
  }

  /** Every file of the response is complete: give each its final name, and sync the folder so the names last. */
  commit(): void {
    for (const entry of this.open) this.fileStep(entry.path, () => renameSync(entry.partPath, entry.path));
    this.fileStep(this.folder, () => {
      const folder = openSync(this.folder, 'r');
      try {
        fsyncSync(folder);
      } finally {
        closeSync(folder);
      }
    });
    this.open.length = 0;
  }

  /** Removes what this response wrote: it failed, and its files will come again. */
  discard(): void {
    for (const entry of this.open.splice(0)) {
      if (entry.fd !== undefined) closeSync(entry.fd);
      rmSync(entry.partPath, { force: true });
    }
  }

  private fileStep<T>(path: string, step: () => T): T {
    try {
      return step();
    } catch (error) {
      throw localFileError({ operation: 'downloadFiles' }, path, error);
    }
  }
}
