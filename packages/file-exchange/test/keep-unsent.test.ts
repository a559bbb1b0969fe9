// `upload(name, stream, { keepUnsent: true })`: a stream cannot be read again, so when its upload fails for good after
// the stream was read to its end, the spooled copy is kept (private, durable, out of the temporary files) and the
// error names it; a copy of anything less than the whole stream, or of content the caller still has, is never kept.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AbortedError,
  AccessRefusedError,
  InvalidUploadContentError,
  RetriesExhaustedError,
} from '../src/index.js';
import { withControlledClock } from './support/fake-clock.js';
import { startMock, type MockFixture } from './support/mock.js';
import { rejectionOf } from './support/rejection.js';
import { startMtlsServer } from './support/mtls-server.js';

let fx: MockFixture;
let spoolDir: string;
let sequence = 0;
const fresh = (stem: string) => `${stem}_${String(++sequence).padStart(3, '0')}.dat`;

beforeAll(async () => {
  fx = await startMock();
});
afterAll(async () => {
  await fx?.close();
});
beforeEach(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'paykit-keep-unsent-'));
});
afterEach(async () => {
  await rm(spoolDir, { recursive: true, force: true });
});

const content = randomBytes(300_000);
/** The content in three pieces, as a pipe gives it. */
const pipeOf = (bytes: Buffer) => Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000, 200_000), bytes.subarray(200_000)]);

/** The spool folder's entries, the kept folders set apart. */
async function spoolEntries() {
  const names = await readdir(spoolDir);
  return { temporary: names.filter((name) => name.startsWith('~')), kept: names.filter((name) => name.startsWith('paykit-unsent-')) };
}

