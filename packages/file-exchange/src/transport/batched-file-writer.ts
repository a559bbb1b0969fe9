import { close, open, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';

/**
 * Writes a stream to a file through one small reused buffer: incoming chunks are copied into it, and each time it
 * fills it is written with a synchronous write on the calling thread.
 *
 * Why synchronous: the kernel's copy of the bytes into the page cache is most of a download's cost, and it measured
 * several times dearer when the write was issued from libuv's thread pool (every asynchronous fs write) than from the
 * thread that decrypted the bytes: the pool thread does not have them in its cache, and on a 2-core machine it also
 * competes with the main thread and the server for a core. For 1 GiB over TLS on loopback, `perf record` showed
 * 1.9 s in the kernel's page-cache copy with 256 KiB pool writes, against 0.3 s for curl (8 KiB writes from its own
 * thread); `pnpm bench` went from 3.0-4.4 s (2.1-2.2x curl, 2.1-3.1 s system time) with four 256 KiB pool buffers to
 * 1.5-1.8 s (1.0x curl, 0.7-0.8 s system time) with this. 32 KiB stays in the L1/L2 cache between the copy in and
 * the write out; writing each 16 KiB TLS record unbuffered doubles the syscalls for no gain.
 * The cost: each write blocks the event loop, well under a millisecond for 32 KiB to a local file (a very slow disk
 * would block it longer); meanwhile the kernel keeps receiving into the socket buffer.
 * Memory stays at `bufferBytes + queueBytes` whatever the file size.
 */
export class BatchedFileWriter extends Writable {
  private fd: number | undefined;
  private readonly buffer: Buffer;
  private used = 0;
  /** Bytes accepted so far (all of them are in the file once the stream finished). */
  bytesReceived = 0;

  /**
   * Opens (creates or empties, readable by this user only) `path` first, so that a file that cannot be written fails
   * here, before anything is asked of the service.
   */
  static async open(path: string, bufferBytes?: number, queueBytes?: number): Promise<BatchedFileWriter> {
    return new BatchedFileWriter(await openFile(path, 'w', 0o600), path, bufferBytes, queueBytes);
  }

  private constructor(
    fd: number,
    /** The file written, named in errors: synchronous writes to a descriptor do not name it. */
    readonly path: string,
    private readonly bufferBytes = 32 * 1024,
    queueBytes = 1024 * 1024,
  ) {
    super({ highWaterMark: queueBytes });
    this.fd = fd;
    this.buffer = Buffer.allocUnsafeSlow(bufferBytes);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.bytesReceived += chunk.length;
    callback(this.attempt(() => this.fill(chunk)));
  }

  override _final(callback: (error?: Error | null) => void): void {
    callback(this.attempt(() => this.flush()));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return callback(error);
    close(fd, (closeError) => callback(error ?? closeError));
  }

  /** Copies `chunk` into the buffer, writing the buffer out each time it fills. */
  private fill(chunk: Buffer): void {
    const buffer = this.buffer;
    for (let offset = 0; offset < chunk.length; ) {
      const copied = chunk.copy(buffer, this.used, offset);
      this.used += copied;
      offset += copied;
      if (this.used === this.bufferBytes) this.flush();
    }
  }

  /** Writes what the buffer holds; writeSync may write less than asked (rare on regular files), so finish the rest. */
  private flush(): void {
    for (let offset = 0; offset < this.used; ) offset += writeSync(this.fd!, this.buffer, offset, this.used - offset);
    this.used = 0;
  }

  /** Runs a step that writes; a failed write (a full disk) becomes the stream's error, naming the file, instead of a throw. */
  private attempt(step: () => void): Error | null {
    try {
      step();
      return null;
    } catch (error) {
      return Object.assign(error instanceof Error ? error : new Error(String(error)), { path: this.path });
    }
  }
}

const openFile = promisify(open);
