import { open, rename, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { fstat as fstatCallback } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { InvalidUploadContentError, LocalFileError } from './errors.js';
import { SpoolingReader } from './spooling-reader.js';
import { ReusedBufferFileReader } from './transport/reused-buffer-file-reader.js';
import { forgetTemporary, makeTemporaryFolder, removeStaleTemporaries, removeTemporary } from './temporary-files.js';

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
  /**
   * A stream's only: when its spool file holds the whole stream, moves that file out of the temporary files under
   * the name `fileName` (see keepUnsentSpool) and resolves with its path; resolves with undefined when the stream was
   * not read to its end with the right length (nothing complete to keep). Called before `dispose`.
   */
  keep?(fileName: string): Promise<string | undefined>;
}

export interface ContentOptions {
  /** Where a stream is kept for a resend (default: the system temporary folder). */
  spoolDir?: string | undefined;
  /** The length the caller announces; required to send a stream while it is read. */
  contentLength?: number | undefined;
}

const nothingToDispose = async () => undefined;

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
  const length = checkLength(size, announced, path);
  return { length, open: () => new ReusedBufferFileReader({ path }, length), dispose: nothingToDispose };
}

async function fromDescriptor(fd: number, announced: number | undefined): Promise<ReplayableContent> {
  const info = await promisify(fstatCallback)(fd).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidUploadContentError(`Cannot read the upload content (descriptor ${fd}: ${error.code ?? 'error'}).`);
  });
  if (!info.isFile()) throw new InvalidUploadContentError(`Upload content descriptor ${fd} is not a regular file.`);
  const length = checkLength(info.size, announced, `the file of descriptor ${fd}`);
  // Positioned reads (start) leave the descriptor's own offset alone; the descriptor stays open: it is the caller's.
  const open = () =>
    length === 0 ? Buffer.alloc(0) : new ReusedBufferFileReader({ fd }, length);
  return { length, open, dispose: nothingToDispose };
}

/** A private spool file in a temporary folder of its own, for a stream that cannot be read twice. */
async function makeSpoolFile(spoolDir: string): Promise<{ dir: string; path: string; file: FileHandle }> {
  const dir = await makeTemporaryFolder(spoolDir, 'upload');
  const path = join(dir, 'content');
  try {
    return { dir, path, file: await open(path, 'w+', 0o600) };
  } catch (error) {
    await removeTemporary(dir);
    throw new InvalidUploadContentError(`Cannot make the temporary copy of the upload content (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, { cause: error });
  }
}

/** The prefix of a kept folder: not `~paykit-`, so that no later run takes it for a leftover and removes it. */
const unsentFolderPrefix = 'paykit-unsent-';

/**
 * Moves a spool file that holds a whole stream out of the temporary files, to `<parent>/paykit-unsent-<time>-<hex>/
 * <fileName>` (the folder private, 0700, as the spool's was), and makes it durable before resolving with its path.
 * The folder is renamed before anything slow: once renamed, a signal's clean-up (or a later run) no longer removes it.
 */
async function keepUnsentSpool(spoolFolder: string, spoolFile: FileHandle, fileName: string): Promise<string> {
  const parent = dirname(spoolFolder);
  await rename(join(spoolFolder, 'content'), join(spoolFolder, fileName));
  const stamp = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  const kept = join(parent, `${unsentFolderPrefix}${stamp}-${randomBytes(4).toString('hex')}`);
  await rename(spoolFolder, kept);
  forgetTemporary(spoolFolder);
  await spoolFile.sync();
  await spoolFile.close();
  for (const folder of [kept, parent]) await syncFolder(folder);
  return join(kept, fileName);
}

async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * A stream of unknown length is read once to its end into a temporary file readable only by this user: that gives
 * the Content-Length the service needs (before the first byte) and lets a retry send the same bytes again. Memory
 * use stays flat.
 */
async function spool(source: Readable, spoolDir: string): Promise<ReplayableContent> {
  const { dir, path, file } = await makeSpoolFile(spoolDir);
  const dispose = async () => {
    await file.close().catch(() => undefined);
    await removeTemporary(dir);
  };
  try {
    const length = await new SpoolingReader(source, file.fd, undefined, lengthMismatch, spoolWriteFailed(spoolDir)).spooled();
    // Left open, for keep() to make the file durable: only a kept file pays for that.
    return { length, open: () => new ReusedBufferFileReader({ path }, length), dispose, keep: (fileName) => keepUnsentSpool(dir, file, fileName) };
  } catch (error) {
    await dispose();
    if (error instanceof LocalFileError) throw error;
    throw new InvalidUploadContentError(`Reading the upload content stream failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A stream of announced length is sent as it is read: the first try sends its pieces as each is written to a
 * temporary file, and a resend (after a network error or a 500) sends that file from its start, following the stream
 * if it has not ended yet (see SpoolingReader). A stream that gives fewer or more bytes than announced fails the
 * upload before its last byte is sent, so the service never receives a wrong file.
 */
async function sendWhileSpooling(source: Readable, length: number, spoolDir: string): Promise<ReplayableContent> {
  const { dir, file } = await makeSpoolFile(spoolDir);
  const reader = new SpoolingReader(source, file.fd, length, lengthMismatch, spoolWriteFailed(spoolDir));
  let disposed: Promise<void> | undefined;
  return {
    length,
    open: () => reader.body(),
    keep: async (fileName) => (reader.complete ? keepUnsentSpool(dir, file, fileName) : undefined),
    dispose: () =>
      (disposed ??= (async () => {
        reader.stop();
        await file.close().catch(() => undefined);
        await removeTemporary(dir);
      })()),
  };
}

/**
 * A spool file that cannot be written (a full disk, most often a small TMPDIR): final, naming the folder. A stream
 * cannot be read twice, so nothing can be resent; retrying it as a network error once meant 4 hours of tries for a
 * producer long gone and nothing kept.
 */
function spoolWriteFailed(spoolDir: string): (error: unknown) => LocalFileError {
  return (error) => {
    const code = (error as NodeJS.ErrnoException).code;
    return new LocalFileError(
      `uploadFile: the temporary copy of the upload's stream in ${spoolDir} could not be written (${(error as Error).message}); a stream cannot be read ` +
        `twice, so the upload stops here without a retry. Free space in ${spoolDir}, or give a folder with room (spoolDir; TMPDIR for paykit-files), and send the content again.`,
      { operation: 'uploadFile', path: spoolDir, cause: error, ...(code === undefined ? {} : { code }) },
    );
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
