import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorLog, PaymentsClientOptions, RequestLog, ResponseLog } from '../../src/index.js';
import { inProcessClient, useFakeClock } from '../support/in-process-fetch.js';
import { json, startLoopbackServer, type LoopbackServer, type Script } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';

// Fault row "the caller's hook throws or rejects", for every hook: the call's outcome is the one it would have had
// without hooks (a 201 stays a 201, a failure keeps its kind), the hook's failure is reported on the console, and
// nothing is left as an unhandled rejection. The hooks hear of every attempt: its answer with its headers
// (onResponse), or what kept it from one (onError).

const approved = { receiptNumber: '1000000001', status: 'Approved' };

let server: LoopbackServer | undefined;
let unhandled: unknown[];
const noteUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', noteUnhandled);
});
afterEach(async () => {
  process.off('unhandledRejection', noteUnhandled);
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

/**
 * Node reports a rejection nobody handled once the task that left it unhandled ends: one more turn of the event loop
 * after the hook's failure was seen is enough for it to surface as `unhandledRejection`.
 */
const rejectionsReported = () => nextTurn();

const hookError = new Error('hook bug');
const failing = {
  throws: () => {
    throw hookError;
  },
  rejects: async () => {
    throw hookError;
  },
};

/** The first answer is dropped (a network error), the second is a 201. */
const dropThenApprove: Script = (_request, res, index) => (index === 0 ? void res.socket?.destroy() : json(res, 201, approved, { 'X-Request-Id': 'r-2' }));

describe('a hook that fails never changes the outcome', () => {
  it.each([
    { hook: 'onRequest', how: 'throws' },
    { hook: 'onRequest', how: 'rejects' },
    { hook: 'onResponse', how: 'throws' },
    { hook: 'onResponse', how: 'rejects' },
    { hook: 'onError', how: 'throws' },
    { hook: 'onError', how: 'rejects' },
  ] as const)('$hook that $how: the payment resent after a dropped connection still resolves as its 201', async ({ hook, how }) => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    server = await startLoopbackServer(dropThenApprove);
    const client = secretClient(server.url, { [hook]: failing[how] });
    const result = await client.transactions.create(paymentRequest);
    expect([result.status, result.attempts, result.data]).toEqual([201, 2, approved]);
    // Reported once per call of the hook: onRequest ran for both attempts, onResponse for the answer, onError for the drop.
    await expect.poll(() => console.mock.calls.map((call) => call[1])).toEqual(hook === 'onRequest' ? [hookError, hookError] : [hookError]);
    await rejectionsReported();
    expect(unhandled).toEqual([]);
  });

  it.each(['throws', 'rejects'] as const)('onError that %s leaves a failure its kind and its error', async (how) => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    server = await startLoopbackServer((_request, res) => void res.socket?.destroy());
    const error = await failure(secretClient(server.url, { retry: { delayMs: 1, maxRetries: 1 }, onError: failing[how] }).transactions.get('1'));
    expect([error.kind, error.attempts]).toEqual(['network', 2]);
    // onError ran for both attempts, and both of its failures were caught.
    await expect.poll(() => console.mock.calls.length).toBe(2);
    await rejectionsReported();
    expect(unhandled).toEqual([]);
  });

  it('cannot change the request through the event it is given', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    const onRequest = (log: RequestLog) => {
      log.headers['idempotency-key'] = 'changed-by-hook';
      log.url = 'http://elsewhere.example.test/';
    };
    const result = await secretClient(server.url, { onRequest }).transactions.create(paymentRequest);
    expect(server.requests[0]!.headers['idempotency-key']).toBe(result.idempotencyKey);
    expect(server.requests[0]!.url).toBe('/rest/v1/transactions');
  });
});

