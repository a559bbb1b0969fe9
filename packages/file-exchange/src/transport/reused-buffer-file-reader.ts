import { close, open, read } from 'node:fs';
import { Readable } from 'node:stream';

/** The size of each read, and of each write of an upload into the socket: large writes into TLS, for 1 MiB each. */
export const uploadChunkBytes = 1024 * 1024;
/**
 * Chunks of an upload written but not yet taken by the socket, at most (see `sendBody` in node-transfer.ts): one in
 * the socket, one waiting. Node's TLS socket copies the chunks of a gathered write (writev) into one new buffer before
 * it encrypts them; with a single chunk waiting, each write reaches TLS alone and is encrypted where it lies. In the
 * package's transfer bench (`upload < file`, 1 GiB), node:https with two buffers in flight used 0.49-0.56 s of CPU
 * against 0.57-0.78 s with four.
 */
export const uploadChunksInFlight = 2;
/** Buffers kept for the next reads: those in flight, plus the one this stream holds and the one being read. */
const keptChunkBuffers = uploadChunksInFlight + 2;
/** The same bound in bytes, for bodies of smaller chunks (a pipe's). */
export const uploadBytesInFlight = uploadChunksInFlight * uploadChunkBytes;

/** A body whose chunks may be read into again once the socket has taken them (see `sendBody` in node-transfer.ts). */
export interface ReleasingBody extends Readable {
  /** The socket took `chunk`: its memory may be used for a later read. */
  releaseChunk(chunk: Buffer): void;
}

export const isReleasingBody = (body: Readable): body is ReleasingBody => typeof (body as Partial<ReleasingBody>).releaseChunk === 'function';

/**
 * Reads the first `length` bytes of a file (by path, opened and closed here; or an open descriptor, read with
 * positioned reads from 0 and left open) in 1 MiB chunks, into a few buffers used again and again.
 *
 * Why: a fresh 1 MiB buffer per read costs the kernel a page fault per 4 KiB and the CPU a cold cache. In the
 * package's transfer bench (`upload < file`), a node:https upload took 1.92x curl's time reading into fresh buffers
 * and 1.07x with four reused ones. A chunk is read into again only once its consumer has released it, after the
 * socket took it; a consumer that never does (any other pipe) just gets fresh buffers, as from fs.createReadStream.
 */
export class ReusedBufferFileReader extends Readable implements ReleasingBody {
  private fd: number | undefined;
  private position = 0;
  private readonly free: Buffer[] = [];
  /** The buffer behind each chunk handed out, by its memory: a chunk may be a shorter view of it. */
  private readonly owners = new WeakMap<ArrayBufferLike, Buffer>();

  constructor(
    private readonly source: { path: string } | { fd: number },
    private readonly length: number,
  ) {
    super({ highWaterMark: uploadChunkBytes });
    if ('fd' in source) this.fd = source.fd;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    if (!('path' in this.source)) return callback();
    open(this.source.path, 'r', (error, fd) => {
      this.fd = fd;
      callback(error);
    });
  }

  override _read(): void {
    const remaining = this.length - this.position;
    if (remaining <= 0) {
      this.push(null);
      return;
    }
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(uploadChunkBytes);
    const size = Math.min(remaining, uploadChunkBytes);
    read(this.fd!, buffer, 0, size, this.position, (error, bytesRead) => {
      if (error) return this.destroy(error);
      if (this.destroyed) return;
      if (bytesRead === 0) return this.destroy(this.shorter());
      this.position += bytesRead;
      const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      this.owners.set(chunk.buffer, buffer);
      this.push(chunk);
    });
  }

  /**
   * The file is shorter than its announced length (it changed since): a failure of a local file, with a code and a
   * path as the errors of node:fs have, so that the upload fails at once and is not retried against the same file.
   */
  private shorter(): Error {
    const path = 'path' in this.source ? this.source.path : `descriptor ${this.source.fd}`;
    return Object.assign(new Error(`the file ended after ${this.position} of ${this.length} bytes`), { code: 'ERR_FILE_SHORTER_THAN_ANNOUNCED', path });
  }

  releaseChunk(chunk: Buffer): void {
    const buffer = this.owners.get(chunk.buffer);
    if (buffer && this.free.length < keptChunkBuffers && !this.free.includes(buffer)) this.free.push(buffer);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.free.length = 0;
    if (this.fd === undefined || !('path' in this.source)) return callback(error);
    close(this.fd, () => callback(error));
  }
}
