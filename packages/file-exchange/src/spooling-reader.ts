import { writeSync } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * How far reading may run ahead of sending: the next pieces arrive while the socket drains, instead of each piece
 * being read only once the one before it has been sent.
 */
const readAheadBytes = 4 * 1024 * 1024;

/** Gives the reason a stream of announced length had the wrong length. */
export type LengthMismatch = (seen: number, announced: number, which: 'fewer' | 'more') => Error;

/**
 * Reads a stream of announced length once and, in that one pass, writes each piece to a spool file and hands it to
 * the request sending it, so that a resend has every byte although the stream cannot be read twice. Each piece goes
 * from the stream's `data` event to the spool file (a synchronous write into the page cache: cheaper than the thread
 * pool's hand-offs, measured) and on to the request body, with no queue, promise or generator per piece in between.
 *
 * Guarantees, whatever the stream or the disk does: a piece reaches the request only after it is in the spool file;
 * no piece beyond the announced length reaches it; and the last piece is held back until the stream has ended with
 * exactly that length. So a request carrying these pieces cannot complete with a wrong file, and a request that fails
 * part-way leaves the rest of the stream to be read into the spool for the resend.
 */
export class SpoolingReader {
  private received = 0;
  private ended = false;
  private failure: unknown;
  private started = false;
  /** The request body being fed from the stream, while there is one. */
  private sink: Readable | undefined;
  /** The newest piece, held back from the body until the next one (or the end) shows it is not one too many. */
  private held: Buffer | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly source: Readable,
    private readonly spoolFd: number,
    /** The announced length; a stream without one can only be spooled, then sent from the file. */
    private readonly length: number | undefined,
    private readonly mismatch: LengthMismatch,
  ) {
    source.once('end', this.onEnd);
    source.once('error', this.fail);
  }

  /** The body of the one request that sends from the stream itself (the first try): it starts the reading. */
  body(): Readable {
    if (this.started) throw new Error('the stream of an upload can be sent from only once; resends read the spool file');
    if (this.length === undefined) throw new Error('a stream of unknown length cannot be sent as it is read: spool it first');
    const sink = new Readable({
      highWaterMark: readAheadBytes,
      read: () => {
        if (this.sink === sink && this.failure === undefined && !this.ended) this.source.resume();
      },
      destroy: (error, callback) => {
        // The request is over (sent, failed or abandoned): the rest of the stream goes to the spool file alone.
        if (this.sink === sink) this.detach();
        callback(error);
      },
    });
    this.sink = sink;
    this.start();
    return sink;
  }

  /** Resolves with the stream's length once the stream has ended and the spool file holds all of it. */
  async spooled(): Promise<number> {
    this.detach();
    this.start();
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

  private start(): void {
    if (this.started) {
      if (this.failure === undefined && !this.ended) this.source.resume();
      return;
    }
    this.started = true;
    this.source.on('data', this.onData);
  }

  private detach(): void {
    this.sink = undefined;
    this.held = undefined;
    if (this.started && this.failure === undefined && !this.ended) this.source.resume();
  }

  private readonly onData = (chunk: Buffer | Uint8Array | string): void => {
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    const position = this.received;
    this.received += piece.length;
    if (this.length !== undefined && this.received > this.length) {
      this.fail(this.mismatch(this.received, this.length, 'more'));
      return;
    }
    try {
      for (let offset = 0; offset < piece.length; ) offset += writeSync(this.spoolFd, piece, offset, piece.length - offset, position + offset);
    } catch (error) {
      this.fail(error);
      return;
    }
    const sink = this.sink;
    if (sink) {
      const previous = this.held;
      this.held = piece;
      if (previous && !sink.push(previous)) this.source.pause();
    }
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    if (this.length !== undefined && this.received !== this.length) {
      this.fail(this.mismatch(this.received, this.length, 'fewer'));
      return;
    }
    const sink = this.sink;
    if (sink) {
      if (this.held) sink.push(this.held);
      this.held = undefined;
      sink.push(null);
    }
    this.notify();
  };

  private readonly fail = (error: unknown): void => {
    if (this.failure === undefined) this.failure = error;
    this.source.off('data', this.onData);
    this.source.pause();
    const sink = this.sink;
    this.sink = undefined;
    this.held = undefined;
    sink?.destroy(error instanceof Error ? error : new Error(String(error)));
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
