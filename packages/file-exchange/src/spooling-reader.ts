import { read, writeSync } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { isReleasingBody, uploadChunkBytes, type ReleasingBody } from './transport/reused-buffer-file-reader.js';

const readAt = promisify(read);


/** Gives the reason a stream of announced length had the wrong length. */
export type LengthMismatch = (seen: number, announced: number, which: 'fewer' | 'more') => Error;

/**
 * Reads a stream that cannot be read twice (a pipe) into a spool file while the first try sends it, so that a resend
 * (after a network error or a 500) can read the same bytes again from that file.
 *
 * The first body is fed the stream's pieces themselves, each once it is written to the spool file: the stream is read
 * as fast as the request takes it, and nothing is read back. A later body (a resend) reads the spool file from its
 * start, following the writer while the stream is still arriving; the stream then flows into the file at its own pace.
 * The spool's writes are synchronous, into the page cache: each piece is in the file before any body has it.
 *
 * Guarantees, whatever the stream or the disk does: a body never gets the last byte of the announced length until
 * the stream has ended with exactly that length, so a request cannot complete with a wrong file; a stream of another
 * length, or a spool file that cannot be written, fails every body reading it.
 */
export class SpoolingReader {
  private received = 0;
  private reading = false;
  private ended = false;
  private failure: unknown;
  private waiters: Array<() => void> = [];
  /** The first try's body, fed from the stream; undefined once it is over or given up. */
  private live: Readable | undefined;
  /** The announced length's last byte, kept from the first body until the stream has ended. */
  private heldBack: Buffer | undefined;

  /** Reads nothing yet: the stream is read from the first `body()` or `spooled()` on. */
  constructor(
    private readonly source: Readable,
    private readonly spoolFd: number,
    /** The announced length; a stream without one can only be spooled to its end, then sent. */
    private readonly length: number | undefined,
    private readonly mismatch: LengthMismatch,
    /** The error a failed write of the spool file ends every body with (a full disk: the caller's to name). */
    private readonly spoolFailed: (error: unknown) => unknown = (error) => error,
  ) {
    source.once('end', this.onEnd);
    source.once('error', this.fail);
  }

  /** A request body: the stream from its start to its announced length. A new body ends the one before it. */
  body(): Readable {
    const length = this.length;
    if (length === undefined) throw new Error('a stream of unknown length cannot be sent as it is read: spool it first');
    this.live?.destroy();
    return this.reading ? this.spoolFileBody(length) : this.liveBody();
  }

  /** Resolves with the stream's length once the stream has ended and the spool file holds all of it. */
  async spooled(): Promise<number> {
    this.read();
    while (!this.ended && this.failure === undefined) await this.change();
    if (this.failure !== undefined) throw this.failure;
    return this.received;
  }

  /** Whether the stream has ended with its announced length, all of it in the spool file. */
  get complete(): boolean {
    return this.ended && this.failure === undefined;
  }

  /** Stops reading, so that the spool file can be closed and removed. */
  stop(): void {
    this.fail(new Error('the upload content is no longer read'));
  }

  private read(): void {
    if (this.reading || this.failure !== undefined) return;
    this.reading = true;
    this.source.on('data', this.onData);
  }

  /**
   * The stream's pieces as they are spooled; the stream waits while the request does not take them. The socket's
   * release of a piece goes back to the stream, when the stream reads into buffers it uses again (a pipe's reader).
   */
  private liveBody(): ReleasingBody {
    const body: ReleasingBody = Object.assign(new Readable({
      highWaterMark: uploadChunkBytes,
      read: () => {
        if (this.failure === undefined) this.source.resume();
      },
      destroy: (error, callback) => {
        if (this.live === body) {
          // Given up (its try failed): the rest of the stream still goes to the spool file, for the resend.
          this.live = undefined;
          if (this.failure === undefined) this.source.resume();
        }
        callback(error);
      },
    }), { releaseChunk: (chunk: Buffer) => this.release(chunk) });
    this.live = body;
    if (this.failure !== undefined) body.destroy(asError(this.failure));
    else this.read();
    return body;
  }

  /** The spool file from its start, following the writer, to the stream's announced length. */
  private spoolFileBody(length: number): Readable {
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
      this.fail(this.spoolFailed(error));
      return;
    }
    this.received += piece.length;
    if (this.live) this.handOn(this.live, piece);
    else this.release(piece);
    this.notify();
  };

  private handOn(live: Readable, piece: Buffer): void {
    let sendable = piece;
    // The last byte waits for the end: until then, the stream may yet turn out longer than announced. It is copied:
    // the piece's memory may be read into again once the socket took the rest.
    if (this.received === this.length && piece.length > 0) {
      this.heldBack = Buffer.from(piece.subarray(piece.length - 1));
      sendable = piece.subarray(0, piece.length - 1);
    }
    if (sendable.length === 0) this.release(piece);
    else if (!live.push(sendable)) this.source.pause();
  }

  /** A piece of the stream that no body holds any more may be read into again. */
  private release(piece: Buffer): void {
    if (isReleasingBody(this.source)) this.source.releaseChunk(piece);
  }

  private readonly onEnd = (): void => {
    this.ended = true;
    if (this.length !== undefined && this.received !== this.length) {
      this.fail(this.mismatch(this.received, this.length, 'fewer'));
      return;
    }
    if (this.live) {
      if (this.heldBack) this.live.push(this.heldBack);
      this.live.push(null);
    }
    this.notify();
  };

  private readonly fail = (error: unknown): void => {
    if (this.failure === undefined) this.failure = error;
    this.source.off('data', this.onData);
    this.source.pause();
    this.live?.destroy(asError(this.failure));
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
