import { FileExchangeClient, maxListBodyBytes, TransientFailureError, type ClientTlsOptions } from '@paykit/file-exchange';
import { fileExchangeRules } from '@paykit/file-exchange/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_RESPONSE_TEXT_CHARS } from '../src/codec/read-response.js';
import { FileExchangeSoapClient } from '../src/index.js';
import { withFakeStallClock } from './support/fake-stall-clock.js';
import { answer, bodySent, stallMidBody, startAlertingServer, startHostileServer, startRefusingProxy, streamBody, type Behaviour } from './support/hostile-server.js';
import { hostileSuite, NS, xml, text } from './support/hostile-suite.js';
import { byInterface, emptyList, restWarm, scopedClients, soapWarm, warmUp, type Clients } from './support/scoped-clients.js';
import { soapEnvelope } from './support/scripted-server.js';

// The same condition, met by the REST client (list) and by the SOAP client (DownloadFiles), gives the same error
// class with the same retry decision: one table, both clients, a real TLS server playing the hostile peer.

const cap = fileExchangeRules.downloads.listCap;

const suite = hostileSuite('paykit-one-model-');
let proxy: Awaited<ReturnType<typeof startRefusingProxy>>;
let alerting: Awaited<ReturnType<typeof startAlertingServer>>;

beforeAll(async () => {
  proxy = await startRefusingProxy(407);
  alerting = await startAlertingServer(suite.certificates);
});
afterAll(async () => {
  await proxy?.close();
  await alerting?.close();
});

const tls = (overrides: Partial<ClientTlsOptions> = {}): ClientTlsOptions => ({
  pfx: suite.certificates.clientPfxPath,
  passphrase: suite.certificates.clientPfxPassword,
  ca: suite.certificates.caCertPem,
  ...overrides,
});

/**
 * One try: each row shows the error the retry rule is given, and whether it would retry. The stall row runs its stall
 * timer on fake timers, moved on once the body is coming in; the others get a timeout no busy CI machine reaches while
 * streaming a large body (a 300 ms one turned the 16 MiB row into a stall there).
 */
const stallTimeoutMs = (row: Row) => (row.stall ? 300 : 30_000);
async function rest(row: Row, peer: { restUrl: string } = suite.server) {
  return FileExchangeClient.create({ baseUrl: peer.restUrl, tls: tls(row.tls?.()), retry: false, stallTimeoutMs: stallTimeoutMs(row) });
}
async function soap(row: Row, peer: { soapUrl: string } = suite.server) {
  return FileExchangeSoapClient.create({ baseUrl: peer.soapUrl, tls: tls(row.tls?.()), retry: false, stallTimeoutMs: stallTimeoutMs(row) });
}

const files = (count: number) => soapEnvelope(`<downloadFilesResponse xmlns="${NS}">${'<file><fileID>F</fileID><fileContent>QQ==</fileContent></file>'.repeat(count)}</downloadFilesResponse>`);

interface Row {
  title: string;
  /** Talk to the server that fails every handshake with an alert. */
  alerting?: boolean;
  tls?: () => Partial<ClientTlsOptions>;
  /** The row is about a stalled body: the clients get a short stall timeout. */
  stall?: boolean;
  rest?: Behaviour;
  soap?: Behaviour;
  expected: { name: string; retryable: boolean; status?: number; code?: string };
}

/** For the stall row: told when each client's stalled body is coming in (see bodySent). */
let restBodySent: ReturnType<typeof bodySent> | undefined;
let soapBodySent: ReturnType<typeof bodySent> | undefined;