describe('what the hooks are told', () => {
  it('onResponse gets the status and the headers of each answer', async () => {
    server = await startLoopbackServer((_request, res, index) =>
      json(res, index === 0 ? 503 : 201, approved, index === 0 ? { 'Retry-After': '0', 'X-Request-Id': 'r-1' } : { 'X-Request-Id': 'r-2' }),
    );
    const responses: ResponseLog[] = [];
    await secretClient(server.url, { onResponse: (log) => void responses.push(log) }).transactions.create(paymentRequest);
    expect(responses.map((log) => [log.attempt, log.status, log.responseHeaders.get('x-request-id')])).toEqual([
      [1, 503, 'r-1'],
      [2, 201, 'r-2'],
    ]);
    expect(responses[0]!.responseHeaders.get('retry-after')).toBe('0');
    expect(responses[0]!.headers.authorization).toBe('[redacted]');
  });

  it('onError hears of a network error, with whether it is resent', async () => {
    server = await startLoopbackServer(dropThenApprove);
    const errors: ErrorLog[] = [];
    await secretClient(server.url, { onError: (log) => void errors.push(log) }).transactions.create(paymentRequest);
    expect(errors.map((log) => [log.attempt, log.error.kind, log.willRetry])).toEqual([[1, 'network', true]]);
    expect(errors[0]!.idempotencyKey).toBe(server.requests[1]!.headers['idempotency-key']);
  });

  it.each([
    { stop: 'the deadline', kind: 'timeout' },
    { stop: 'the caller', kind: 'aborted' },
  ] as const)('onError hears of $stop stopping the call in flight: $kind, not resent', async ({ stop, kind }) => {
    const controller = new AbortController();
    // The request is at the server, never answered: the deadline or the caller ends the call.
    server = await startLoopbackServer(() => {
      if (stop === 'the caller') controller.abort();
    });
    const errors: ErrorLog[] = [];
    const client = secretClient(server.url, { timeoutMs: stop === 'the deadline' ? 200 : 0, onError: (log) => void errors.push(log) });
    const error = await failure(client.transactions.create(paymentRequest, { signal: controller.signal }));
    expect(error.kind).toBe(kind);
    await expect.poll(() => errors.map((log) => [log.attempt, log.error, log.willRetry])).toEqual([[1, error, false]]);
    expect(error.attempts).toBe(1);
  });

  describe('stopped while waiting to resend after a 503 (fake clock: the wait is 1 s)', () => {
    afterEach(() => void vi.useRealTimers());

    function waitingClient(options: Partial<PaymentsClientOptions>) {
      useFakeClock();
      const errors: ErrorLog[] = [];
      const responses: number[] = [];
      const { client, requests } = inProcessClient(() => Response.json(approved, { status: 503 }), {
        retry: { delayMs: 1_000 },
        onError: (log) => void errors.push(log),
        onResponse: (log) => void responses.push(log.status),
        ...options,
      });
      return { client, requests, errors, responses };
    }

    it('by the caller: onError hears of it with the attempt it was waiting to send; aborted, not resent', async () => {
      const controller = new AbortController();
      const { client, requests, errors, responses } = waitingClient({ timeoutMs: 0 });
      const call = failure(client.transactions.create(paymentRequest, { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(500);
      expect(responses).toEqual([503]);
      controller.abort();
      const error = await call;
      expect(error.kind).toBe('aborted');
      await expect.poll(() => errors.map((log) => [log.attempt, log.error, log.willRetry])).toEqual([[2, error, false]]);
      expect(requests).toHaveLength(1);
    });

    it('by the deadline: the 503 is the outcome (the last definite answer), not a timeout; onError is not told', async () => {
      // The wait ends exactly at the deadline, whose timer was armed first: it fires first, during the wait.
      const { client, requests, errors, responses } = waitingClient({ timeoutMs: 1_000 });
      const call = failure(client.transactions.create(paymentRequest));
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await call;
      expect(responses).toEqual([503]);
      expect(error).toMatchObject({ kind: 'server', status: 503, attempts: 1, mustQueryState: false });
      expect(requests).toHaveLength(1);
      expect(errors).toEqual([]);
    });
  });
});
