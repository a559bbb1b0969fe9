import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidUploadContentError } from './errors.js';
import { makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from './temporary-files.js';

/** What `upload` takes: bytes, a path to a file, or a stream (read once, kept in a private temporary file). */
export type UploadContent = Buffer | Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

/** Content that can be sent again on a retry: each `open()` gives a fresh stream of `length` bytes. */
export interface ReplayableContent {
  length: number;
  open(): Buffer | Readable;
  /** Removes what was made to replay a stream (a temporary file); safe to call twice. */
  dispose(): Promise<void>;
}

const nothingToDispose = async () => undefined;

/** Larger reads than the 64 KiB default: fewer writes into the TLS socket, for about 1 MiB more memory. */
const readChunkBytes = 1024 * 1024;

async function fromPath(path: string): Promise<ReplayableContent> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InvalidUploadContentError(`Upload content ${path} is not a regular file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof InvalidUploadContentError) throw error;
    throw new InvalidUploadContentError(`Cannot read the upload content file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return { length: size, open: () => createReadStream(path, { highWaterMark: readChunkBytes }), dispose: nothingToDispose };
}

/**
 * A stream is read once, so it is written to a temporary file readable only by this user: that gives the
 * Content-Length the service needs and lets a retry send the same bytes again. Memory use stays flat.
 */
async function spool(stream: Readable | AsyncIterable<Uint8Array>, spoolDir: string | undefined): Promise<ReplayableContent> {
  const parent = spoolDir ?? tmpdir();
  await removeStaleTemporaries(parent);
  const dir = await makeTemporaryFolder(parent, 'upload');
  const path = join(dir, 'content');
  const dispose = () => removeTemporary(dir);
  try {
    const source = stream instanceof Readable ? stream : Readable.from(stream);
    await pipeline(source, createWriteStream(path, { mode: 0o600 }));
    const { size } = await stat(path);
    return { length: size, open: () => createReadStream(path, { highWaterMark: readChunkBytes }), dispose };
  } catch (error) {
    await dispose();
    throw new InvalidUploadContentError(`Reading the upload content stream failed: ${(error as Error).message}`, { cause: error });
  }
}

export async function toReplayableContent(content: UploadContent, spoolDir?: string): Promise<ReplayableContent> {
  if (typeof content === 'string') return fromPath(content);
  if (Buffer.isBuffer(content) || content instanceof Uint8Array) {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    return { length: bytes.length, open: () => bytes, dispose: nothingToDispose };
  }
  if (content instanceof Readable || (content !== null && typeof content === 'object' && Symbol.asyncIterator in content)) {
    return spool(content, spoolDir);
  }
  throw new InvalidUploadContentError('Upload content must be a Buffer, a Uint8Array, a file path or a readable stream.');
}
