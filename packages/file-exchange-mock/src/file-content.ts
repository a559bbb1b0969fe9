import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/** The bytes of one stored file, kept in memory when small and in a file of the store's folder when large. */
export interface FileContent {
  readonly size: number;
  /** Hex SHA-256, used to recognise a resent copy of the same file. */
  readonly sha256: string;
  read(): Buffer;
  stream(): Readable;
}

export function contentFromBuffer(bytes: Buffer): FileContent {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { size: bytes.length, sha256, read: () => bytes, stream: () => Readable.from([bytes]) };
}

export function contentFromFile(path: string, size: number, sha256: string): FileContent {
  return { size, sha256, read: () => readFileSync(path), stream: () => createReadStream(path) };
}

// Above this size an upload goes to disk, so that benchmarks of large transfers do not measure the mock's memory.
const IN_MEMORY_LIMIT = 8 * 1024 * 1024;

/** Collects an upload's bytes as they arrive, spilling to `spillPath` once they pass the in-memory limit. */
export class ContentSink {
  private readonly hash = createHash('sha256');
  private chunks: Buffer[] = [];
  private size = 0;
  private file: WriteStream | undefined;

  constructor(private readonly spillPath: string) {}

  async write(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (!this.file && this.size <= IN_MEMORY_LIMIT) {
      this.chunks.push(chunk);
      return;
    }
    if (!this.file) {
      this.file = createWriteStream(this.spillPath, { mode: 0o600 });
      for (const earlier of this.chunks) this.file.write(earlier);
      this.chunks = [];
    }
    if (!this.file.write(chunk)) await once(this.file, 'drain');
  }

  async finish(): Promise<FileContent> {
    const sha256 = this.hash.digest('hex');
    if (!this.file) return { ...contentFromBuffer(Buffer.concat(this.chunks, this.size)), sha256 };
    const file = this.file;
    await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return contentFromFile(this.spillPath, this.size, sha256);
  }

  /** Throws the partial upload away. */
  discard(): void {
    this.chunks = [];
    this.file?.destroy();
  }
}

export const spillPathIn = (dir: string, sequence: number) => join(dir, `upload-${sequence}.bin`);
