import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientOptionsError, FileExchangeClient, TransientFailureError } from '@paykit/file-exchange';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileExchangeSoapClient } from '../src/index.js';
import { answer, stallMidBody, startHostileServer, stopReading, type Behaviour } from './support/hostile-server.js';
import { soapEnvelope } from './support/scripted-server.js';

// A silent stall (no byte either way for stallTimeoutMs) becomes a network failure, TransientFailureError with code
// ETIMEDOUT, handled by the retry rule: in REST and SOAP, request and response bodies, against a real TLS server.

const NS = 'urn:paykit:file-exchange:v1';
const xml = { 'content-type': 'text/xml; charset=utf-8' };
const text = { 'content-type': 'text/plain' };
const partialSoap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>QUJD`;
const big = Buffer.alloc(16 * 1024 * 1024, 7);

let dir: string;
let certificates: TestCertificates;
let server: Awaited<ReturnType<typeof startHostileServer>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-stall-'));
  certificates = await generateTestCertificates(join(dir, 'certs'));
  server = await startHostileServer(certificates);
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const tls = () => ({ pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem });
const fastRetry = { intervalMs: 10, maxDurationMs: 60_000, allowShortIntervals: true };

interface Row {
  title: string;
  stall: Behaviour;
  call: (clients: { rest: FileExchangeClient; soap: FileExchangeSoapClient }) => Promise<unknown>;
}

const rows: Row[] = [
  { title: 'REST list, response body', stall: stallMidBody(text, 'A.csv\nB'), call: ({ rest }) => rest.list() },
  { title: 'REST downloadToFile, response body', stall: stallMidBody(text, 'partial'), call: ({ rest }) => rest.downloadToFile('A.csv', join(dir, 'A.csv')) },
  { title: 'REST upload, request body (the server stops reading)', stall: stopReading, call: ({ rest }) => rest.upload('U.csv', big) },
  { title: 'SOAP downloadFiles, response body', stall: stallMidBody(xml, partialSoap), call: ({ soap }) => soap.downloadFiles('Q1') },
  { title: 'SOAP uploadFile, request body (the server stops reading)', stall: stopReading, call: ({ soap }) => soap.uploadFile({ fileID: 'U1', fileContent: big }) },
];

async function clients(retry: typeof fastRetry | false) {
  return {
    rest: await FileExchangeClient.create({ baseUrl: server.restUrl, tls: tls(), retry, stallTimeoutMs: 300 }),
    soap: await FileExchangeSoapClient.create({ baseUrl: server.soapUrl, tls: tls(), retry, stallTimeoutMs: 300 }),
  };
}

describe('stall timeout', () => {
  it.each(rows)('$title: a stall is a network failure (ETIMEDOUT) the retry rule handles', async (row) => {
    const both = await clients(false);
    server.next(row.stall);
    const error = await row.call(both).then(() => new Error('no error'), (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TransientFailureError);
    expect(error).toMatchObject({ code: 'ETIMEDOUT', retryable: true });
    expect((error as Error).message).toMatch(/stalled: no bytes sent or received for 300 ms/);
    await Promise.all([both.rest.close(), both.soap.close()]);
  });

  it('retries a stalled download and completes it (REST and SOAP)', async () => {
    const both = await clients(fastRetry);
    server.next(stallMidBody(text, 'par'), answer(200, { ...text, 'content-length': '8' }, 'complete'));
    await expect(both.rest.downloadToFile('A.csv', join(dir, 'B.csv'))).resolves.toEqual({ size: 8 });
    expect(await readFile(join(dir, 'B.csv'), 'utf8')).toBe('complete');
    const content = Buffer.from('complete');
    server.next(
      stallMidBody(xml, partialSoap),
      answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>${content.toString('base64')}</fileContent></file></downloadFilesResponse>`)),
    );
    await expect(both.soap.downloadFiles('Q1')).resolves.toEqual([{ fileID: 'F1', fileContent: content }]);
    await Promise.all([both.rest.close(), both.soap.close()]);
  });

  it.each([Number.NaN, -1, '60' as unknown as number])('refuses stallTimeoutMs %s in both clients before any request', async (value) => {
    const requests = server.requests.length;
    await expect(FileExchangeClient.create({ baseUrl: server.restUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    await expect(FileExchangeSoapClient.create({ baseUrl: server.soapUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    expect(server.requests.length).toBe(requests);
  });
});
