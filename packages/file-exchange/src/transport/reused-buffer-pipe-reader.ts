import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import { Readable } from 'node:stream';
import { uploadBytesInFlight, uploadChunkBytes, type ReleasingBody } from './reused-buffer-file-reader.js';

/** A pipe gives at most its capacity per read: 64 KiB unless its writer enlarged it. */
const pieceBytes = 64 * 1024;
/** Pieces kept for reuse: enough for what the socket holds, plus this stream's buffer and its consumer's. */
const keptPieces = (uploadBytesInFlight + 2 * uploadChunkBytes) / pieceBytes;

/**
 * Reads a pipe (or a socket) by its descriptor, standard input of `cat file | paykit-files upload`, into 64 KiB
 * buffers used again once their consumer releases them (see `ReleasingBody`).
 *
 * Why: `process.stdin` allocates a fresh buffer for each read, which costs the kernel a page fault per 4 KiB. Read
 * through `net.Socket`'s `onread` into reused buffers, `cat 1GiB | paykit-files upload --size` (the package's bench)
 * took less time than a bare `pipeline(process.stdin, request)` does without writing any spool. A piece is read into
 * again only once released; a consumer that never releases (any other pipe) just gets fresh buffers. The descriptor
 * is closed once the stream has ended or is destroyed, as `fs.createReadStream` closes its own.
 */
export class ReusedBufferPipeReader extends Readable implements ReleasingBody {
  private readonly free: Buffer[] = [];
  private readonly socket: Socket;

  constructor(fd: number) {
    super({ highWaterMark: uploadChunkBytes });
    // `onread` is a documented option of `new net.Socket()` (Node 12.10+), missing from @types/node 20's declaration.
    const options: SocketConstructorOpts & { onread: OnReadOpts } = {
      fd,
      readable: true,
      writable: false,
      onread: {
        // Called for the buffer of each next read: the previous one now belongs to the piece just pushed.
        buffer: () => this.free.pop() ?? Buffer.allocUnsafeSlow(pieceBytes),
        callback: (bytesRead, buffer) => this.push(Buffer.from(buffer.buffer, buffer.byteOffset, bytesRead)),
      },
    };
    this.socket = new Socket(options);
    this.socket.pause();
    this.socket.once('end', () => this.push(null));
    this.socket.once('error', (error) => this.destroy(error));
  }

  override _read(): void {
    this.socket.resume();
  }

  releaseChunk(chunk: Buffer): void {
    // Only a whole piece's memory goes back (a view of a part of one shares it, and is released with it).
    if (chunk.byteOffset !== 0 || chunk.buffer.byteLength !== pieceBytes || this.free.length >= keptPieces) return;
    const piece = Buffer.from(chunk.buffer, 0, pieceBytes);
    if (!this.free.some((kept) => kept.buffer === piece.buffer)) this.free.push(piece);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.free.length = 0;
    this.socket.destroy();
    callback(error);
  }
}
