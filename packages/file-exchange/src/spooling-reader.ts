import { read, writeSync } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { uploadChunkBytes } from './transport/reused-buffer-file-reader.js';

const readAt = promisify(read);


/** Gives the reason a stream of announced length had the wrong length. */
export type LengthMismatch = (seen: number, announced: number, which: 'fewer' | 'more') => Error;

/**
 * Reads a stream that cannot be read twice (a pipe) into a spool file, and sends the upload from that file while it
 * grows: the request reads the file behind the writer. So sending starts at once, no byte is ever sent that is not in
 * the spool file, and a resend (after a network error or a 500) reads the same file again from its start.
 *
 * Measured on a 1 GiB pipe, this is faster than handing the stream's pieces to the request: the stream's 64 KiB
 * pieces go to the file with synchronous writes into the page cache (each piece's memory is reused at once), while
 * the request reads the file in 1 MiB pieces in the thread pool and writes them into the TLS socket in large writes.
 *
 * Guarantees, whatever the stream or the disk does: a request never gets the last byte of the announced length until
 * the stream has ended with exactly that length, so it cannot complete with a wrong file; a stream of another length,
 * or a spool file that cannot be written, fails every request reading it.
 */
export class SpoolingReader {
  private received = 0;
  private ended = false;
  private failure: unknown;
  private waiters: Array<() => void> = [];

  /** Starts reading the stream into `spoolFd`, a file open for reading and writing. */
  constructor(
    private readonly source: Readable,
    private readonly spoolFd: number,
    /** The announced length; a stream without one can only be spooled to its end, then sent. */
    private readonly length: number | undefined,
    private readonly mismatch: LengthMismatch,
  ) {
    source.on('data', this.onData);
    source.once('end', this.onEnd);
    source.once('error', this.fail);
  }

  /** A request body: the spool file from its start, following the writer, to the stream's announced length. */
  body(): Readable {
    const length = this.length;
    if (length === undefined) throw new Error('a stream of unknown length cannot be sent as it is read: spool it first');
    let offset = 0;
    let pumping = false;
    const body = new Readable({
      highWaterMark: uploadChunkBytes,
      read: () => {
        if (!pumping) void pump();
      },
    });
    const pump = async (): Promise<void> => {
      pumping = true;
      try {
        for (;;) {
          if (body.destroyed) return;
          if (this.failure !== undefined) {
            body.destroy(asError(this.failure));
            return;
          }
          // The last byte waits for the end: until then, the stream may yet turn out longer than announced.
          const sendable = this.ended ? this.received : Math.min(this.received, length - 1);
          if (offset < sendable) {
            const size = Math.min(sendable - offset, uploadChunkBytes);
            const chunk = Buffer.allocUnsafeSlow(size);
            const { bytesRead } = await readAt(this.spoolFd, chunk, 0, size, offset);
            if (bytesRead === 0) throw new Error('the spool file ended before what was written to it');
            offset += bytesRead;
            if (!body.push(bytesRead === size ? chunk : chunk.subarray(0, bytesRead))) return;
          } else if (this.ended) {
            body.push(null);
            return;
          } else {
            await this.change();
          }
        }
      } catch (error) {
        body.destroy(asError(error));
      } finally {
        pumping = false;
      }
    };
    return body;
  }

  /** Resolves with the stream's length once the stream has ended and the spool file holds all of it. */
  async spooled(): Promise<number> {
    while (!this.ended && this.failure === undefined) await this.change();
    if (this.failure !== undefined) throw this.failure;
    return this.received;
  }

  /** Stops reading, so that the spool file can be closed and removed. */
  stop(): void {
    this.source.off('data', this.onData);
    this.source.pause();
    this.failure ??= new Error('the upload content is no longer read');
    this.notify();
  }

  private readonly onData = (chunk: Buffer | Uint8Array | string): void => {
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    const position = this.received;
    if (this.length !== undefined && position + piece.length > this.length) {
      this.fail(this.mismatch(position + piece.length, this.length, 'more'));
      return;
    }
    try {
      for (let offset = 0; offset < piece.length; ) offset += writeSync(this.spoolFd, piece, offset, piece.length - offset, position + offset);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.received += piece.length;
    this.notify();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    if (this.length !== undefined && this.received !== this.length) this.fail(this.mismatch(this.received, this.length, 'fewer'));
    this.notify();
  };

  private readonly fail = (error: unknown): void => {
    if (this.failure === undefined) this.failure = error;
    this.source.off('data', this.onData);
    this.source.pause();
    this.notify();
  };

  private change(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
