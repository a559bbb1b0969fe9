import { afterEach, describe, expect, it } from 'vitest';
import { errorBody, json, startLoopbackServer, type LoopbackServer, type Script } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
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

  it('waits the configured delay between attempts (20 s by default is configurable)', async () => {
    server = await startLoopbackServer(statuses(503, 201));
    const sentAt: number[] = [];
    const client = secretClient(server.url, { retry: { delayMs: 300 }, onRequest: () => sentAt.push(Date.now()) });
    await client.transactions.create(paymentRequest);
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(290);
  });
});

describe('timeouts and abort signals stop everything', () => {
  it('times out a slow answer', async () => {
    let answered = false;
    server = await startLoopbackServer((_request, res) => {
      setTimeout(() => {
        answered = true;
        json(res, 200, approved);
      }, 3_000).unref();
    });
    const error = await failure(secretClient(server.url, { timeoutMs: 200 }).transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(answered).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('times out during the wait before a retry instead of sending again', async () => {
    server = await startLoopbackServer(statuses(503, 201));
    const client = secretClient(server.url, { timeoutMs: 200, retry: { delayMs: 10_000 } });
    const error = await failure(client.transactions.create(paymentRequest));
    expect(error.kind).toBe('timeout');
    expect(server.requests).toHaveLength(1);
    expect(error.idempotencyKey).toBe(server.requests[0]!.headers['idempotency-key']);
  });

  it('times out a body that arrives too slowly', async () => {
    server = await startLoopbackServer((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"receiptNumber":');
    });
    const error = await failure(secretClient(server.url, { timeoutMs: 200 }).transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
  });

  it('stops when the caller aborts, during the request or the wait', async () => {
    server = await startLoopbackServer(statuses(503));
    const controller = new AbortController();
    const client = secretClient(server.url, {
      retry: { delayMs: 10_000 },
      onResponse: () => controller.abort(new Error('caller gave up')),
    });
    const error = await failure(client.transactions.create(paymentRequest, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});
