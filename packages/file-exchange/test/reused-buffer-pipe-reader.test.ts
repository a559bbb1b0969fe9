import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpoolingReader } from '../src/spooling-reader.js';
import { ReusedBufferPipeReader } from '../src/transport/reused-buffer-pipe-reader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-pipe-reader-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Bytes that differ at every offset, so that a piece read into too early shows as a wrong byte. */
function patterned(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i + 4 <= length; i += 4) bytes.writeUInt32LE(i, i);
  return bytes;
}

/** A real pipe (a FIFO): its reading end's descriptor, and a writer that writes `content` and closes. */
function fifo(content: Buffer): { fd: number; write: () => Promise<void>; blocked: () => number } {
  const path = join(dir, 'fifo');
  execFileSync('mkfifo', [path]);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  let blocked = 0;
  const write = async () => {
    for (let offset = 0; offset < content.length; ) {
      try {
        offset += writeSync(writer, content, offset, Math.min(content.length - offset, 64 * 1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        blocked++;
        // The pipe is full: let the reader's side of the event loop run before trying again.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    closeSync(writer);
  };
  return { fd, write, blocked: () => blocked };
}

describe('ReusedBufferPipeReader', () => {
  it.each([
    { title: 'releasing each piece once copied: the pieces share their memory, the bytes stay right', release: true },
    { title: 'releasing nothing: no piece is read into again', release: false },
  ])('hands on every byte of a pipe in order, $title', async ({ release }) => {
    const content = patterned(3 * 1024 * 1024 + 7);
    const { fd, write } = fifo(content);
    const reader = new ReusedBufferPipeReader(fd);
    const writing = write();
    const copies: Buffer[] = [];
    const held: Buffer[] = [];
    const memories = new Set<ArrayBufferLike>();
    for await (const piece of reader) {
      const chunk = piece as Buffer;
      expect(chunk.length).toBeLessThanOrEqual(64 * 1024);
      copies.push(Buffer.from(chunk));
      memories.add(chunk.buffer);
      if (release) reader.releaseChunk(chunk);
      else held.push(chunk);
    }
    await writing;
    expect(Buffer.concat(copies).equals(content)).toBe(true);
    // Pieces held unreleased still hold what was read into them: no later read wrote over them.
    if (!release) expect(Buffer.concat(held).equals(content)).toBe(true);
    if (release) expect(memories.size).toBeLessThan(copies.length / 4);
    else expect(memories.size).toBe(copies.length);
  });

  it('stops reading the pipe while nobody reads it, and goes on without loss when read again', async () => {
    const content = patterned(4 * 1024 * 1024);
    const { fd, write, blocked } = fifo(content);
    const reader = new ReusedBufferPipeReader(fd);
    const writing = write();
    // Nothing is read: once this reader's buffer is full, the pipe fills and its writer has to wait.
    await expect.poll(blocked, { timeout: 4_000 }).toBeGreaterThan(0);
    expect(reader.readableLength).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    const copies: Buffer[] = [];
    for await (const piece of reader) copies.push(Buffer.from(piece as Buffer));
    await writing;
    expect(Buffer.concat(copies).equals(content)).toBe(true);
  });

  it('feeds a spooling upload: the first body and the spool file both get the pipe exactly, the last byte included', async () => {
    const content = patterned(1024 * 1024 + 1);
    const { fd, write } = fifo(content);
    const spoolPath = join(dir, 'spool');
    const spoolFd = openSync(spoolPath, 'w+');
    try {
      const reader = new SpoolingReader(new ReusedBufferPipeReader(fd), spoolFd, content.length, () => new Error('wrong length'));
      const body = reader.body();
      const writing = write();
      const copies: Buffer[] = [];
      // As the socket does: each piece released as soon as it was taken.
      for await (const piece of body) {
        copies.push(Buffer.from(piece as Buffer));
        (body as unknown as { releaseChunk(chunk: Buffer): void }).releaseChunk(piece as Buffer);
      }
      await writing;
      expect(Buffer.concat(copies).equals(content)).toBe(true);
      expect(readFileSync(spoolPath).equals(content)).toBe(true);
    } finally {
      closeSync(spoolFd);
    }
  });
});
