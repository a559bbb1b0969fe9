import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchedFileWriter } from '../src/transport/batched-file-writer.js';

// A queue of 2 bytes makes the writer push back on every chunk, so the tests cover backpressure too.
const tinyQueueBytes = 2;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('BatchedFileWriter', () => {
  it.each([
    { title: 'no data', chunks: [] as number[], batch: 1024 },
    { title: 'less than one batch', chunks: [10, 20], batch: 1024 },
    { title: 'many small chunks over several batches', chunks: Array.from({ length: 300 }, (_, i) => 1 + (i % 97)), batch: 1024 },
    { title: 'chunks larger than a batch', chunks: [5000, 3, 7000], batch: 1024 },
  ])('writes exactly the bytes it was given: $title', async ({ chunks, batch }) => {
    let offset = 0;
    const buffers = chunks.map((size) => Buffer.from(Array.from({ length: size }, () => offset++ % 251)));
    const path = join(dir, 'out.bin');
    const writer = await BatchedFileWriter.open(path, batch, tinyQueueBytes);
    await pipeline(Readable.from(buffers), writer);
    expect(await readFile(path)).toEqual(Buffer.concat(buffers));
    expect(writer.bytesReceived).toBe(Buffer.concat(buffers).length);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('fails the pipeline when a write fails (a full disk)', async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(700, 1));
    await expect(pipeline(Readable.from(chunks), await BatchedFileWriter.open('/dev/full', 1024, tinyQueueBytes))).rejects.toMatchObject({ code: 'ENOSPC', path: '/dev/full' });
  });

  it('fails to open, before any data, when the file cannot be created', async () => {
    await expect(BatchedFileWriter.open(join(dir, 'missing', 'out.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
