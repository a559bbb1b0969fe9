import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleTransaction } from '../src/index.js';
import { failure, paymentRequest } from './support/fixtures.js';
import { inProcessClient, useFakeClock, type Answer } from './support/in-process-fetch.js';

// A payment started is never lost to the caller: once the POST has created a transaction, whatever ends
// settleTransaction names it (receipt number and Idempotency-Key), so that it is looked up rather than paid again.

afterEach(() => {
  vi.useRealTimers();
});

const key = 'order-4711';
const pendingThen =
  (poll: Answer): Answer =>
  (request, index) =>
    request.method === 'POST' ? Response.json({ receiptNumber: 'R-90', status: 'Pending' }, { status: 202 }) : poll(request, index);
const stillPending: Answer = () => Response.json({ receiptNumber: 'R-90', status: 'Pending' });
const never: Answer = () => new Promise<Response>(() => undefined);

describe('settleTransaction after the transaction was created', () => {
  it.each([
    { fault: 'the settle timeout passes while it is pending', kind: 'timeout', answer: pendingThen(stillPending), abortAt: undefined, timeoutMs: undefined },
    { fault: 'the caller aborts while waiting to poll', kind: 'aborted', answer: pendingThen(stillPending), abortAt: 500, timeoutMs: undefined },
    { fault: 'the caller aborts while a poll is in flight', kind: 'aborted', answer: pendingThen(never), abortAt: 1_500, timeoutMs: undefined },
    { fault: "the client's deadline ends a poll in flight", kind: 'timeout', answer: pendingThen(never), abortAt: undefined, timeoutMs: 3_000 },
    { fault: 'a poll is answered 500', kind: 'server', answer: pendingThen(() => Response.json({}, { status: 500 })), abortAt: undefined, timeoutMs: undefined },
    { fault: 'a poll gets no answer', kind: 'network', answer: pendingThen(() => Promise.reject(new TypeError('fetch failed'))), abortAt: undefined, timeoutMs: undefined },
  ] as const)('$fault: a $kind error with the receipt number and the key, and no second POST', async ({ kind, answer, abortAt, timeoutMs }) => {
    useFakeClock();
    const { client, requests } = inProcessClient(answer, { retry: { maxRetries: 0 }, ...(timeoutMs ? { timeoutMs } : {}) });
    const controller = new AbortController();
    const settling = failure(
      settleTransaction(client.transactions, paymentRequest as never, { pollIntervalMs: 1_000, settleTimeoutMs: 10_000, idempotencyKey: key, signal: controller.signal }),
    );
    // On the fake clock (useFakeClock): the caller aborts once the clock has reached `abortAt`.
    if (abortAt !== undefined) {
      await vi.advanceTimersByTimeAsync(abortAt);
      controller.abort(new Error('order cancelled'));
    }
    await vi.advanceTimersByTimeAsync(20_000 - (abortAt ?? 0));
    const error = await settling;
    expect(error.kind).toBe(kind);
    expect(error).toMatchObject({ receiptNumber: 'R-90', idempotencyKey: key });
    expect(error.toJSON()).toMatchObject({ receiptNumber: 'R-90', idempotencyKey: key });
    expect(error.message).toMatch(/R-90.*order-4711.*do not pay again/);
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('the settle timeout ends a poll in flight (the client deadline, a minute, does not decide it)', async () => {
    useFakeClock();
    const { client, requests } = inProcessClient(pendingThen(never), { timeoutMs: 60_000 });
    let settledAt: number | undefined;
    const settling = failure(settleTransaction(client.transactions, paymentRequest as never, { pollIntervalMs: 100, settleTimeoutMs: 300, idempotencyKey: key })).finally(
      () => (settledAt = Date.now() - start),
    );
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(300);
    // The poll started at 100 ms and is still unanswered when the 300 ms pass.
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    const error = await settling;
    expect(settledAt).toBe(300);
    expect(error).toMatchObject({ kind: 'timeout', receiptNumber: 'R-90', idempotencyKey: key });
    expect(requests[1]!.signal.aborted).toBe(true);
  });

  it('a 202 without a receipt number: a protocol error that still names the key the payment was sent with', async () => {
    const { client } = inProcessClient(() => Response.json({ status: 'Pending' }, { status: 202 }));
    const error = await failure(settleTransaction(client.transactions, paymentRequest as never, { idempotencyKey: key }));
    expect(error).toMatchObject({ kind: 'protocol', idempotencyKey: key, receiptNumber: undefined });
  });
});

describe('settleTransaction before any transaction exists', () => {
  it.each([
    { pollIntervalMs: Number.NaN },
    { pollIntervalMs: -1 },
    { pollIntervalMs: Infinity },
    { settleTimeoutMs: Number.NaN },
    { settleTimeoutMs: -5 },
    { settleTimeoutMs: Infinity },
    { settleTimeoutMs: '' },
  ])('refuses %j with an input error, before taking the payment', async (options) => {
    const { client, requests } = inProcessClient(() => Response.json({ receiptNumber: 'R-91', status: 'Approved' }, { status: 201 }));
    const error = await failure(settleTransaction(client.transactions, paymentRequest as never, options as never));
    expect(error.kind).toBe('input');
    expect(error.message).toMatch(Object.keys(options)[0]!);
    expect(requests).toHaveLength(0);
  });

  it.each([
    { stopper: 'the caller aborts', kind: 'aborted', timeoutMs: 60_000 },
    { stopper: "the client's deadline ends", kind: 'timeout', timeoutMs: 1_000 },
  ] as const)('$stopper the POST in flight: $kind, naming the key to resend with, and not resent', async ({ stopper, kind, timeoutMs }) => {
    useFakeClock();
    const { client, requests } = inProcessClient(never, { timeoutMs });
    const controller = new AbortController();
    const settling = failure(settleTransaction(client.transactions, paymentRequest as never, { idempotencyKey: key, signal: controller.signal }));
    // On the fake clock (useFakeClock), like the deadline: the POST is at the server before the caller aborts.
    await vi.advanceTimersByTimeAsync(5);
    expect(requests).toHaveLength(1);
    if (stopper === 'the caller aborts') controller.abort();
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await settling;
    expect(error).toMatchObject({ kind, idempotencyKey: key, receiptNumber: undefined, attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('a signal aborted before the call: aborted, naming the key, and no transaction is read for', async () => {
    // Like a real fetch, the stub refuses a request whose signal is already aborted.
    const { client, requests } = inProcessClient((request) => (request.signal.aborted ? Promise.reject(request.signal.reason) : never(request, 0)));
    const error = await failure(settleTransaction(client.transactions, paymentRequest as never, { idempotencyKey: key, signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', idempotencyKey: key, receiptNumber: undefined });
    expect(requests.every((r) => r.method === 'POST')).toBe(true);
  });
});
