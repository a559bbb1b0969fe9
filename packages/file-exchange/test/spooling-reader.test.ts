import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpoolingReader } from '../src/spooling-reader.js';

const mismatch = (seen: number, announced: number, which: 'fewer' | 'more') => new Error(`${which}: ${seen} of ${announced}`);

let dir: string;
let spoolPath: string;
let fd: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-spooling-reader-'));
  spoolPath = join(dir, 'spool');
  fd = openSync(spoolPath, 'w+');
});
afterEach(async () => {
  closeSync(fd);
  await rm(dir, { recursive: true, force: true });
});

const pieces = (count: number, size: number) => Array.from({ length: count }, (_, i) => Buffer.alloc(size, i + 1));

/** Reads a body to its end, noting the spool file's size whenever a piece arrives; rejects with the body's error. */
async function drain(body: Readable): Promise<{ bytes: Buffer; spooledWhenReceived: number[]; receivedSoFar: number[] }> {
  const got: Buffer[] = [];
  const spooledWhenReceived: number[] = [];
  const receivedSoFar: number[] = [];
  let total = 0;
  for await (const piece of body) {
    got.push(piece as Buffer);
    total += (piece as Buffer).length;
    receivedSoFar.push(total);
    spooledWhenReceived.push(fstatSync(fd).size);
  }
  return { bytes: Buffer.concat(got), spooledWhenReceived, receivedSoFar };
}

