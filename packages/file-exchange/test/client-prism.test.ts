// end-to-end: a real Prism, started once for this file (the only one of the suite that needs it): a Prism process
// takes seconds to start on a loaded 2-core machine, past vitest's 10 s for a hook.
import { startPrismMock, type RunningMock } from '@paykit/mock-server';
import { request } from 'undici';
import { temporaryCertificates } from './support/certificates.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AccessRefusedError,
  DownloadLimitReachedError,
  FileExchangeClient,
  FileNameAlreadyUsedError,
  FileNameNotAcceptedError,
  FileNotInListError,
  RetriesExhaustedError,
  UnexpectedResponseError,
  UploadInProgressError,
} from '../src/index.js';

// The REST contract served by the real Prism: every request the client makes must pass Prism's validation of the
// contract, and `Prefer: code=N` (sent through the client's extra headers) makes Prism answer each documented status.
vi.setConfig({ hookTimeout: 60_000 });
let prism: RunningMock;
let client: FileExchangeClient;
const prismLog: string[] = [];
const retry = { intervalMs: 10, maxDurationMs: 30, allowShortIntervals: true };

beforeAll(async () => {
  prism = await startPrismMock({ contract: 'file-exchange', onLog: (line) => prismLog.push(line) });
  client = await FileExchangeClient.create({ baseUrl: prism.url, retry });
});
afterAll(async () => {
  await client?.close();
  await prism?.close();
});
beforeEach(() => {
  prismLog.length = 0;
});

async function preferring(status: number, use: (client: FileExchangeClient) => Promise<unknown>): Promise<unknown> {
  const preferringClient = await FileExchangeClient.create({ baseUrl: prism.url, retry, headers: { Prefer: `code=${status}` } });
  try {
    return await use(preferringClient);
  } finally {
    await preferringClient.close();
  }
}

/** Waits until Prism logged its answers to `requests` requests: violations are logged before the answer. */
const answered = (requests: number) =>
  expect.poll(() => prismLog.filter((line) => line.includes('Responding with the requested status code')).length).toBeGreaterThanOrEqual(requests);
const requestViolations = () => prismLog.filter((line) => /Violation: request|Request did not pass/.test(line));

describe('against the contract (Prism)', () => {
  it('uploads with a content type and length the contract accepts (202)', async () => {
    await client.upload('PAYMENTS_20260121_001.csv', Buffer.from('id,amount\n1,100\n'), { contentType: 'text/csv' });
    expect(requestViolations()).toEqual([]);
    await expect.poll(() => prismLog.some((line) => line.includes('Responding with the requested status code 202'))).toBe(true);
  });

  it('notices a request that breaks the contract (control for the checks above)', async () => {
    const response = await request(`${prism.url}/uploadedFiles/bad%20name`, { method: 'POST', body: 'x' });
    await response.body.dump();
    await expect.poll(() => requestViolations().length).toBeGreaterThan(0);
  });

  it('accepts certificate options for an http address (they are checked, not sent)', async () => {
    const certificates = await temporaryCertificates();
    try {
      const withCertificate = await FileExchangeClient.create({
        baseUrl: prism.url,
        retry,
        tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword },
      });
      await withCertificate.upload('A.csv', Buffer.from('a'));
      expect(await withCertificate.list()).toHaveLength(2);
      await withCertificate.close();
    } finally {
      await certificates.cleanup();
    }
  });

  it.each(['text', 'xml'] as const)('lists the example names as %s', async (format) => {
    expect(await client.list({ format })).toEqual(['PAYMENTS_20260121_001.csv', 'REPORT_20260121_001.xml']);
    await answered(1);
    expect(requestViolations()).toEqual([]);
  });

  it('reads 204 on the list as empty', async () => {
    expect(await preferring(204, (c) => c.list())).toEqual([]);
  });

  it('downloads and deletes', async () => {
    const file = await client.download('PAYMENTS_20260121_001.csv');
    expect(file.contentType).toBe('application/octet-stream');
    expect((await file.body.toArray()).length).toBeGreaterThan(0);
    await client.delete('PAYMENTS_20260121_001.csv');
    await answered(2);
    expect(requestViolations()).toEqual([]);
  });

  const statuses: Array<{ call: string; status: number; run: (client: FileExchangeClient) => Promise<unknown>; error: new (...args: never[]) => Error }> = [
    { call: 'upload', status: 400, run: (c) => c.upload('A.csv', Buffer.from('a')), error: FileNameAlreadyUsedError },
    { call: 'upload', status: 403, run: (c) => c.upload('A.csv', Buffer.from('a')), error: AccessRefusedError },
    { call: 'upload', status: 404, run: (c) => c.upload('A.csv', Buffer.from('a')), error: FileNameNotAcceptedError },
    { call: 'upload', status: 500, run: (c) => c.upload('A.csv', Buffer.from('a')), error: RetriesExhaustedError },
    { call: 'upload', status: 503, run: (c) => c.upload('A.csv', Buffer.from('a')), error: UploadInProgressError },
    { call: 'list', status: 403, run: (c) => c.list(), error: AccessRefusedError },
    { call: 'list', status: 404, run: (c) => c.list(), error: UnexpectedResponseError },
    { call: 'list', status: 500, run: (c) => c.list(), error: RetriesExhaustedError },
    { call: 'download', status: 403, run: (c) => c.download('A.csv'), error: AccessRefusedError },
    { call: 'download', status: 404, run: (c) => c.download('A.csv'), error: FileNotInListError },
    { call: 'download', status: 429, run: (c) => c.download('A.csv'), error: DownloadLimitReachedError },
    { call: 'download', status: 500, run: (c) => c.download('A.csv'), error: RetriesExhaustedError },
    { call: 'delete', status: 403, run: (c) => c.delete('A.csv'), error: AccessRefusedError },
    { call: 'delete', status: 404, run: (c) => c.delete('A.csv'), error: FileNotInListError },
    { call: 'delete', status: 500, run: (c) => c.delete('A.csv'), error: RetriesExhaustedError },
  ];
  it.each(statuses)('$call answered $status -> $error.name', async ({ status, run, error }) => {
    await expect(preferring(status, run)).rejects.toBeInstanceOf(error);
    // Prism's log arrives through a pipe, possibly after the answer: wait for the line.
    await expect.poll(() => prismLog.some((line) => line.includes(`Responding with the requested status code ${status}`))).toBe(true);
    expect(requestViolations()).toEqual([]);
  });
});
