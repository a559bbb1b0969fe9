// A caller's `onProgress` or `onRetry` that throws ends the call at once with AbortedError (its cause says what was
// thrown), never retried, never as an uncaught exception from a stream event, and the callback is not called again.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, type FileExchangeClient, type FileExchangeError, type UploadContent } from '../src/index.js';
import { quickRetry, startMock, type MockFixture } from './support/mock.js';
import { rejectionOf } from './support/rejection.js';

let fx: MockFixture;
let scratch: string;

beforeAll(async () => {
  fx = await startMock();
  scratch = await mkdtemp(join(tmpdir(), 'paykit-progress-throws-'));
});
afterAll(async () => {
  await fx?.close();
  await rm(scratch, { recursive: true, force: true });
});

const content = Buffer.alloc(3_000_000, 7);
const callerBug = new TypeError('a bug in the caller');

/** A client whose retries are counted, and an onProgress that counts its calls and throws. */
async function setUp() {
  const retries: number[] = [];
  const client: FileExchangeClient = await fx.client({ spoolDir: scratch, retry: { ...quickRetry, onRetry: (event) => retries.push(event.attempt) } });
  const calls = { count: 0 };
  const onProgress = () => {
    calls.count++;
    throw callerBug;
  };
  return { client, retries, calls, onProgress };
}

function expectStoppedByTheCallback(error: FileExchangeError, operation: string) {
  expect(error).toBeInstanceOf(AbortedError);
  expect(error.message).toMatch(new RegExp(`^${operation} \\S+ aborted: onProgress threw: a bug in the caller\\.$`));
  expect((error.cause as Error).cause).toBe(callerBug);
}

describe('upload, given an onProgress that throws', () => {
  it.each([
    { what: 'bytes', body: (): UploadContent => content, contentLength: undefined },
    { what: 'a stream of unknown length', body: (): UploadContent => Readable.from([content.subarray(0, 1_000_000), content.subarray(1_000_000)]), contentLength: undefined },
    { what: 'a stream of announced length', body: (): UploadContent => Readable.from([content.subarray(0, 1_000_000), content.subarray(1_000_000)]), contentLength: content.length },
  ])('$what: AbortedError at once, not retried, the callback called once', async ({ what, body, contentLength }) => {
    const { client, retries, calls, onProgress } = await setUp();
    const name = `THROWS_${what.replaceAll(' ', '_').toUpperCase()}.bin`;
    const error = await rejectionOf(client.upload(name, body(), { contentLength, onProgress }));
    expectStoppedByTheCallback(error, 'uploadFile');
    expect(retries).toEqual([]);
    expect(calls.count).toBe(1);
    expect((await readdir(scratch)).filter((entry) => entry.startsWith('~'))).toEqual([]);
  });

  it('a stream already read to its end, with keepUnsent: the copy is kept, as for any abort', async () => {
    const { client, onProgress } = await setUp();
    const error = await rejectionOf(client.upload('THROWS_KEPT.bin', Readable.from([content]), { onProgress, keepUnsent: true }));
    expectStoppedByTheCallback(error, 'uploadFile');
    expect((await readFile(error.unsentContentPath!)).equals(content)).toBe(true);
    await rm(join(error.unsentContentPath!, '..'), { recursive: true });
  });
});

describe('downloadToFile, given an onProgress that throws', () => {
  it('AbortedError at once, not retried, the file still queued', async () => {
    const { client, retries, calls, onProgress } = await setUp();
    fx.mock.store.enqueueDownload({ fileName: 'THROWS_DOWNLOAD.bin', content });
    const path = join(scratch, 'THROWS_DOWNLOAD.bin');
    const error = await rejectionOf(client.downloadToFile('THROWS_DOWNLOAD.bin', path, { onProgress }));
    expectStoppedByTheCallback(error, 'downloadFile');
    expect(retries).toEqual([]);
    expect(calls.count).toBe(1);
    expect(fx.mock.store.pendingDownloads()).toEqual(['THROWS_DOWNLOAD.bin']);
    await client.delete('THROWS_DOWNLOAD.bin');
  });
});

describe('processAll, given an onProgress that throws', () => {
  it('the run ends with AbortedError (processAll), the handler never called, the file still queued', async () => {
    const { client, retries, calls, onProgress } = await setUp();
    fx.mock.store.enqueueDownload({ fileName: 'THROWS_RUN.bin', content });
    const handled: string[] = [];
    const workDir = await mkdtemp(join(scratch, 'work-'));
    const error = await rejectionOf(client.processAll((file) => void handled.push(file.name), { onProgress, workDir, ledger: { has: async () => false, record: async () => undefined } }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.operation).toBe('processAll');
    expect(error.message).toMatch(/^processAll THROWS_RUN\.bin aborted: onProgress threw: a bug in the caller\.$/);
    expect(handled).toEqual([]);
    expect(retries).toEqual([]);
    expect(calls.count).toBe(1);
    expect(fx.mock.store.pendingDownloads()).toEqual(['THROWS_RUN.bin']);
    await client.delete('THROWS_RUN.bin');
  });
});

describe('upload, given an onRetry that throws', () => {
  it('AbortedError after the first failed try; a stream read to its end, given keepUnsent, is kept', async () => {
    const client = await fx.client({ spoolDir: scratch, retry: { ...quickRetry, onRetry: () => { throw callerBug; } } });
    fx.mock.store.failNext('upload', { status: 500 });
    const error = await rejectionOf(client.upload('RETRY_THROWS.bin', Readable.from([content]), { keepUnsent: true }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe('uploadFile RETRY_THROWS.bin aborted: onRetry threw: a bug in the caller.');
    expect((error.cause as Error).cause).toBe(callerBug);
    expect((await readFile(error.unsentContentPath!)).equals(content)).toBe(true);
    await rm(join(error.unsentContentPath!, '..'), { recursive: true });
  });
});