describe('SpoolingReader', () => {
  it('hands on every byte, each piece only once it is in the spool file', async () => {
    const content = Buffer.concat(pieces(40, 64 * 1024));
    const reader = new SpoolingReader(Readable.from(pieces(40, 64 * 1024)), fd, content.length, mismatch);
    // The stream is read into the file from the start; the body follows behind.
    const { bytes, spooledWhenReceived, receivedSoFar } = await drain(reader.body());
    expect(bytes.equals(content)).toBe(true);
    spooledWhenReceived.forEach((spooled, i) => expect(spooled).toBeGreaterThanOrEqual(receivedSoFar[i]!));
    expect(readFileSync(spoolPath).equals(content)).toBe(true);
  });

  it('holds the last byte back until the stream has ended', async () => {
    const source = new PassThrough();
    const reader = new SpoolingReader(source, fd, 6, mismatch);
    const body = reader.body();
    const seen: number[] = [];
    body.on('data', (piece: Buffer) => seen.push(piece.length));
    source.write(Buffer.from('abc'));
    source.write(Buffer.from('def'));
    // Six bytes are all that was announced, but until the end a seventh could follow them. Once the spool file holds
    // all six, the reader has handed on all it will before the end (a piece goes to the body once it is in the file,
    // in the same turn): five bytes, delivered or waiting in the body, and not the sixth.
    const sent = () => seen.reduce((sum, n) => sum + n, 0);
    await expect.poll(() => fstatSync(fd).size, { timeout: 4_000 }).toBe(6);
    await expect.poll(sent, { timeout: 4_000 }).toBe(5);
    expect(sent() + body.readableLength).toBe(5);
    source.end();
    await new Promise((resolve) => body.once('end', resolve));
    expect(sent()).toBe(6);
  });

  it('gives every body the whole stream from its start, also one made while the stream is still arriving', async () => {
    const source = new PassThrough();
    const reader = new SpoolingReader(source, fd, 8, mismatch);
    const first = reader.body();
    source.write(Buffer.from('abcd'));
    // The first body is given up while the stream is still arriving: after its first piece is in the spool file.
    await expect.poll(() => fstatSync(fd).size, { timeout: 4_000 }).toBe(4);
    first.destroy();
    const second = drain(reader.body());
    source.end(Buffer.from('efgh'));
    expect((await second).bytes.toString()).toBe('abcdefgh');
  });

  it('feeds the first body as fast as it is read: a body not read holds the stream back, it is not spooled ahead', async () => {
    const content = pieces(40, 64 * 1024);
    const whole = Buffer.concat(content);
    const source = Readable.from(content);
    const reader = new SpoolingReader(source, fd, whole.length, mismatch);
    const body = reader.body();
    // The body buffers up to 1 MiB, then the stream is paused (the event this waits for): what reached the spool
    // stays near that, not 2.5 MiB, and stays so while the stream is paused.
    await expect.poll(() => fstatSync(fd).size >= 1024 * 1024 && source.isPaused(), { timeout: 4_000 }).toBe(true);
    const spooled = fstatSync(fd).size;
    expect(spooled).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fstatSync(fd).size).toBe(spooled);
    expect(body.readableLength).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    expect((await drain(body)).bytes.equals(whole)).toBe(true);
  });

  it('ends a body still open when the next one is made (its try is over), and gives the next the whole stream', async () => {
    const source = new PassThrough();
    const reader = new SpoolingReader(source, fd, 8, mismatch);
    const first = reader.body();
    first.on('error', () => undefined);
    source.write(Buffer.from('abcd'));
    await new Promise((resolve) => setImmediate(resolve));
    const second = reader.body();
    expect(first.destroyed).toBe(true);
    const drained = drain(second);
    source.end(Buffer.from('efgh'));
    expect((await drained).bytes.toString()).toBe('abcdefgh');
  });

  it.each([
    { title: 'fewer bytes than announced', given: ['abc', 'de'], announced: 6, error: 'fewer: 5 of 6' },
    { title: 'more bytes than announced', given: ['abc', 'defg'], announced: 6, error: 'more: 7 of 6' },
    { title: 'the surplus in a piece after the announced length', given: ['abcdef', 'g'], announced: 6, error: 'more: 7 of 6' },
  ])('fails the body on $title, never having handed on the announced length', async ({ given, announced, error }) => {
    const reader = new SpoolingReader(Readable.from(given.map((text) => Buffer.from(text))), fd, announced, mismatch);
    const body = reader.body();
    let handedOn = 0;
    body.on('data', (piece: Buffer) => (handedOn += piece.length));
    await expect(drain(body)).rejects.toThrow(error);
    expect(handedOn).toBeLessThan(announced);
  });

  it('fails the body when the spool file cannot be written, rather than send what a resend could not repeat', async () => {
    const readOnlyPath = join(dir, 'read-only');
    await writeFile(readOnlyPath, '');
    const readOnly = openSync(readOnlyPath, 'r');
    try {
      const reader = new SpoolingReader(Readable.from(pieces(3, 16)), readOnly, 48, mismatch);
      await expect(drain(reader.body())).rejects.toMatchObject({ code: 'EBADF' });
    } finally {
      closeSync(readOnly);
    }
  });

  it('reads the rest of the stream into the spool once the body is given up part-way, for the next body', async () => {
    const content = pieces(20, 64 * 1024);
    const whole = Buffer.concat(content);
    const source = Readable.from(content);
    const reader = new SpoolingReader(source, fd, whole.length, mismatch);
    const body = reader.body();
    await new Promise<void>((resolve) => body.once('data', () => resolve()));
    body.destroy();
    expect(await reader.spooled()).toBe(whole.length);
    expect(readFileSync(spoolPath).equals(whole)).toBe(true);
    // A resend after the stream's end reads it all back from the spool file.
    expect((await drain(reader.body())).bytes.equals(whole)).toBe(true);
  });

  it('spools a stream of unknown length, and will not send one as it is read', async () => {
    const whole = Buffer.concat(pieces(5, 1000));
    const reader = new SpoolingReader(Readable.from(pieces(5, 1000)), fd, undefined, mismatch);
    expect(await reader.spooled()).toBe(whole.length);
    expect(readFileSync(spoolPath).equals(whole)).toBe(true);
    expect(() => new SpoolingReader(Readable.from([]), fd, undefined, mismatch).body()).toThrow(/unknown length/);
  });
});
