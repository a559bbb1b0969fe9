import { closeSync, open, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

/**
 * Writes a download to a file through one small reused buffer: incoming chunks are copied into it, and each time it
 * fills it is written with a synchronous write on the calling thread, straight from the response's 'data' events.
 *
 * Why synchronous: the kernel's copy of the bytes into the page cache is most of a download's cost, and it measured
 * several times dearer when the write was issued from libuv's thread pool (every asynchronous fs write) than from the
 * thread that decrypted the bytes: the pool thread does not have them in its cache, and on a 2-core machine it also
 * competes with the main thread and the server for a core. For 1 GiB over TLS on loopback, `perf record` showed
 * 1.9 s in the kernel's page-cache copy with 256 KiB pool writes, against 0.3 s for curl (8 KiB writes from its own
 * thread); `pnpm bench` went from 3.0-4.4 s (2.1-2.2x curl, 2.1-3.1 s system time) with four 256 KiB pool buffers to
 * 1.5-1.8 s (1.0x curl, 0.7-0.8 s system time) with this. 32 KiB stays in the L1/L2 cache between the copy in and
 * the write out; writing each 16 KiB TLS record unbuffered doubles the syscalls for no gain.
 * Why not a Writable stream in a pipeline: the stream machinery between the response and the write (pause and resume
 * of the socket around a 1 MiB queue) cost a quarter more CPU for the same bytes (8 paired 1 GiB downloads on a
 * loaded 2-core machine: 4.0 s against 5.1 s of CPU, 0.72x the wall time); a write that finishes before the handler
 * returns needs no queue.
 * The cost: each write blocks the event loop, well under a millisecond for 32 KiB to a local file (a very slow disk
 * would block it longer); meanwhile the kernel keeps receiving into the socket buffer.
 * Memory stays at `bufferBytes` whatever the file size.
 */
export class FileSink {
  private fd: number | undefined;
  private readonly buffer: Buffer;
  private used = 0;
  /** Bytes taken so far (all of them are in the file once `receive` resolved). */
  bytesReceived = 0;

  /**
   * Opens (creates or empties, readable by this user only) `path` first, so that a file that cannot be written fails
   * here, before anything is asked of the service.
   */
  static async open(path: string, bufferBytes = 32 * 1024): Promise<FileSink> {
    return new FileSink(await openFile(path, 'w', 0o600), path, bufferBytes);
  }

  private constructor(
    fd: number,
    /** The file written, named in errors: synchronous writes to a descriptor do not name it. */
    readonly path: string,
    private readonly bufferBytes: number,
  ) {
    this.fd = fd;
    this.buffer = Buffer.allocUnsafeSlow(bufferBytes);
  }

  /**
   * Writes everything `source` gives, then closes the file. Rejects with the source's error, or with the file's
   * (which then names the path, and `fileFailed` is true); the source is destroyed when the file fails.
   */
  receive(source: Readable, onBytes?: (total: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (error: unknown, fromFile: boolean) => {
        this.close();
        if (fromFile) source.destroy();
        reject(fromFile ? Object.assign(error instanceof Error ? error : new Error(String(error)), { path: this.path, fileFailed: true }) : error);
      };
      // A body ended before it was handed over (an abort or a stall while the caller was between the answer's head
      // and this call): its events are over, so the outcome is told now, or the call would wait for ever.
      if (source.destroyed) {
        fail(source.errored ?? Object.assign(new Error('the connection closed before the end of the body'), { code: 'ECONNRESET' }), false);
        return;
      }
      source.on('data', (chunk: Buffer) => {
        try {
          this.fill(chunk);
        } catch (error) {
          fail(error, true);
          return;
        }
        onBytes?.(this.bytesReceived);
      });
      source.once('end', () => {
        try {
          this.flush();
          this.close();
          resolve();
        } catch (error) {
          fail(error, true);
        }
      });
      source.once('error', (error) => fail(error, false));
      // A response whose connection broke may end in 'close' without 'end' or 'error'.
      source.once('close', () => {
        if (this.fd !== undefined) fail(Object.assign(new Error('the connection closed before the end of the body'), { code: 'ECONNRESET' }), false);
      });
    });
  }

  /** Closes the file (when the download is given up before `receive`); safe to call twice. */
  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }

  /** Copies `chunk` into the buffer, writing the buffer out each time it fills. */
  private fill(chunk: Buffer): void {
    this.bytesReceived += chunk.length;
    for (let offset = 0; offset < chunk.length; ) {
      const copied = chunk.copy(this.buffer, this.used, offset);
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
}

const openFile = promisify(open);