/** The kept copy is the whole content, private, in a folder of its own that no run takes for a leftover. */
async function expectKept(path: string | undefined, name: string, bytes: Buffer) {
  expect(path).toBeDefined();
  expect(basename(path!)).toBe(name);
  expect(dirname(dirname(path!))).toBe(spoolDir);
  expect(basename(dirname(path!))).toMatch(/^paykit-unsent-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
  expect((await readFile(path!)).equals(bytes)).toBe(true);
  expect((await stat(path!)).mode & 0o777).toBe(0o600);
  expect((await stat(dirname(path!))).mode & 0o777).toBe(0o700);
  expect(await spoolEntries()).toEqual({ temporary: [], kept: [basename(dirname(path!))] });
}

/** A service that answers 500 to everything (after reading the whole request), counting the requests. */
const startFailingServer = () => startMtlsServer(fx.certificates, (_, response) => response.writeHead(500).end());
const clientOf = (origin: string, retry: object) =>
  fx.client({ baseUrl: `${origin}/services/messaging/rest`, spoolDir, retry: { intervalMs: 20, maxDurationMs: 1_000, allowShortIntervals: true, ...retry } });

describe.each([
  { how: 'sent as it is read (contentLength given)', length: content.length },
  { how: 'spooled first (length unknown)', length: undefined },
])('a stream $how, given keepUnsent', ({ length }) => {
  it('refused for good (403): the error names a private, durable copy of the whole stream, and that copy uploads', async () => {
    const client = await fx.client({ spoolDir });
    const name = fresh('REFUSED');
    fx.mock.store.failNext('upload', { status: 403 });
    const error = await rejectionOf(client.upload(name, pipeOf(content), { contentLength: length, keepUnsent: true }));
    expect(error).toBeInstanceOf(AccessRefusedError);
    await expectKept(error.unsentContentPath, name, content);
    await client.upload(name, error.unsentContentPath!);
    expect(fx.mock.store.uploads().filter((upload) => upload.fileName === name).map((upload) => Buffer.from(upload.content).equals(content))).toEqual([true]);
  });

  it('retries used up (500 each time): RetriesExhaustedError names the copy', async () => {
    const server = await startFailingServer();
    try {
      // The first failed try moves the window's clock past its end: one resend, then the window is used up.
      const client = await clientOf(server.origin, { maxDurationMs: 30_000, onRetry: () => vi.advanceTimersByTime(30_000) });
      const name = fresh('EXHAUSTED');
      const error = await withControlledClock(() => rejectionOf(client.upload(name, pipeOf(content), { contentLength: length, keepUnsent: true })));
      expect(error).toBeInstanceOf(RetriesExhaustedError);
      await expectKept(error.unsentContentPath, name, content);
    } finally {
      await server.close();
    }
  });

  it('aborted in the wait between tries, the stream read to its end: AbortedError names the copy', async () => {
    const server = await startFailingServer();
    try {
      const stop = new AbortController();
      const client = await clientOf(server.origin, { intervalMs: 60_000, maxDurationMs: 600_000, onRetry: () => stop.abort(new Error('operator stop')) });
      const name = fresh('ABORTED');
      const error = await rejectionOf(client.upload(name, pipeOf(content), { contentLength: length, keepUnsent: true, signal: stop.signal }));
      expect(error).toBeInstanceOf(AbortedError);
      await expectKept(error.unsentContentPath, name, content);
    } finally {
      await server.close();
    }
  });

  it('without keepUnsent: the copy is removed, as before', async () => {
    const client = await fx.client({ spoolDir });
    fx.mock.store.failNext('upload', { status: 403 });
    const error = await rejectionOf(client.upload(fresh('NOT_KEPT'), pipeOf(content), { contentLength: length }));
    expect(error).toBeInstanceOf(AccessRefusedError);
    expect(error.unsentContentPath).toBeUndefined();
    expect(await spoolEntries()).toEqual({ temporary: [], kept: [] });
  });

  it('an upload that succeeds leaves nothing behind', async () => {
    const client = await fx.client({ spoolDir });
    await client.upload(fresh('SENT'), pipeOf(content), { contentLength: length, keepUnsent: true });
    expect(await spoolEntries()).toEqual({ temporary: [], kept: [] });
  });
});

describe('what is never kept, given keepUnsent', () => {
  it('a stream not read to its end (aborted while it waits for more): nothing kept, nothing left', async () => {
    const stop = new AbortController();
    async function* halfAPipe() {
      yield content.subarray(0, 100_000);
      stop.abort(new Error('operator stop'));
      await new Promise(() => undefined);
    }
    const client = await fx.client({ spoolDir });
    const error = await rejectionOf(client.upload(fresh('HALF'), halfAPipe(), { contentLength: content.length, keepUnsent: true, signal: stop.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.unsentContentPath).toBeUndefined();
    expect(await spoolEntries()).toEqual({ temporary: [], kept: [] });
  });

  it.each([
    { what: 'longer than announced', stream: () => pipeOf(content), contentLength: 1000 },
    { what: 'shorter than announced', stream: () => pipeOf(content), contentLength: content.length + 1 },
  ])('a stream $what: InvalidUploadContentError, nothing kept, nothing left', async ({ stream, contentLength }) => {
    const client = await fx.client({ spoolDir });
    const error = await rejectionOf(client.upload(fresh('WRONG_LENGTH'), stream(), { contentLength, keepUnsent: true }));
    expect(error).toBeInstanceOf(InvalidUploadContentError);
    expect(error.unsentContentPath).toBeUndefined();
    expect(await spoolEntries()).toEqual({ temporary: [], kept: [] });
  });

  it.each([
    { what: 'bytes', body: () => content },
    { what: 'a file path', body: () => join(spoolDir, 'given.bin') },
  ])('content the caller still has ($what), refused for good: no copy', async ({ body }) => {
    const given = body();
    if (typeof given === 'string') await writeFile(given, content);
    const client = await fx.client({ spoolDir });
    fx.mock.store.failNext('upload', { status: 403 });
    const error = await rejectionOf(client.upload(fresh('CALLERS'), given, { keepUnsent: true }));
    expect(error).toBeInstanceOf(AccessRefusedError);
    expect(error.unsentContentPath).toBeUndefined();
    expect(await spoolEntries()).toEqual({ temporary: [], kept: [] });
  });
});
