import { closeSync, createReadStream, createWriteStream, openSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { fstat as fstatCallback } from 'node:fs';
import { InvalidUploadContentError } from './errors.js';
import { makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from './temporary-files.js';

/**
 * What `upload` takes: bytes, a path to a file, an open descriptor of a regular file (`{ fd: 0 }` for standard input
 * redirected from a file; read from its start with positioned reads, so a resend reads it again), or a stream.
 */
export type UploadContent = Buffer | Uint8Array | string | { fd: number } | Readable | AsyncIterable<Uint8Array>;

/** Content that can be sent again on a retry: each `open()` gives a fresh stream of `length` bytes. */
export interface ReplayableContent {
  length: number;
  open(): Buffer | Readable;
  /** Removes what was made to replay a stream (a temporary file); safe to call twice. */
  dispose(): Promise<void>;
}

export interface ContentOptions {
  /** Where a stream is kept for a resend (default: the system temporary folder). */
  spoolDir?: string | undefined;
  /** The length the caller announces; required to send a stream while it is read. */
  contentLength?: number | undefined;
}

const nothingToDispose = async () => undefined;

/** Larger reads than the 64 KiB default: fewer writes into the TLS socket, for about 1 MiB more memory. */
const readChunkBytes = 1024 * 1024;

function checkLength(actual: number, announced: number | undefined, what: string): number {
  if (announced !== undefined && announced !== actual) {
    throw new InvalidUploadContentError(`The content length given (${announced} bytes) is not the length of ${what} (${actual} bytes); nothing was sent.`);
  }
  return actual;
}

async function fromPath(path: string, announced: number | undefined): Promise<ReplayableContent> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InvalidUploadContentError(`Upload content ${path} is not a regular file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof InvalidUploadContentError) throw error;
    throw new InvalidUploadContentError(`Cannot read the upload content file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return { length: checkLength(size, announced, path), open: () => createReadStream(path, { highWaterMark: readChunkBytes }), dispose: nothingToDispose };
}

async function fromDescriptor(fd: number, announced: number | undefined): Promise<ReplayableContent> {
  const info = await promisify(fstatCallback)(fd).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidUploadContentError(`Cannot read the upload content (descriptor ${fd}: ${error.code ?? 'error'}).`);
  });
  if (!info.isFile()) throw new InvalidUploadContentError(`Upload content descriptor ${fd} is not a regular file.`);
  const length = checkLength(info.size, announced, `the file of descriptor ${fd}`);
  // Positioned reads (start) leave the descriptor's own offset alone; the descriptor stays open: it is the caller's.
  const open = () =>
    length === 0 ? Buffer.alloc(0) : createReadStream('', { fd, start: 0, end: length - 1, autoClose: false, highWaterMark: readChunkBytes });
  return { length, open, dispose: nothingToDispose };
}

/**
 * A stream of unknown length is read once to its end into a temporary file readable only by this user: that gives
 * the Content-Length the service needs and lets a retry send the same bytes again. Memory use stays flat.
 */
async function spool(source: Readable, spoolDir: string): Promise<ReplayableContent> {
  const dir = await makeTemporaryFolder(spoolDir, 'upload');
  const path = join(dir, 'content');
  const dispose = () => removeTemporary(dir);
  try {
    await pipeline(source, createWriteStream(path, { mode: 0o600 }));
    const { size } = await stat(path);
    return { length: size, open: () => createReadStream(path, { highWaterMark: readChunkBytes }), dispose };
  } catch (error) {
    await dispose();
    throw new InvalidUploadContentError(`Reading the upload content stream failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A stream of announced length is sent as it is read; each piece is also written to a temporary file as it passes,
 * so that a resend (after a network error or a 500) can send the same bytes without the stream. A resend first reads
 * what the first try left of the stream into that file. A stream that gives fewer or more bytes than announced fails
 * the upload before its last byte is sent, so the service never receives a wrong file.
 */
async function sendWhileSpooling(source: Readable, length: number, spoolDir: string): Promise<ReplayableContent> {
  const dir = await makeTemporaryFolder(spoolDir, 'upload');
  const path = join(dir, 'content');
  const fd = openSync(path, 'w', 0o600);
  const pieces = source[Symbol.asyncIterator]();
  let spooled = 0;
  let ended = false;
  let opened = false;
  const next = async (): Promise<Buffer | undefined> => {
    const { value, done } = await pieces.next();
    if (done) {
      ended = true;
      if (spooled !== length) throw lengthMismatch(spooled, length, 'fewer');
      return undefined;
    }
    const piece = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
    for (let offset = 0; offset < piece.length; ) offset += writeSync(fd, piece, offset);
    spooled += piece.length;
    if (spooled > length) throw lengthMismatch(spooled, length, 'more');
    return piece;
  };
  async function* firstTry(): AsyncGenerator<Buffer> {
    // The last piece is held back until the stream has ended with the announced length: sent earlier, it could
    // complete the request (Content-Length reached) before a surplus byte showed the stream was not that file.
    let held: Buffer | undefined;
    for (let piece = await next(); piece !== undefined; piece = await next()) {
      if (held) yield held;
      held = piece;
    }
    if (held) yield held;
  }
  async function* resend(): AsyncGenerator<Buffer> {
    while (!ended) await next();
    if (spooled !== length) throw lengthMismatch(spooled, length, spooled < length ? 'fewer' : 'more');
    yield* createReadStream(path, { highWaterMark: readChunkBytes });
  }
  return {
    length,
    open: () => {
      const pieces = opened ? resend() : firstTry();
      opened = true;
      return Readable.from(pieces, { objectMode: false });
    },
    dispose: async () => {
      try {
        closeSync(fd);
      } catch {
        // Already closed by an earlier dispose.
      }
      await removeTemporary(dir);
    },
  };
}

function lengthMismatch(seen: number, announced: number, which: 'fewer' | 'more'): InvalidUploadContentError {
  return new InvalidUploadContentError(
    `The upload content gave ${which === 'fewer' ? `only ${seen}` : `more than ${announced}`} bytes where ${announced} were announced; the upload was stopped before its end.`,
  );
}

const isStream = (content: unknown): content is Readable | AsyncIterable<Uint8Array> =>
  content instanceof Readable || (content !== null && typeof content === 'object' && Symbol.asyncIterator in content);

export async function toReplayableContent(content: UploadContent, options: ContentOptions = {}): Promise<ReplayableContent> {
  const announced = options.contentLength;
  if (announced !== undefined && !(Number.isSafeInteger(announced) && announced >= 0)) {
    throw new InvalidUploadContentError(`The content length must be a whole number of bytes, not ${String(announced)}.`);
  }
  if (typeof content === 'string') return fromPath(content, announced);
  if (Buffer.isBuffer(content) || content instanceof Uint8Array) {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    return { length: checkLength(bytes.length, announced, 'the bytes given'), open: () => bytes, dispose: nothingToDispose };
  }
  if (isStream(content)) {
    const spoolDir = options.spoolDir ?? tmpdir();
    await removeStaleTemporaries(spoolDir);
    const source = content instanceof Readable ? content : Readable.from(content, { objectMode: false });
    return announced === undefined ? spool(source, spoolDir) : sendWhileSpooling(source, announced, spoolDir);
  }
  if (content !== null && typeof content === 'object' && typeof (content as { fd?: unknown }).fd === 'number') {
    return fromDescriptor((content as { fd: number }).fd, announced);
  }
  throw new InvalidUploadContentError('Upload content must be a Buffer, a Uint8Array, a file path, a file descriptor ({ fd }) or a readable stream.');
}
