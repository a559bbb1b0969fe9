import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentsClientOptions } from '../src/index.js';
import { errorBody, json, startLoopbackServer, type LoopbackServer, type Script } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';
import { inProcessClient, useFakeClock } from './support/in-process-fetch.js';
import { createRawClient } from '../src/raw.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const approved = { receiptNumber: '1000000001', status: 'Approved' };

/** Answers each request with the next status of the list; the last one is repeated. */
function statuses(...list: (number | 'drop')[]): Script {
  return (_request, res, index) => {
    const status = list[Math.min(index, list.length - 1)]!;
    if (status === 'drop') return void res.socket?.destroy();
    json(res, status, status < 300 ? approved : errorBody(status));
  };
}

describe('retries follow the client rules, with one idempotency key per call', () => {
  it.each([
    { answers: [429, 201], sent: 2 },
    { answers: [503, 503, 201], sent: 3 },
    { answers: ['drop', 201], sent: 2 },
    { answers: ['drop', 503, 201], sent: 3 },
  ] as const)('resends after $answers and succeeds on attempt $sent', async ({ answers, sent }) => {
    server = await startLoopbackServer(statuses(...answers));
    const result = await secretClient(server.url).transactions.create(paymentRequest);
    expect(result.status).toBe(201);
    expect(result.attempts).toBe(sent);
    expect(server.requests).toHaveLength(sent);
    const keys = new Set(server.requests.map((r) => r.headers['idempotency-key']));
    expect(keys).toEqual(new Set([result.idempotencyKey]));
    expect(result.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(server.requests.map((r) => r.body))).toEqual(new Set([JSON.stringify(paymentRequest)]));
  });

  it.each([
    { answer: 500, kind: 'server', advice: /do not resend/i },
    { answer: 502, kind: 'server', advice: /query the resource/i },
    { answer: 504, kind: 'server', advice: /query the resource/i },
    { answer: 422, kind: 'validation', advice: /HTTP 422/ },
    { answer: 409, kind: 'conflict', advice: /HTTP 409/ },
  ] as const)('never resends after $answer', async ({ answer, kind, advice }) => {
    server = await startLoopbackServer(statuses(answer, 201));
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(server.requests).toHaveLength(1);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(answer);
    expect(error.message).toMatch(advice);
    expect(error.idempotencyKey).toBe(server.requests[0]!.headers['idempotency-key']);
    expect(error.mustQueryState).toBe(answer === 500 || answer === 502 || answer === 504);
  });

  it('stops after the configured number of retries and reports the last answer', async () => {
    server = await startLoopbackServer(statuses(503));
    const error = await failure(secretClient(server.url, { retry: { delayMs: 1, maxRetries: 3 } }).transactions.create(paymentRequest));
    expect(server.requests).toHaveLength(4);
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(4);
    expect(new Set(server.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('stops on 429 with kind rateLimit once retries are exhausted', async () => {
    server = await startLoopbackServer(statuses(429));
    const error = await failure(secretClient(server.url, { retry: { maxRetries: 0 } }).transactions.create(paymentRequest));
    expect(server.requests).toHaveLength(1);
    expect(error.kind).toBe('rateLimit');
  });

  it('gives up on dropped connections with kind network after the retries', async () => {
    server = await startLoopbackServer(statuses('drop'));
    const error = await failure(secretClient(server.url, { retry: { delayMs: 1, maxRetries: 1 } }).transactions.get('1000000001'));
    expect(error.kind).toBe('network');
    expect(server.requests).toHaveLength(2);
  });

  it('sends the caller’s idempotency key on every attempt', async () => {
    server = await startLoopbackServer(statuses(429, 503, 201));
    const idempotencyKey = 'order-1001-payment';
    const result = await secretClient(server.url).transactions.create(paymentRequest, { idempotencyKey });
    expect(result.idempotencyKey).toBe(idempotencyKey);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([idempotencyKey, idempotencyKey, idempotencyKey]);
  });
});

describe('the wait before a resend (fake timers: 20 s pass in no time)', () => {
  /**
   * A client answered in process, without a deadline unless given one: the first answer is `status`, with a
   * Retry-After when given, and the others are too unless `then` says otherwise.
   */
  function answering(status: number, { retryAfter, then = status, ...options }: Partial<PaymentsClientOptions> & { retryAfter?: string; then?: number }) {
    const headers: Record<string, string> = retryAfter === undefined ? {} : { 'Retry-After': retryAfter };
    return inProcessClient(
      (_request, index) => {
        const answer = index === 0 ? status : then;
        return Response.json(answer < 300 ? approved : errorBody(answer), { status: answer, headers: index === 0 ? headers : {} });
      },
      { timeoutMs: 0, ...options },
    );
  }

  it.each([
    { label: "the reference's 20 s by default", status: 503, retry: undefined, retryAfter: undefined, resentAt: 20_000 },
    { label: 'retry.delayMs when given', status: 503, retry: { delayMs: 300 }, retryAfter: undefined, resentAt: 300 },
    { label: 'a longer Retry-After in seconds', status: 503, retry: { delayMs: 300 }, retryAfter: '30', resentAt: 30_000 },
    { label: 'a longer Retry-After as an HTTP date', status: 429, retry: { delayMs: 300 }, retryAfter: 'in 45 s', resentAt: 45_000 },
    { label: 'the configured wait over a shorter Retry-After', status: 429, retry: undefined, retryAfter: '1', resentAt: 20_000 },
    { label: 'the configured wait when Retry-After is unreadable', status: 503, retry: { delayMs: 300 }, retryAfter: 'soon', resentAt: 300 },
  ])('is $label', async ({ status, retry, retryAfter, resentAt }) => {
    useFakeClock();
    const header = retryAfter === 'in 45 s' ? new Date(Date.now() + 45_000).toUTCString() : retryAfter;
    const { sentAt, client } = answering(status, { retry, retryAfter: header, then: 201 });
    const call = client.transactions.create(paymentRequest);
    await vi.advanceTimersByTimeAsync(resentAt - 1);
    expect(sentAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAt).toEqual([0, resentAt]);
    expect((await call).attempts).toBe(2);
  });

  it('comes twice at most by default: three attempts in all', async () => {
    useFakeClock();
    const { sentAt, client } = answering(503, {});
    const call = failure(client.transactions.create(paymentRequest));
    await vi.advanceTimersByTimeAsync(10 * 20_000);
    const error = await call;
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(3);
    expect(sentAt).toEqual([0, 20_000, 40_000]);
  });

  it.each([
    { status: 429, kind: 'rateLimit' },
    { status: 503, kind: 'server' },
  ] as const)('fails at once with the $status when its Retry-After reaches past the deadline', async ({ status, kind }) => {
    useFakeClock();
    const { client, sentAt } = answering(status, { retryAfter: '120', timeoutMs: 60_000 });
    // No timer is advanced: the call ends without waiting.
    const error = await failure(client.transactions.create(paymentRequest));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/Retry-After: 120/);
    expect(sentAt).toEqual([0]);
  });

  it.each([
    { status: 429, kind: 'rateLimit' },
    { status: 503, kind: 'server' },
  ] as const)('fails at once with the $status when the configured wait outlasts the deadline (no Retry-After): the last definite answer, not a timeout', async ({ status, kind }) => {
    useFakeClock();
    const { client, sentAt } = answering(status, { timeoutMs: 10_000 });
    const error = await failure(client.transactions.create(paymentRequest));
    expect(error).toMatchObject({ kind, status, attempts: 1 });
    expect(sentAt).toEqual([0]);
  });

  it('the raw client gets the 503 as its error too, not a thrown timeout', async () => {
    useFakeClock();
    const { client } = answering(503, { timeoutMs: 10_000 });
    const { error, response } = await createRawClient(client).POST('/transactions', { body: paymentRequest as never });
    expect(response.status).toBe(503);
    expect(error).toEqual(errorBody(503));
  });
});