const rows: Row[] = [
  {
    title: 'a proxy that refuses the tunnel (407)',
    tls: () => ({ proxy: proxy.url }),
    expected: { name: 'ProxyRefusedError', retryable: false },
  },
  {
    title: 'a TLS alert in the handshake (handshake_failure)',
    alerting: true,
    expected: { name: 'TlsHandshakeError', retryable: false },
  },
  {
    // Node's TLS servers close the connection on a foreign certificate without an alert: the client cannot tell
    // it from a network failure, so the reference's retry rule applies (the message hints at the certificate).
    title: 'a foreign client certificate, refused by closing the connection',
    tls: () => ({ pfx: suite.certificates.foreignClientPfxPath, passphrase: suite.certificates.foreignClientPfxPassword }),
    expected: { name: 'TransientFailureError', retryable: true },
  },
  {
    title: 'HTTP 403',
    rest: answer(403),
    soap: answer(403, text, 'Forbidden'),
    expected: { name: 'AccessRefusedError', retryable: false, status: 403 },
  },
  {
    title: 'HTTP 500 (without a SOAP fault)',
    rest: answer(500),
    soap: answer(500, text, 'Internal Server Error'),
    expected: { name: 'TransientFailureError', retryable: true, status: 500 },
  },
  {
    title: 'a 502 from a proxy',
    rest: answer(502, text, 'Bad Gateway'),
    soap: answer(502, text, 'Bad Gateway'),
    expected: { name: 'UnexpectedResponseError', retryable: false, status: 502 },
  },
  {
    title: 'a body that stalls half way (no byte for longer than stallTimeoutMs)',
    stall: true,
    rest: stallMidBody(text, 'A.csv\nB.cs', () => restBodySent?.onSent()),
    soap: stallMidBody(xml, `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>QUJD`, () => soapBodySent?.onSent()),
    expected: { name: 'TransientFailureError', retryable: true, code: 'ETIMEDOUT' },
  },
  {
    title: `a list longer than the reference's maximum (${cap + 1} entries)`,
    rest: answer(200, text, Array.from({ length: cap + 1 }, (_, i) => `F_${i}.csv`).join('\n')),
    soap: answer(200, xml, files(cap + 1)),
    expected: { name: 'ProtocolError', retryable: false },
  },
  {
    title: 'an absurdly large body, sent without a length',
    rest: streamBody(200, text, function* () {
      const line = Buffer.from('A_very_long_name_that_repeats.csv\n'.repeat(2000));
      for (let sent = 0; sent <= maxListBodyBytes; sent += line.length) yield line;
    }),
    soap: streamBody(200, xml, function* () {
      yield `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>`;
      const piece = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent <= MAX_RESPONSE_TEXT_CHARS; sent += piece.length) yield piece;
      yield `</fileID><fileContent/></file></downloadFilesResponse></soap:Body></soap:Envelope>`;
    }),
    expected: { name: 'ProtocolError', retryable: false },
  },
];

describe('one client model: the same condition, the same error in REST and SOAP', () => {
  it.each(rows.map((row, index) => ({ ...row, token: `model-${index}` })))('$title → $expected.name (retryable: $expected.retryable)', (row) =>
    row.stall ? withFakeStallClock(() => oneRow(row)) : oneRow(row),
  );

  async function oneRow(row: Row & { token: string }) {
    // A row with scripted behaviours gets a scope of the server of its own: each behaviour is taken by its call only,
    // over the connection a first call warmed (see startHostileServer.scope).
    const scoped = row.rest && row.soap ? await scopedClients(suite.server, suite.certificates, row.token, emptyList, { retry: false, stallTimeoutMs: stallTimeoutMs(row) }) : undefined;
    const peer = row.alerting ? alerting : suite.server;
    const clients = [
      { interface: 'REST', behaviour: row.rest, warm: restWarm, client: scoped?.clients.rest ?? (await rest(row, peer)), call: (c: FileExchangeClient) => c.list() },
      { interface: 'SOAP', behaviour: row.soap, warm: soapWarm, client: scoped?.clients.soap ?? (await soap(row, peer)), call: (c: FileExchangeSoapClient) => c.downloadFiles('Q1') },
    ] as const;
    for (const client of clients) {
      if (scoped && client.behaviour) {
        await warmUp(() => client.warm(scoped.clients));
        scoped.scope.next(client.behaviour);
      }
      const sent = row.stall ? bodySent() : undefined;
      if (client.interface === 'REST') restBodySent = sent;
      else soapBodySent = sent;
      const pending = (client.call as (c: unknown) => Promise<unknown>)(client.client).finally(() => client.client.close()).then(
        () => new Error(`${client.interface}: no error`),
        (thrown: unknown) => thrown,
      );
      if (sent) {
        // The stall: the body is coming in, then the timeout's length of silence on the stall clock.
        await sent.reached;
        vi.advanceTimersByTime(stallTimeoutMs(row));
      }
      const error = await pending;
      expect({ interface: client.interface, name: (error as Error).name }).toEqual({ interface: client.interface, name: row.expected.name });
      expect(error).toMatchObject({
        retryable: row.expected.retryable,
        ...(row.expected.status === undefined ? {} : { status: row.expected.status }),
        ...(row.expected.code === undefined ? {} : { code: row.expected.code }),
      });
    }
    // Each behaviour was taken by its own call: the REST list, then the SOAP DownloadFiles.
    if (scoped) {
      await expect
        .poll(() => scoped.scope.requests.filter((request) => request.reusedConnection).map(({ method, path }) => `${method} ${path}`), { timeout: 4_000 })
        .toEqual([expect.stringMatching(/^GET .*\/rest\/filesForDownload\/$/), expect.stringMatching(/^POST .*\/DownloadFiles$/)]);
      await scoped.close();
    }
  }

  it('gives up with the same RetriesExhaustedError in both, carrying the last failure', async () => {
    // A window shorter than one wait: the first failure closes it, whatever the machine's speed.
    const retry = { intervalMs: 10, maxDurationMs: 0, allowShortIntervals: true };
    // Every request of the scope gets a 500.
    const { scope, clients, close } = await scopedClients(suite.server, suite.certificates, 'model-exhausted', byInterface(answer(500), answer(500, text, 'no')), { retry });
    const errors = [await clients.rest.list().catch((e: unknown) => e), await clients.soap.downloadFiles('Q1').catch((e: unknown) => e)];
    for (const error of errors) {
      expect((error as Error).name).toBe('RetriesExhaustedError');
      expect(error).toMatchObject({ attempts: 1, status: 500, retryable: false });
      expect((error as Error).cause).toBeInstanceOf(TransientFailureError);
    }
    expect(errors[0]!.constructor).toBe(errors[1]!.constructor);
    expect(scope.requests.map((request) => request.method)).toEqual(['GET', 'POST']);
    await close();
  });
});

