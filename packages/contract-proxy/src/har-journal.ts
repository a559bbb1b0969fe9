import { open, type FileHandle } from 'node:fs/promises';
import type { Har, HarEntry } from './har.js';

const closing = Buffer.from('\n]}}\n');

/**
 * A recording kept on disk as the exchanges happen, so that a proxy killed mid-session (SIGKILL, a crash, a closed
 * terminal) leaves every exchange recorded so far in a HAR file that parses. Each entry is written over the file's
 * closing brackets together with new ones, in one write at a known offset: after every write the file is a whole
 * HAR document. Writes are queued one at a time; the file is synced at `close()`.
 */
export class HarJournal {
  private queue: Promise<void> = Promise.resolve();
  private written = 0;
  private failure: unknown;

  private constructor(
    private readonly file: FileHandle,
    /** Where the closing brackets start: the next entry is written there. */
    private end: number,
  ) {}

  /** Creates (or empties) `path` and writes the recording's head: an empty, valid HAR. */
  static async create(path: string, head: Omit<Har['log'], 'entries'>): Promise<HarJournal> {
    const file = await open(path, 'w');
    try {
      const opening = Buffer.from(`{"log":${JSON.stringify({ ...head, entries: [] }).slice(0, -2)}\n`);
      await file.write(Buffer.concat([opening, closing]), 0, opening.length + closing.length, 0);
      return new HarJournal(file, opening.length);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /** Queues `entry`; a failed write is kept and reported by `close()`, and later entries are not written. */
  append(entry: HarEntry): void {
    this.queue = this.queue.then(async () => {
      if (this.failure !== undefined) return;
      const piece = Buffer.from(`${this.written === 0 ? '' : ',\n'}${JSON.stringify(entry)}`);
      const chunk = Buffer.concat([piece, closing]);
      try {
        await this.file.write(chunk, 0, chunk.length, this.end);
        this.end += piece.length;
        this.written += 1;
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Resolves once every entry appended so far is written (not yet synced). */
  async flushed(): Promise<void> {
    await this.queue;
  }

  /** Waits for the queued entries, syncs and closes the file; rejects if an entry could not be written. */
  async close(): Promise<number> {
    await this.queue;
    try {
      if (this.failure === undefined) await this.file.sync();
    } finally {
      await this.file.close();
    }
    if (this.failure !== undefined) throw this.failure;
    return this.written;
  }
}
