import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyNetworkFailure } from '../src/core/network-failure.js';
import { plainHttpAgent, transfer } from '../src/transport/node-transfer.js';
import { ReusedBufferFileReader, uploadChunkBytes } from '../src/transport/reused-buffer-file-reader.js';

const MiB = 1024 * 1024;

let dir: string;
let path: string;
let content: Buffer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-reused-buffer-'));
  path = join(dir, 'content.bin');
  // Not a whole number of chunks, and different in every chunk: a buffer read into too early shows as wrong bytes.
  content = randomBytes(9 * MiB + 12_345);
  await writeFile(path, content);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Reads a reader to its end; `release` says whether each chunk is released once read, as the sender does. */
async function readAll(reader: ReusedBufferFileReader, release: boolean): Promise<{ bytes: Buffer; memories: Set<ArrayBufferLike>; chunks: number }> {
  const copies: Buffer[] = [];
  const memories = new Set<ArrayBufferLike>();
  let chunks = 0;
  for await (const chunk of reader) {
    const piece = chunk as Buffer;
    chunks++;
    memories.add(piece.buffer);
    copies.push(Buffer.from(piece));
    if (release) reader.releaseChunk(piece);
  }
  return { bytes: Buffer.concat(copies), memories, chunks };
}

describe('ReusedBufferFileReader', () => {
  it.each([
    { label: 'the whole file', length: () => content.length },
    { label: 'the first bytes of a longer file', length: () => 3 * MiB + 7 },
  ])('reads exactly $label by path', async ({ length }) => {
    const { bytes } = await readAll(new ReusedBufferFileReader({ path }, length()), true);
    expect(bytes.equals(content.subarray(0, length()))).toBe(true);
  });

  it('reads a descriptor from its start whatever its offset, and leaves it open', async () => {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, Buffer.alloc(1000), 0, 1000, null);
      const { bytes } = await readAll(new ReusedBufferFileReader({ fd }, content.length), true);
      expect(bytes.equals(content)).toBe(true);
      expect(fstatSync(fd).size).toBe(content.length);
    } finally {
      closeSync(fd);
    }
  });

  it('reads released chunks into their buffers again, and never a chunk not released', async () => {
    const released = await readAll(new ReusedBufferFileReader({ path }, content.length), true);
    expect(released.chunks).toBe(10);
    expect(released.memories.size).toBeLessThan(released.chunks);
    const kept = await readAll(new ReusedBufferFileReader({ path }, content.length), false);
    expect(kept.memories.size).toBe(kept.chunks);
    expect(kept.bytes.equals(content)).toBe(true);
  });

  it.each([
    { label: 'a file shorter than the length', source: () => ({ path }), length: () => content.length + 1, error: () => `the file ended after ${content.length} of ${content.length + 1} bytes` },
    { label: 'a file that is gone', source: () => ({ path: join(dir, 'missing.bin') }), length: () => 10, error: () => 'ENOENT' },
  ])('fails on $label, with a failure of a local file (not retried)', async ({ source, length, error }) => {
    const thrown = await readAll(new ReusedBufferFileReader(source(), length()), true).then(() => undefined, (reason: unknown) => reason);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toContain(error());
    expect(classifyNetworkFailure(thrown).kind).toBe('local-file');
  });
});

describe('a file body sent with its buffers read into again', () => {
  let server: Server;
  let url: URL;
  let received: { sha256: string; bytes: number }[];
  beforeEach(async () => {
    received = [];
    server = createServer((request, response) => {
      const hash = createHash('sha256');
      let bytes = 0;
      request.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      request.on('end', () => {
        received.push({ sha256: hash.digest('hex'), bytes });
        response.writeHead(202).end();
      });
      request.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`);
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('arrives intact over a real socket, the buffers released as the socket takes them', async () => {
    const agent = plainHttpAgent();
    try {
      const body = new ReusedBufferFileReader({ path }, content.length);
      const release = body.releaseChunk.bind(body);
      let releases = 0;
      body.releaseChunk = (chunk) => {
        releases++;
        release(chunk);
      };
      const response = await transfer(agent, { method: 'POST', url, headers: { 'content-length': String(content.length) }, body });
      response.resume();
      expect(response.statusCode).toBe(202);
      expect(received).toEqual([{ sha256: createHash('sha256').update(content).digest('hex'), bytes: content.length }]);
      expect(releases).toBe(10);
    } finally {
      agent.destroy();
    }
  });

  it('fails with the reader\'s error, at once, when the file shrinks under the upload', async () => {
    const agent = plainHttpAgent();
    try {
      const body = new ReusedBufferFileReader({ path }, content.length);
      await truncate(path, 2 * MiB);
      const started = performance.now();
      await expect(transfer(agent, { method: 'POST', url, headers: { 'content-length': String(content.length) }, body })).rejects.toThrow(
        `the file ended after ${2 * MiB} of ${content.length} bytes`,
      );
      // Not the stall timeout nor the server's: the request ended as soon as the file did.
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(received).toEqual([]);
    } finally {
      agent.destroy();
    }
  });
});

describe('a file body sent to a peer that stops reading', () => {
  it('stops reading the file once four chunks wait for the socket and its buffers are full', async () => {
    // A peer that reads nothing: what leaves the file can only sit in the kernel's buffers or in the request's.
    const sockets: Socket[] = [];
    const peer = createTcpServer((socket) => {
      sockets.push(socket);
      socket.pause();
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const big = join(dir, 'big.bin');
    await writeFile(big, Buffer.alloc(96 * MiB, 3));
    const agent = plainHttpAgent();
    try {
      const body = new ReusedBufferFileReader({ path: big }, 96 * MiB);
      let emitted = 0;
      body.on('data', () => emitted++);
      const port = (peer.address() as AddressInfo).port;
      const sent = transfer(agent, { method: 'POST', url: new URL(`http://127.0.0.1:${port}/upload`), headers: { 'content-length': String(96 * MiB) }, body });
      sent.catch(() => undefined);
      // Wait for the reads to stop: the body paused (chunks wait for the socket) with its own buffer full, so that
      // nothing asks the file for more until the socket takes some; the peer never reads, so it takes none.
      await expect.poll(() => body.isPaused() && body.readableLength >= uploadChunkBytes, { timeout: 4_000 }).toBe(true);
      // The most the kernel can hold between the two sockets (the largest TCP buffers), and four chunks waiting in
      // the request plus one read ahead: the reads stopped there, far from the file's end.
      const largest = (name: string) => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
      const bound = Math.ceil((largest('tcp_rmem') + largest('tcp_wmem')) / MiB) + 5;
      expect(emitted).toBeGreaterThan(0);
      expect(emitted).toBeLessThanOrEqual(bound);
      expect(emitted).toBeLessThan(96);
    } finally {
      agent.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => peer.close(resolve));
    }
  });
});
