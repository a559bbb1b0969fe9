import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSink } from '../src/transport/file-sink.js';


let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('FileSink', () => {
  it.each([
    { title: 'no data', chunks: [] as number[], batch: 1024 },
    { title: 'less than one batch', chunks: [10, 20], batch: 1024 },
    { title: 'many small chunks over several batches', chunks: Array.from({ length: 300 }, (_, i) => 1 + (i % 97)), batch: 1024 },
    { title: 'chunks larger than a batch', chunks: [5000, 3, 7000], batch: 1024 },
  ])('writes exactly the bytes it was given: $title', async ({ chunks, batch }) => {
    let offset = 0;
    const buffers = chunks.map((size) => Buffer.from(Array.from({ length: size }, () => offset++ % 251)));
    const path = join(dir, 'out.bin');
    const sink = await FileSink.open(path, batch);
    const told: number[] = [];
    await sink.receive(Readable.from(buffers), (total) => told.push(total));
    expect(await readFile(path)).toEqual(Buffer.concat(buffers));
    expect(sink.bytesReceived).toBe(Buffer.concat(buffers).length);
    expect(told.at(-1) ?? 0).toBe(sink.bytesReceived);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('fails, naming the file, and stops the source when a write fails (a full disk)', async () => {
    const source = Readable.from(Array.from({ length: 20 }, () => Buffer.alloc(700, 1)));
    await expect((await FileSink.open('/dev/full', 1024)).receive(source)).rejects.toMatchObject({ code: 'ENOSPC', path: '/dev/full', fileFailed: true });
    expect(source.destroyed).toBe(true);
  });

  it("passes the source's error on as it is", async () => {
    const broken = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const source = new Readable({ read() {} });
    const receiving = (await FileSink.open(join(dir, 'cut.bin'))).receive(source);
    source.push(Buffer.from('part'));
    source.destroy(broken);
    await expect(receiving).rejects.toBe(broken);
  });

  it('fails at once with the error of a source already destroyed when it is handed over (an abort that came first)', async () => {
    const aborted = new Error('aborted meanwhile');
    const source = new Readable({ read() {} }).on('error', () => undefined);
    source.destroy(aborted);
    await new Promise((resolve) => source.once('close', resolve));
    await expect((await FileSink.open(join(dir, 'late.bin'))).receive(source)).rejects.toBe(aborted);
  });

  it('fails to open, before any data, when the file cannot be created', async () => {
    await expect(FileSink.open(join(dir, 'missing', 'out.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
