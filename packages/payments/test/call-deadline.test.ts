import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretClient, isPaymentsError } from '../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient, secretKey } from './support/fixtures.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const approved = { receiptNumber: '1000000001', status: 'Approved' };

/** Answers after `ms` milliseconds. */
const slowly = (ms: number) => startLoopbackServer((_request, res) => void setTimeout(() => json(res, 200, approved), ms).unref());

describe('timeoutMs 0 or Infinity turns the deadline off', () => {
  it.each([0, Infinity])('waits for a slow answer with timeoutMs %s', async (timeoutMs) => {
    server = await slowly(150);
    const result = await secretClient(server.url, { timeoutMs }).transactions.get('1000000001');
    expect(result.status).toBe(200);
    expect(result.data).toEqual(approved);
  });

  it.each([0, Infinity])('still stops on the caller signal with timeoutMs %s, during the request', async (timeoutMs) => {
    server = await slowly(2_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    const error = await failure(secretClient(server.url, { timeoutMs }).transactions.get('1000000001', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(error.cause).toEqual(new Error('caller gave up'));
  });

  it('still stops on the caller signal during the wait before a retry', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 503, {}));
    const controller = new AbortController();
    const client = secretClient(server.url, { timeoutMs: 0, retry: { delayMs: 10_000 }, onResponse: () => controller.abort() });
    const error = await failure(client.transactions.create(paymentRequest, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a caller signal that is already aborted before sending', async () => {
    server = await slowly(0);
    const error = await failure(secretClient(server.url, { timeoutMs: 0 }).transactions.get('1000000001', { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the timeoutMs option', () => {
  it.each([-1, Number.NaN, '100', null])('refuses %s when the client is made, without echoing the key', (timeoutMs) => {
    let thrown: unknown;
    try {
      createSecretClient({ apiKey: secretKey, baseUrl: 'http://127.0.0.1:9/rest/v1', timeoutMs: timeoutMs as number });
    } catch (error) {
      thrown = error;
    }
    expect(isPaymentsError(thrown) && thrown.kind).toBe('input');
    expect((thrown as Error).message).toMatch(/timeoutMs/);
    expect((thrown as Error).message).not.toContain(secretKey);
  });

  it('leaves no listener on the caller signal once calls are over', async () => {
    server = await slowly(0);
    const controller = new AbortController();
    const client = secretClient(server.url, { timeoutMs: 5_000 });
    for (let i = 0; i < 5; i++) await client.transactions.get('1000000001', { signal: controller.signal });
    await failure(client.transactions.get('', { signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
