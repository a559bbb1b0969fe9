import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPublishableClient, createSecretClient, isPaymentsError, settleTransaction } from '../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';
import { selfSignedCertificate } from './support/self-signed.js';
import { createRawClient } from '../src/raw.js';

// Fault-model cells of the raw client and the list iterators (which share the methods' transport), and the TLS row of
// every entry point that sends: see the fault model in the README.

let server: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/**
 * A list whose first page answers at once, with a `next` link to a page that never answers; `atSecondPage` runs when
 * the request for it reaches the server.
 */
async function listWithStalledSecondPage(atSecondPage: () => void) {
  server = await startLoopbackServer((request, res) => {
    if (request.url.includes('page=2')) return atSecondPage(); // never answered
    json(res, 200, { links: [{ rel: 'next', href: `/rest/v1/transactions?page=2`, requestMethod: 'GET' }], data: [{ receiptNumber: '1' }] });
  });
  return server;
}

/** The deadline of the in-flight rows, on a fake clock that the test moves past it once the request is at the server. */
const inFlightDeadlineMs = 2_000;

/**
 * Fakes the deadline's timer (and nothing the sockets use); the returned function moves the clock past the deadline,
 * so that it fires while the request is in flight however slow the machine is.
 */
function fakeDeadline(): () => void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  return () => vi.advanceTimersByTime(inFlightDeadlineMs);
}

describe('the raw client and the list iterators are ended like the methods', () => {
  it('raw: the caller aborts a GET in flight: an aborted PaymentsError, nothing resent', async () => {
    server = await startLoopbackServer(() => undefined);
    const controller = new AbortController();
    const call = createRawClient(secretClient(server.url)).GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '5' } }, signal: controller.signal });
    await expect.poll(() => server!.requests.length).toBe(1);
    controller.abort();
    const error = await failure(call);
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("raw: the deadline ends a POST in flight: a timeout that carries the Idempotency-Key, nothing resent", async () => {
    server = await startLoopbackServer(fakeDeadline());
    const call = createRawClient(secretClient(server.url, { timeoutMs: inFlightDeadlineMs })).POST('/transactions', {
      body: paymentRequest as never,
      params: { header: { 'Idempotency-Key': 'raw-order-1' } },
    });
    const error = await failure(call);
    expect(error).toMatchObject({ kind: 'timeout', idempotencyKey: 'raw-order-1', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    { stopper: 'the caller', kind: 'aborted', timeoutMs: 60_000 },
    { stopper: 'the deadline', kind: 'timeout', timeoutMs: inFlightDeadlineMs },
  ])('list iterator: $stopper ends the read of a next page: a $kind error, the page read once', async ({ stopper, kind, timeoutMs }) => {
    const controller = new AbortController();
    await listWithStalledSecondPage(stopper === 'the caller' ? () => controller.abort() : fakeDeadline());
    const first = await secretClient(server!.url, { timeoutMs }).transactions.list({ signal: controller.signal });
    const items: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const item of first) items.push(item);
      })(),
    );
    expect(error.kind).toBe(kind);
    expect(items).toEqual([{ receiptNumber: '1' }]);
    expect(server!.requests.map((r) => r.url)).toEqual(['/rest/v1/transactions', '/rest/v1/transactions?page=2']);
  });
});

describe('an empty option is refused when the client is made', () => {
  it.each([
    { option: 'apiKey', value: '' },
    { option: 'apiKey', value: '   ' },
    { option: 'apiKey', value: undefined },
    { option: 'baseUrl', value: '' },
  ])('$option $value: a configuration error naming the option, on both clients', ({ option, value }) => {
    for (const create of [createSecretClient, createPublishableClient]) {
      let error: unknown;
      try {
        create({ apiKey: 'sk_test_key', baseUrl: 'https://api.example.test/rest/v1', [option]: value } as never);
      } catch (caught) {
        error = caught;
      }
      expect(isPaymentsError(error) && error.kind).toBe('configuration');
      expect(isPaymentsError(error) && error.option).toBe(option);
    }
  });
});

describe('a redirect is never followed', () => {
  it('list iterator: a next page answered 301 fails with a request error naming the new address', async () => {
    server = await startLoopbackServer((request, res) => {
      if (request.url.includes('page=2')) return json(res, 301, undefined, { Location: 'https://elsewhere.example/rest/v1/transactions?page=2' });
      json(res, 200, { links: [{ rel: 'next', href: '/rest/v1/transactions?page=2', requestMethod: 'GET' }], data: [] });
    });
    const first = await secretClient(server.url).transactions.list();
    const error = await failure(first.nextPage());
    expect(error).toMatchObject({ kind: 'request', status: 301, location: 'https://elsewhere.example/rest/v1/transactions?page=2' });
    expect(server.requests).toHaveLength(2);
  });

  it('settleTransaction: a POST answered 307 fails with a request error naming the address and the key, nothing resent', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 307, undefined, { Location: 'https://elsewhere.example/rest/v1/transactions' }));
    const error = await failure(settleTransaction(secretClient(server.url).transactions, paymentRequest as never, { idempotencyKey: 'moved-order-1' }));
    expect(error).toMatchObject({ kind: 'request', status: 307, location: 'https://elsewhere.example/rest/v1/transactions', idempotencyKey: 'moved-order-1' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('a TLS failure (a certificate the runtime does not trust)', () => {
  let tls: TlsServer;
  let baseUrl: string;
  let handshakes = 0;
  beforeAll(async () => {
    // A self-signed certificate made for this run: no client trusts it.
    tls = createTlsServer(selfSignedCertificate(), (_req, res) => res.end('{}'));
    tls.on('secureConnection', () => handshakes++);
    tls.on('tlsClientError', () => handshakes++);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/rest/v1`;
  });
  afterAll(async () => {
    tls.closeAllConnections();
    await new Promise((resolve) => tls.close(resolve));
  });

  it.each([
    { entry: 'a method', call: (url: string) => secretClient(url, { retry: { maxRetries: 1, delayMs: 5 } }).transactions.get('1') },
    { entry: 'settleTransaction', call: (url: string) => settleTransaction(secretClient(url, { retry: { maxRetries: 1, delayMs: 5 } }).transactions, paymentRequest as never, { idempotencyKey: 'tls-order-1' }) },
    { entry: 'the raw client', call: (url: string) => createRawClient(secretClient(url, { retry: { maxRetries: 1, delayMs: 5 } })).GET('/', {}) },
  ])('$entry: a network error whose cause is the TLS error, resent like one (no request got through), with the key', async ({ entry, call }) => {
    handshakes = 0;
    const error = await call(baseUrl).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPaymentsError(error) && error.kind).toBe('network');
    if (!isPaymentsError(error)) return;
    expect(error.attempts).toBe(2);
    expect(String((error.cause as Error)?.cause ?? error.cause)).toMatch(/certificate/i);
    if (entry === 'settleTransaction') expect(error.idempotencyKey).toBe('tls-order-1');
    await expect.poll(() => handshakes).toBe(2);
  });
});
