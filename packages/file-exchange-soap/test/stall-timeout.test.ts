import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientOptionsError, FileExchangeClient, TransientFailureError } from '@paykit/file-exchange';
import type { TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { FileExchangeSoapClient } from '../src/index.js';
import { withFakeStallClock, until } from './support/fake-stall-clock.js';
import { answer, bodySent, readInSteps, stallMidBody, startHostileServer, startSilentServer, stopReading, stopReadingThen, type Behaviour } from './support/hostile-server.js';
import { emptyList, restWarm, scopedClients, soapWarm, warmUp, type Clients } from './support/scoped-clients.js';
import { soapEnvelope } from './support/scripted-server.js';

// A silent stall (no byte either way for stallTimeoutMs) becomes a network failure, TransientFailureError with code
// ETIMEDOUT, handled by the retry rule: in REST and SOAP, request and response bodies, against a real TLS server.
// A slow transfer whose bytes keep moving is not one.
//
// One row per client and fault class (a response body that stops, a server that stops reading a request body) runs
// on the real clock over a real socket: the server never goes on, so the stall comes whatever the machine does, and
// a pause of several seconds cannot change the verdict. Every other row runs the stall timer on fake timers (the
// StallGuard of both clients is on the global clock): time moves only at the event the row means.

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
  certificates = inject('certificates');
  server = await startHostileServer(certificates);
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const tls = () => ({ pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem });
const fastRetry = { intervalMs: 10, maxDurationMs: 60_000, allowShortIntervals: true };

/** Clients of a scope of the server of their own (see startHostileServer), with a stall timeout of `ms`. */
const scoped = (token: string, otherwise: Behaviour, options: { retry: (typeof fastRetry & { onRetry?: () => void }) | false; ms?: number }) =>
  scopedClients(server, certificates, token, otherwise, { retry: options.retry, stallTimeoutMs: options.ms ?? stallMs });

/** What a call came to: its value, or what it threw (never a rejection left unhandled). */
const outcome = (call: Promise<unknown>) => call.then(() => new Error('no error'), (thrown: unknown) => thrown);

function expectStall(error: unknown, seen: string, ms = stallMs) {
  expect(error, seen).toBeInstanceOf(TransientFailureError);
  expect(error, seen).toMatchObject({ code: 'ETIMEDOUT', retryable: true });
  expect((error as Error).message).toMatch(new RegExp(`stalled: no bytes sent or received for ${ms} ms`));
}

interface Row {
  title: string;
  stall: Behaviour;
  /** The request meant to take the stall: its method and the end of its path. */
  request: [string, RegExp];
  warm: (clients: Clients) => Promise<unknown>;
  call: (clients: Clients) => Promise<unknown>;
}

const rows: Row[] = [
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

describe('stall timeout over a real socket, on the real clock (one row per client and fault class)', () => {
  // real-time: each row waits for its client's own stall timer (1 s) against a server that never goes on.
  it.each(rows.map((row, index) => ({ ...row, token: `stall-${index}` })))('$title: a stall is a network failure (ETIMEDOUT) the retry rule handles', async (row) => {
    const { scope, clients, close } = await scoped(row.token, emptyList, { retry: false });
    try {
      await warmUp(() => row.warm(clients));
      scope.next(row.stall);
      const error = await outcome(row.call(clients));
      expectStall(error, `requests the server saw: ${JSON.stringify(scope.requests)}`);
      // The stall came from the scripted behaviour, taken by this call's request over the warmed connection.
      const [method, path] = row.request;
      await expect.poll(() => scope.requests.filter((request) => request.reusedConnection), { timeout: 4_000 }).toEqual([{ method, path: expect.stringMatching(path), reusedConnection: true }]);
    } finally {
      await close();
    }
  });
});

describe('stall timeout on fake timers', () => {
  it('REST list, response body: a stall is a network failure (ETIMEDOUT) the retry rule handles', async () => {
    await withFakeStallClock(async () => {
      const { scope, clients, close } = await scoped('stall-list', emptyList, { retry: false });
      try {
        await warmUp(() => restWarm(clients));
        const sent = bodySent();
        scope.next(stallMidBody(text, 'A.csv\nB', sent.onSent));
        let settled = false;
        const error = outcome(clients.rest.list()).finally(() => (settled = true));
        await sent.reached;
        // The body is coming in: one millisecond short of the timeout the call is still waiting; at the timeout, a stall.
        vi.advanceTimersByTime(stallMs - 1);
        await new Promise((resolve) => setImmediate(resolve));
        expect(settled).toBe(false);
        vi.advanceTimersByTime(1);
        expectStall(await error, `requests the server saw: ${JSON.stringify(scope.requests)}`);
      } finally {
        await close();
      }
    });
  });

  // A minute's timeout, which no real clock reaches in this test: only the stall clock the test moves can end it. The
  // REST client once timed a request with the socket's idle timer, which counted a write still queued as progress
  // once more: a server that stopped reading an upload was caught after twice the timeout.
  it.each([
    { title: 'REST upload', warm: restWarm, call: ({ rest }: Clients) => rest.upload('U.csv', big) },
    { title: 'SOAP uploadFile', warm: soapWarm, call: ({ soap }: Clients) => soap.uploadFile({ fileID: 'U1', fileContent: big }) },
  ].map((row, index) => ({ ...row, token: `stall-once-${index}` })))('$title to a server that stops reading: a stall after the timeout, not twice it', async (row) => {
    const minute = 60_000;
    await withFakeStallClock(async () => {
      const { scope, clients, close } = await scoped(row.token, emptyList, { retry: false, ms: minute });
      try {
        await warmUp(() => row.warm(clients));
        let reached!: () => void;
        const bodyGoingOut = new Promise<void>((resolve) => (reached = resolve));
        scope.next(stopReadingThen(reached));
        const error = outcome(row.call(clients));
        await bodyGoingOut;
        vi.advanceTimersByTime(minute);
        expectStall(await error, `requests the server saw: ${JSON.stringify(scope.requests)}`, minute);
      } finally {
        await close();
      }
    });
  });

  // A server that takes the connection and never answers the TLS handshake: the handshake is silence like any other
  // (undici's connect, under the SOAP client once, could be neither aborted nor timed out before its own 10 s).
  it.each([
    { title: 'REST list', call: (clients: Clients) => clients.rest.list() },
    { title: 'SOAP downloadFiles', call: (clients: Clients) => clients.soap.downloadFiles('Q1') },
  ])('$title, a TLS handshake that never completes: a stall after the timeout', async (row) => {
    const silent = await startSilentServer();
    const minute = 60_000;
    try {
      await withFakeStallClock(async () => {
        const tlsOptions = tls();
        const clients = {
          rest: await FileExchangeClient.create({ baseUrl: silent.restUrl, tls: tlsOptions, retry: false, stallTimeoutMs: minute }),
          soap: await FileExchangeSoapClient.create({ baseUrl: silent.soapUrl, tls: tlsOptions, retry: false, stallTimeoutMs: minute }),
        };
        try {
          const connected = silent.nextConnection();
          const error = outcome(row.call(clients));
          await connected;
          vi.advanceTimersByTime(minute);
          expectStall(await error, 'a handshake that never completes', minute);
        } finally {
          await Promise.all([clients.rest.close(), clients.soap.close()]);
        }
      });
    } finally {
      await silent.close();
    }
  });

  it('retries a stalled download and completes it (REST and SOAP)', async () => {
    const content = Buffer.from('complete');
    const soapFile = answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>${content.toString('base64')}</fileContent></file></downloadFilesResponse>`));
    await withFakeStallClock(async () => {
      let retries = 0;
      const { scope, clients, close } = await scoped('retry', (req, res) => (req.url?.includes('/rest/') ? answer(200, { ...text, 'content-length': '8' }, 'complete') : soapFile)(req, res), {
        retry: { ...fastRetry, onRetry: () => retries++ },
      });
      /** Stalls the call's first try once its body comes in, then lets its retry's wait pass. */
      const stallThenRetry = async (call: Promise<unknown>, sent: { reached: Promise<void> }) => {
        await sent.reached;
        vi.advanceTimersByTime(stallMs);
        await until('the wait before the retry', () => retries === 1);
        vi.advanceTimersByTime(fastRetry.intervalMs);
        return call;
      };
      try {
        await warmUp(() => clients.rest.downloadToFile('A.csv', join(dir, 'B.csv')));
        const restSent = bodySent();
        scope.next(stallMidBody(text, 'par', restSent.onSent));
        await expect(stallThenRetry(clients.rest.downloadToFile('A.csv', join(dir, 'B.csv')), restSent)).resolves.toEqual({ size: 8 });
        expect(await readFile(join(dir, 'B.csv'), 'utf8')).toBe('complete');

        retries = 0;
        await warmUp(() => clients.soap.downloadFiles('Q1'));
        const soapSent = bodySent();
        scope.next(stallMidBody(xml, partialSoap, soapSent.onSent));
        await expect(stallThenRetry(clients.soap.downloadFiles('Q1'), soapSent)).resolves.toEqual([{ fileID: 'F1', fileContent: content }]);
        // Each stall was taken by its call over the warmed connection, and the retry that completed came after it.
        expect(scope.requests.filter((request) => request.reusedConnection).map((request) => request.path)).toEqual([
          expect.stringMatching(/\/filesForDownload\/A\.csv$/),
          expect.stringMatching(/\/DownloadFiles$/),
        ]);
      } finally {
        await close();
      }
    });
  });

  it.each([Number.NaN, -1, '60' as unknown as number])('refuses stallTimeoutMs %s in both clients before any request', async (value) => {
    const requests = server.requests.length;
    await expect(FileExchangeClient.create({ baseUrl: server.restUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    await expect(FileExchangeSoapClient.create({ baseUrl: server.soapUrl, tls: tls(), stallTimeoutMs: value })).rejects.toThrow(ClientOptionsError);
    expect(server.requests.length).toBe(requests);
  });
});

describe('a slow transfer whose bytes keep moving is not a stall', () => {
  // The server reads 2 MiB, then pauses while the test moves the stall clock on by a fifth of the timeout, and so on
  // for 16 steps (over three timeouts in all): no silence comes near the timeout, though the upload lasts far longer.
  // The client sees a byte move only when the kernel takes one from it, and the kernel holds many MiB in flight: so
  // the body is longer than the slow part by more than the kernel can hold, which the server reads at full speed,
  // and the client is still handing bytes over when the last pause ends.
  const slowMs = 2000;
  const pace = { stepBytes: 2 * 1024 * 1024, slowBytes: 16 * 2 * 1024 * 1024 };
  const wireBytes = pace.slowBytes + inFlightBound();
  const content = Buffer.alloc(wireBytes, 5);
  // Base64 makes 4 bytes of 3: the SOAP body on the wire is as long as the REST one.
  const soapContent = content.subarray(0, Math.ceil((wireBytes * 3) / 4));
  const soapUploaded = soapEnvelope(`<uploadFileResponse xmlns="${NS}"/>`);

  it.each([
    { title: 'REST upload of bytes', accepted: () => readInSteps(pace, 202), warm: restWarm, call: ({ rest }: Clients) => rest.upload('S.csv', content) },
    { title: 'SOAP uploadFile', accepted: () => readInSteps(pace, 200, xml, soapUploaded), warm: soapWarm, call: ({ soap }: Clients) => soap.uploadFile({ fileID: 'S1', fileContent: soapContent }) },
  ].map((row, index) => ({ ...row, token: `slow-${index}` })))('$title completes', async (row) => {
    await withFakeStallClock(async () => {
      const { scope, clients, close } = await scoped(row.token, emptyList, { retry: false, ms: slowMs });
      try {
        await warmUp(() => row.warm(clients));
        const { behaviour, steps } = row.accepted();
        scope.next(behaviour);
        let settled = false;
        const error = row.call(clients).then(() => undefined, (thrown: unknown) => thrown).finally(() => (settled = true));
        for (let handled = 0; ; handled = steps.paused) {
          await until('the server to pause or finish reading', () => steps.paused > handled || steps.done || settled, 30_000);
          if (steps.done || settled) break;
          vi.advanceTimersByTime(slowMs / 5);
          steps.resume();
        }
        const seen = `requests the server saw: ${JSON.stringify(scope.requests)}`;
        expect(await error, seen).toBeUndefined();
        // The upload outlasted the stall timeout many times over on the stall's clock (a fifth of it per pause).
        expect(steps.paused, seen).toBeGreaterThanOrEqual(12);
        expect(scope.requests.filter((request) => request.reusedConnection), seen).toHaveLength(1);
      } finally {
        await close();
      }
    });
    // 70 MiB through TLS on a loaded machine takes its time; no time is measured.
  }, 30_000);
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
