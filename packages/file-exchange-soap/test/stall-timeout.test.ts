import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientOptionsError, FileExchangeClient, TransientFailureError } from '@paykit/file-exchange';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileExchangeSoapClient } from '../src/index.js';
import { answer, readSlowly, stallMidBody, startHostileServer, stopReading, type Behaviour } from './support/hostile-server.js';
import { emptyList, restWarm, scopedClients, soapWarm, warmUp, type Clients } from './support/scoped-clients.js';
import { soapEnvelope } from './support/scripted-server.js';

// A silent stall (no byte either way for stallTimeoutMs) becomes a network failure, TransientFailureError with code
// ETIMEDOUT, handled by the retry rule: in REST and SOAP, request and response bodies, against a real TLS server.
// A slow transfer whose bytes keep moving is not one.

const NS = 'urn:paykit:file-exchange:v1';
const xml = { 'content-type': 'text/xml; charset=utf-8' };
const text = { 'content-type': 'text/plain' };
const partialSoap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>QUJD`;
const big = Buffer.alloc(16 * 1024 * 1024, 7);
const stallMs = 1000;

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

/** Clients of a scope of the server of their own (see startHostileServer), with a stall timeout of `ms`. */
const scoped = (token: string, otherwise: Behaviour, options: { retry: typeof fastRetry | false; ms?: number }) =>
  scopedClients(server, certificates, token, otherwise, { retry: options.retry, stallTimeoutMs: options.ms ?? stallMs });

interface Row {
  title: string;
  stall: Behaviour;
  /** The request meant to take the stall: its method and the end of its path. */
  request: [string, RegExp];
  warm: (clients: Clients) => Promise<unknown>;
  call: (clients: Clients) => Promise<unknown>;
}

const rows: Row[] = [
  { title: 'REST list, response body', stall: stallMidBody(text, 'A.csv\nB'), request: ['GET', /\/filesForDownload\/$/], warm: restWarm, call: ({ rest }) => rest.list() },
  {
    title: 'REST downloadToFile, response body',
    stall: stallMidBody(text, 'partial'),
    request: ['GET', /\/filesForDownload\/A\.csv$/],
    warm: restWarm,
    call: ({ rest }) => rest.downloadToFile('A.csv', join(dir, 'A.csv')),
  },
  { title: 'REST upload, request body (the server stops reading)', stall: stopReading, request: ['POST', /\/uploadedFiles\/U\.csv$/], warm: restWarm, call: ({ rest }) => rest.upload('U.csv', big) },
  { title: 'SOAP downloadFiles, response body', stall: stallMidBody(xml, partialSoap), request: ['POST', /\/DownloadFiles$/], warm: soapWarm, call: ({ soap }) => soap.downloadFiles('Q1') },
  {
    title: 'SOAP uploadFile, request body (the server stops reading)',
    stall: stopReading,
    request: ['POST', /\/UploadFile$/],
    warm: soapWarm,
    call: ({ soap }) => soap.uploadFile({ fileID: 'U1', fileContent: big }),
  },
];

describe('stall timeout', () => {
  it.each(rows.map((row, index) => ({ ...row, token: `stall-${index}` })))('$title: a stall is a network failure (ETIMEDOUT) the retry rule handles', async (row) => {
    const { scope, clients, close } = await scoped(row.token, emptyList, { retry: false });
    try {
      await warmUp(() => row.warm(clients));
      scope.next(row.stall);
      const error = await row.call(clients).then(() => new Error('no error'), (thrown: unknown) => thrown);
      const seen = `requests the server saw: ${JSON.stringify(scope.requests)}`;
      expect(error, seen).toBeInstanceOf(TransientFailureError);
      expect(error, seen).toMatchObject({ code: 'ETIMEDOUT', retryable: true });
      expect((error as Error).message).toMatch(new RegExp(`stalled: no bytes sent or received for ${stallMs} ms`));
      // The stall came from the scripted behaviour, taken by this call's request over the warmed connection.
      const [method, path] = row.request;
      await expect.poll(() => scope.requests.filter((request) => request.reusedConnection), { timeout: 10_000 }).toEqual([{ method, path: expect.stringMatching(path), reusedConnection: true }]);
    } finally {
      await close();
    }
  });

  it('retries a stalled download and completes it (REST and SOAP)', async () => {
    const content = Buffer.from('complete');
    const soapFile = answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>${content.toString('base64')}</fileContent></file></downloadFilesResponse>`));
    const { scope, clients, close } = await scoped('retry', (req, res) => (req.url?.includes('/rest/') ? answer(200, { ...text, 'content-length': '8' }, 'complete') : soapFile)(req, res), { retry: fastRetry });
    try {
      await warmUp(() => clients.rest.downloadToFile('A.csv', join(dir, 'B.csv')));
      scope.next(stallMidBody(text, 'par'));
      await expect(clients.rest.downloadToFile('A.csv', join(dir, 'B.csv'))).resolves.toEqual({ size: 8 });
      expect(await readFile(join(dir, 'B.csv'), 'utf8')).toBe('complete');

      await warmUp(() => clients.soap.downloadFiles('Q1'));
      scope.next(stallMidBody(xml, partialSoap));
      await expect(clients.soap.downloadFiles('Q1')).resolves.toEqual([{ fileID: 'F1', fileContent: content }]);
      // Each stall was taken by its call over the warmed connection, and the retry that completed came after it.
      expect(scope.requests.filter((request) => request.reusedConnection).map((request) => request.path)).toEqual([
        expect.stringMatching(/\/filesForDownload\/A\.csv$/),
        expect.stringMatching(/\/DownloadFiles$/),
      ]);
    } finally {
      await close();
    }
  });

  it.each([Number.NaN, -1, '60' as unknown as number])('refuses stallTimeoutMs %s in both clients before any request', async (value) => {
    const requests = server.requests.length;
    await expect(FileExchangeClient.create({ baseUrl: server.restUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    await expect(FileExchangeSoapClient.create({ baseUrl: server.soapUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    expect(server.requests.length).toBe(requests);
  });
});

describe('a slow transfer whose bytes keep moving is not a stall', () => {
  // The server reads 2 MiB, then nothing for a fifth of the stall timeout, and so on for 16 steps (over three timeouts
  // in all): no silence comes near the timeout, though the upload lasts far longer. The client sees a byte move only
  // when the kernel takes one from it, and the kernel holds many MiB in flight (tcp_rmem grows to 32 MiB here): once
  // the client has handed over its last byte, the server still has all that to read before it answers. Read slowly,
  // that tail took 2 s on a loaded CI machine and the timeout fired (with the product's default of 120 s, it would
  // need a server reading under 0.3 MiB/s). So the server reads the last part, more than the kernel can hold, at
  // full speed: the silence before the answer is then short, and the body is sized to have that tail.
  const slowMs = 2000;
  const pace = { stepBytes: 2 * 1024 * 1024, pauseMs: slowMs / 5, slowBytes: 16 * 2 * 1024 * 1024 };
  const wireBytes = pace.slowBytes + inFlightBound();
  const content = Buffer.alloc(wireBytes, 5);
  // Base64 makes 4 bytes of 3: the SOAP body on the wire is as long as the REST one.
  const soapContent = content.subarray(0, Math.ceil((wireBytes * 3) / 4));
  const soapUploaded = soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`);

  it.each([
    { title: 'REST upload of bytes', accepted: readSlowly(pace, 202), warm: restWarm, call: ({ rest }: Clients) => rest.upload('S.csv', content) },
    { title: 'SOAP uploadFile', accepted: readSlowly(pace, 200, xml, soapUploaded), warm: soapWarm, call: ({ soap }: Clients) => soap.uploadFile({ fileID: 'S1', fileContent: soapContent }) },
  ].map((row, index) => ({ ...row, token: `slow-${index}` })))('$title completes', async (row) => {
    const { scope, clients, close } = await scoped(row.token, emptyList, { retry: false, ms: slowMs });
    try {
      await warmUp(() => row.warm(clients));
      scope.next(row.accepted);
      const error = await row.call(clients).then(() => undefined, (thrown: unknown) => thrown);
      const seen = `requests the server saw: ${JSON.stringify(scope.requests)}`;
      expect(error, seen).toBeUndefined();
      expect(scope.requests.filter((request) => request.reusedConnection), seen).toHaveLength(1);
    } finally {
      await close();
    }
    // A process of its own is not started, but 70 MiB through TLS on a loaded machine takes its time.
  }, 120_000);
});

/**
 * More than the bytes a loopback connection can hold between the client's write and the server's read: the largest
 * receive and send buffers TCP may grow to (the third figure of tcp_rmem and tcp_wmem), and 8 MiB for the buffers of
 * Node and TLS on both sides. 64 MiB where /proc cannot be read.
 */
function inFlightBound(): number {
  try {
    const largest = (name: string) => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
    const bound = largest('tcp_rmem') + largest('tcp_wmem') + 8 * 1024 * 1024;
    return Number.isFinite(bound) ? bound : 64 * 1024 * 1024;
  } catch {
    return 64 * 1024 * 1024;
  }
}
