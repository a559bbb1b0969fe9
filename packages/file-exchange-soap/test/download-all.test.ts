import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DownloadNotDrainingError,
  InvalidRequestError,
  SoapFaultError,
  type DownloadedFile,
} from '../src/index.js';
import { fastRetry, startMock, type MockFixture } from './support/mock.js';

let fixture: MockFixture;
beforeAll(async () => {
  // A small size limit splits the queue over several responses, as the reference allows.
  fixture = await startMock({ soapMaxResponseBytes: 40 * 1024 });
});
afterAll(async () => fixture?.close());
afterEach(async () => {
  // Each test starts from an empty queue.
  const client = await fixture.client();
  for await (const file of client.downloadAll(fixture.mock.queueId)) void file;
});

function enqueue(count: number, size = 16 * 1024): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const fileName = `dl_${String(i).padStart(3, '0')}_${randomBytes(3).toString('hex')}.bin`;
    const content = randomBytes(size + i);
    contents.set(fileName, content);
    fixture.mock.store.enqueueDownload({ fileName, content, mimeType: 'application/octet-stream' });
  }
  return contents;
}

async function collect(iterable: AsyncIterable<DownloadedFile>): Promise<DownloadedFile[]> {
  const files: DownloadedFile[] = [];
  for await (const file of iterable) files.push(file);
  return files;
}

function expectSameFiles(files: DownloadedFile[], contents: Map<string, Buffer>): void {
  expect(files.map((f) => f.fileName).sort()).toEqual([...contents.keys()].sort());
  for (const file of files) expect(Buffer.compare(Buffer.from(file.fileContent), contents.get(file.fileName!)!)).toBe(0);
  expect(new Set(files.map((f) => f.fileID)).size).toBe(files.length);
}

describe('downloadAll', () => {
  it('repeats DownloadFiles until an empty response and yields every file once with its content', async () => {
    const contents = enqueue(7);
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId);
    const files = await collect(session);
    expectSameFiles(files, contents);
    // 7 files of ~16 KiB with a 40 KiB limit take several responses, then one empty response.
    expect(session.stats.responses).toBeGreaterThanOrEqual(4);
    expect(session.stats).toMatchObject({ received: 7, duplicates: 0, processed: 7 });
    expect(fixture.mock.store.pendingDownloads()).toEqual([]);
  });

  it('stops at the first response when the queue is empty', async () => {
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId);
    expect(await collect(session)).toEqual([]);
    expect(session.stats.responses).toBe(1);
  });

  it('yields a file sent again after a delivery failure only once, recognised by fileID', async () => {
    const contents = enqueue(3, 1024);
    // The whole response arrives, but the service counts it as undelivered and sends the same files again.
    fixture.mock.store.failNext('soap-download', { dropConnection: true, afterResponse: true });
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId);
    const files = await collect(session);
    expectSameFiles(files, contents);
    expect(session.stats.duplicates).toBe(3);
  });

  it('retries a dropped connection and an HTTP 500 and still gets every file', async () => {
    const contents = enqueue(4, 1024);
    fixture.mock.store.failNext('soap-download', { dropConnection: true });
    fixture.mock.store.failNext('soap-download', { status: 500 });
    const retried: string[] = [];
    const client = await fixture.client({ retry: { ...fastRetry, intervalMs: 1, onRetry: ({ failure }) => retried.push(failure.name) } });
    expectSameFiles(await collect(client.downloadAll(fixture.mock.queueId)), contents);
    expect(retried).toEqual(['TransientFailureError', 'SoapFaultError']);
  });

  it('keeps the files of an interrupted loop in `unprocessed`, so that none is lost', async () => {
    const contents = enqueue(3, 1024);
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId);
    const handled: DownloadedFile[] = [];
    await expect(
      (async () => {
        for await (const file of session) {
          if (handled.length === 1) throw new Error('the handler failed on the second file');
          handled.push(file);
        }
      })(),
    ).rejects.toThrow('the handler failed');
    // The service considers them delivered: what the loop did not finish is still in the caller's hands.
    expect(fixture.mock.store.pendingDownloads()).toEqual([]);
    expect(handled).toHaveLength(1);
    expect(session.unprocessed.length).toBeGreaterThanOrEqual(1);
    expectSameFiles([...handled, ...session.unprocessed], contents);
    expect(session.stats.processed).toBe(1);
  });

  it('skips files a persistent ledger already processed in an earlier run, and records the new ones', async () => {
    // An earlier run processed `earlier-1` but died before the service counted it as delivered: it comes again.
    fixture.mock.store.enqueueDownload({ fileName: 'ledger_a.txt', fileID: 'earlier-1', content: Buffer.from('old') });
    fixture.mock.store.enqueueDownload({ fileName: 'ledger_b.txt', fileID: 'fresh-1', content: Buffer.from('new') });
    const ledger = new Set(['earlier-1']);
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId, { seen: ledger });
    const files = await collect(session);
    expect(files.map((f) => f.fileID)).toEqual(['fresh-1']);
    expect(session.stats.duplicates).toBe(1);
    expect([...ledger].sort()).toEqual(['earlier-1', 'fresh-1']);
  });

  it('stops with DownloadNotDrainingError when responses keep holding only known files', async () => {
    enqueue(1, 512);
    for (let i = 0; i < 3; i++) fixture.mock.store.failNext('soap-download', { dropConnection: true, afterResponse: true });
    const session = (await fixture.client()).downloadAll(fixture.mock.queueId, { maxResponsesWithOnlyDuplicates: 2 });
    await expect(collect(session)).rejects.toBeInstanceOf(DownloadNotDrainingError);
    expect(session.stats).toMatchObject({ processed: 1, duplicates: 2 });
  });

  it('turns the fault for an unknown queue into SoapFaultError, not retried (a Client fault)', async () => {
    const retried: string[] = [];
    const client = await fixture.client({ retry: { ...fastRetry, intervalMs: 1, onRetry: ({ failure }) => retried.push(failure.name) } });
    const error = await collect(client.downloadAll('NO-SUCH-QUEUE')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoapFaultError);
    expect((error as SoapFaultError).faultCode).toBe('soap:Client');
    expect((error as SoapFaultError).status).toBe(500);
    expect(retried).toEqual([]);
  });

  it('refuses a queue ID that is not a string before sending', async () => {
    const client = await fixture.client();
    expect(() => client.downloadAll(42 as unknown as string)).toThrow(InvalidRequestError);
  });
});
