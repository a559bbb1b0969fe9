import { open, type FileHandle } from 'node:fs/promises';
import type { Har, HarEntry } from './har.js';

const closing = Buffer.from('\n]}}\n');

/**
 * A recording kept on disk as the exchanges happen, so that a proxy killed mid-session (SIGKILL, a crash, a closed
 * terminal) leaves every exchange it answered in a HAR file that parses. Entries are written over the file's closing
 * brackets together with new ones, at a known offset: after every write the file is a whole HAR document. Entries
 * that arrive while a write is under way go together in the next one (one write per batch, however busy the proxy
 * is), and `append` resolves once its entry is written: the proxy delivers an answer only then. Nothing of an entry
 * stays in memory once written; the file is synced at `close()`.
 */
export class HarJournal {
  private batch: { piece: Buffer; done: () => void; failed: (error: unknown) => void }[] = [];
  private writing: Promise<void> | undefined;
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

  /** How many entries are on disk. */
  get entries(): number {
    return this.written;
  }

  /** Writes `entry`; resolves once it is in the file, rejects (and so does every later one) if a write failed. */
  append(entry: HarEntry): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<void>((done, failed) => {
      this.batch.push({ piece: Buffer.from(JSON.stringify(entry)), done, failed });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.batch.length > 0) {
      const batch = this.batch;
      this.batch = [];
      const parts: Buffer[] = [];
      let count = this.written;
      for (const { piece } of batch) {
        if (count++ > 0) parts.push(Buffer.from(',\n'));
        parts.push(piece);
      }
      const pieces = Buffer.concat(parts);
      try {
        if (this.failure !== undefined) throw this.failure;
        const chunk = Buffer.concat([pieces, closing]);
        await this.file.write(chunk, 0, chunk.length, this.end);
        this.end += pieces.length;
        this.written = count;
        for (const { done } of batch) done();
      } catch (error) {
        this.failure ??= error;
        for (const { failed } of batch) failed(this.failure);
      }
    }
    this.writing = undefined;
  }

  /** Resolves once every entry appended so far is written (not yet synced). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Waits for the entries appended so far, syncs and closes the file; rejects if an entry could not be written. */
  async close(): Promise<number> {
    await this.flushed();
    try {
      if (this.failure === undefined) await this.file.sync();
    } finally {
      await this.file.close();
    }
    if (this.failure !== undefined) throw this.failure;
    return this.written;
  }
}
