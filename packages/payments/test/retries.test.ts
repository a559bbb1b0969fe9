import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RetryPolicy } from '../src/index.js';
import { errorBody, json, startLoopbackServer, type LoopbackServer, type Script } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';
import { inProcessClient, useFakeClock } from './support/in-process-fetch.js';

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
  /** A client answered in process with the listed statuses (the last one repeated), without a deadline. */
  function scriptedClient(statuses: number[], retry?: RetryPolicy) {
    return inProcessClient(
      (_request, index) => {
        const status = statuses[Math.min(index, statuses.length - 1)]!;
        return Response.json(status < 300 ? approved : errorBody(status), { status });
      },
      { retry, timeoutMs: 0 },
    );
  }

  it.each([
    { label: "the reference's 20 s by default", retry: undefined, waitMs: 20_000 },
    { label: 'retry.delayMs when given', retry: { delayMs: 300 }, waitMs: 300 },
  ])('is $label', async ({ retry, waitMs }) => {
    useFakeClock();
    const { sentAt, client } = scriptedClient([503, 201], retry);
    const call = client.transactions.create(paymentRequest);
    await vi.advanceTimersByTimeAsync(waitMs - 1);
    expect(sentAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAt).toEqual([0, waitMs]);
    expect((await call).attempts).toBe(2);
  });

  it('comes twice at most by default: three attempts in all', async () => {
    useFakeClock();
    const { sentAt, client } = scriptedClient([503]);
    const call = failure(client.transactions.create(paymentRequest));
    await vi.advanceTimersByTimeAsync(10 * 20_000);
    const error = await call;
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(3);
    expect(sentAt).toEqual([0, 20_000, 40_000]);
  });
});