describe('a keep-alive connection the server closed while it sat idle', () => {
  // The server takes a request over a connection used before by ending that connection without a word, as a server
  // does that closed an idle keep-alive connection while the request was on its way. With the reference's retry rule
  // (a 5-minute wait), the call is tried again at once on a new connection, and says why without blaming the
  // certificate.
  it.each([
    { interface: 'REST', warm: restWarm, call: (clients: Clients) => clients.rest.list(), answer: answer(200, text, 'A.csv\n'), result: ['A.csv'] },
    { interface: 'SOAP', warm: soapWarm, call: (clients: Clients) => clients.soap.downloadFiles('Q1'), answer: answer(200, xml, files(1)), result: [{ fileID: 'F', fileContent: Buffer.from('A') }] },
  ].map((row, index) => ({ ...row, token: `stale-${index}` })))('$interface: tried again at once on a new connection, under the reference retry rule', async (row) => {
    const retried: string[] = [];
    const { scope, clients, close } = await scopedClients(suite.server, suite.certificates, row.token, row.answer, { retry: { onRetry: (event) => retried.push(event.failure.message) } });
    try {
      await warmUp(() => row.warm(clients));
      // The next request over the warmed connection: its connection ends without an answer.
      scope.next((req) => req.socket.destroy());
      await expect(row.call(clients)).resolves.toEqual(row.result);
      expect(retried).toEqual([]);
      // The request that met the closed connection, then the one on a new connection.
      expect(scope.requests.slice(-2).map((request) => request.reusedConnection)).toEqual([true, false]);
    } finally {
      await close();
    }
  });
});

describe('where the reference and we differ: a SOAP Client fault (HTTP 500)', () => {
  const fault = (code: string) => answer(500, xml, soapEnvelope(`<soap:Fault><faultcode>${code}</faultcode><faultstring>bad</faultstring></soap:Fault>`));
  const empty = answer(200, xml, soapEnvelope(`<downloadFilesResponse xmlns="${NS}"/>`));
  const retry = { intervalMs: 10, maxDurationMs: 10_000, allowShortIntervals: true };

  it.each([
    { title: 'a Client fault is final by default (OUR choice: the message itself is wrong)', code: 'soap:Client', soapClientFaults: undefined, retried: false },
    { title: "a Client fault is retried with soapClientFaults: 'retry' (the reference, literally)", code: 'soap:Client', soapClientFaults: 'retry' as const, retried: true },
    { title: 'a Server fault is retried either way', code: 'soap:Server', soapClientFaults: undefined, retried: true },
  ].map((row, index) => ({ ...row, token: `fault-${index}` })))('$title', async ({ code, soapClientFaults, retried, token }) => {
    // A scope of its own: the fault is taken by this call's first request (over the warmed connection), every other
    // request of the scope gets an empty queue.
    const scope = suite.server.scope(token, empty);
    const client = await FileExchangeSoapClient.create({
      baseUrl: scope.soapUrl,
      tls: tls(),
      retry: { ...retry, ...(soapClientFaults ? { soapClientFaults } : {}) },
    });
    await warmUp(() => client.downloadFiles('Q0'));
    scope.next(fault(code));
    const before = scope.requests.length;
    const outcome = await client.downloadFiles('Q1').catch((error: unknown) => error);
    if (retried) expect(outcome).toEqual([]);
    else expect(outcome).toMatchObject({ name: 'SoapFaultError', faultCode: code, status: 500, retryable: false });
    expect(scope.requests.length - before).toBe(retried ? 2 : 1);
    expect(scope.requests[before]).toMatchObject({ method: 'POST', reusedConnection: true });
    await client.close();
  });
});
