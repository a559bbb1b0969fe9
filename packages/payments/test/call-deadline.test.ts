import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Agent, fetch as undici7Fetch, MockAgent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSecretClient, isPaymentsError, type PaymentsClientOptions } from '../src/index.js';
import { errorBody, json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient, secretKey } from './support/fixtures.js';
import { after, inProcessClient, useFakeClock } from './support/in-process-fetch.js';

// A call's deadline (`timeoutMs`) and the caller's signal each end the call wherever it is (waiting for the answer,
// reading the body, waiting before a retry) and close the request: the client hands fetch an AbortSignal that
// either one fires.

const approved = { receiptNumber: '1000000001', status: 'Approved' };
const nodeFetch = globalThis.fetch;

let server: LoopbackServer | undefined;
afterEach(async () => {
  globalThis.fetch = nodeFetch;
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

type Phase = 'waiting for the answer' | 'while the body trickles in';

/**
 * A loopback server, and client options, that stop a call at `phase`: once the request is at the server, or once the
 * answer's headers are in (its body never ends). `closed` records, for each answer, whether the client closed the
 * connection before the server finished it.
 */
async function stopAt(phase: Phase, stop: () => void) {
  const closed: boolean[] = [];
  server = await startLoopbackServer((_request, res) => {
    res.on('close', () => closed.push(!res.writableEnded));
    if (phase === 'waiting for the answer') return stop();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"receiptNumber":');
  });
  const onResponse = () => {
    if (phase === 'while the body trickles in') stop();
  };
  return { closed, url: server.url, onResponse };
}

/**
 * Fakes the timer of the deadline (and nothing the sockets use): the returned function moves the clock past a
 * 150 ms deadline, so that it fires where the test wants it, however slow the machine is.
 */
function fakeDeadline(): () => void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  return () => vi.advanceTimersByTime(150);
}

describe('a call is ended, and its request closed, by', () => {
  it.each([
    { stopper: 'the deadline', phase: 'waiting for the answer', kind: 'timeout' },
    { stopper: 'the deadline', phase: 'while the body trickles in', kind: 'timeout' },
    { stopper: 'the caller', phase: 'waiting for the answer', kind: 'aborted' },
    { stopper: 'the caller', phase: 'while the body trickles in', kind: 'aborted' },
  ] as const)('$stopper $phase: a $kind error', async ({ stopper, phase, kind }) => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const byCaller = stopper === 'the caller';
    const { closed, url, onResponse } = await stopAt(phase, byCaller ? () => controller.abort(reason) : fakeDeadline());
    // The caller's cases keep a deadline too, too far off to interfere.
    const client = secretClient(url, { timeoutMs: byCaller ? 60_000 : 150, onResponse });
    const error = await failure(client.transactions.get('1000000001', { signal: controller.signal }));
    expect(error.kind).toBe(kind);
    expect(error.cause).toBe(byCaller ? reason : undefined);
    expect(server!.requests).toHaveLength(1);
    await expect.poll(() => closed).toEqual([true]);
  });
});

describe('the deadline', () => {
  it('covers the retries: all the attempts of a call share one deadline', async () => {
    useFakeClock();
    // Every attempt takes 40 ms and gets a 503; resends come 1 ms later. The fourth attempt meets the deadline.
    const { client, sentAt } = inProcessClient(() => after(40, () => Response.json(errorBody(503), { status: 503 })), {
      timeoutMs: 150,
      retry: { maxRetries: 20, delayMs: 1 },
    });
    const call = failure(client.transactions.create(paymentRequest));
    await vi.advanceTimersByTimeAsync(150);
    const error = await call;
    expect(error.kind).toBe('timeout');
    expect(error.attempts).toBe(4);
    expect(sentAt).toEqual([0, 41, 82, 123]);
  });

  it('covers the wait before a retry: a wait past it is not begun, the 503 is the outcome (the last definite answer)', async () => {
    useFakeClock();
    const { client, requests } = inProcessClient(() => Response.json(errorBody(503), { status: 503 }), {
      timeoutMs: 150,
      retry: { delayMs: 60_000 },
    });
    // No timer is advanced: the call ends without waiting.
    const error = await failure(client.transactions.create(paymentRequest));
    expect(error).toMatchObject({ kind: 'server', status: 503, attempts: 1, mustQueryState: false });
    expect(error.body).toEqual(errorBody(503));
    expect(requests).toHaveLength(1);
    expect(error.idempotencyKey).toBe(requests[0]!.headers.get('idempotency-key'));
  });

  it('ends a call through a custom fetch that ignores the signal (a Request signal can stop firing after a GC in Node)', async () => {
    useFakeClock();
    let called = 0;
    const deaf = () => (called++, new Promise<Response>(() => undefined));
    const client = createSecretClient({ apiKey: secretKey, baseUrl: 'https://api.example.test/rest/v1', fetch: deaf, timeoutMs: 150 });
    const call = failure(client.transactions.create(paymentRequest, { idempotencyKey: 'order-9/attempt-1' }));
    await vi.advanceTimersByTimeAsync(150);
    expect(called).toBe(1);
    expect(await call).toMatchObject({ kind: 'timeout', mustQueryState: true, idempotencyKey: 'order-9/attempt-1' });
  });

  it('stops a request still queued in the dispatcher, which is then never sent', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const agent = new Agent();
    const queued: (() => void)[] = [];
    // Holds every request, as a saturated connection pool would, until the test lets it go.
    const held = {
      dispatch(options: Parameters<Agent['dispatch']>[0], handler: Parameters<Agent['dispatch']>[1]): boolean {
        queued.push(() => agent.dispatch(options, handler));
        return true;
      },
    };
    const error = await failure(secretClient(server.url, { timeoutMs: 100, dispatcher: held }).transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(queued).toHaveLength(1);
    for (const release of queued) release();
    // Closing an agent waits for every request it was given to end: sent and answered, or dropped.
    await agent.close();
    expect(server.requests).toHaveLength(0);
  });
});

describe('timeoutMs 0 or Infinity turns the deadline off', () => {
  /** A client whose answers come when the test gives them. */
  function clientOnHeldAnswers(options: Partial<PaymentsClientOptions>) {
    const held: ((response: Response) => void)[] = [];
    const { client, requests } = inProcessClient(() => new Promise((resolve) => held.push(resolve)), options);
    return { client, requests, held };
  }

  it.each([0, Infinity])('waits as long as the answer takes with timeoutMs %s', async (timeoutMs) => {
    useFakeClock();
    const { client, held } = clientOnHeldAnswers({ timeoutMs });
    const call = client.transactions.get('1000000001');
    await vi.advanceTimersByTimeAsync(30 * 24 * 3_600_000);
    expect(held).toHaveLength(1);
    held[0]!(Response.json(approved));
    expect((await call).data).toEqual(approved);
  });

  it('keeps the default of 60 s otherwise', async () => {
    useFakeClock();
    const { client, requests } = clientOnHeldAnswers({});
    const call = failure(client.transactions.get('1000000001'));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(requests[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call).kind).toBe('timeout');
  });

  it.each([0, Infinity])("still stops on the caller's signal with timeoutMs %s, and closes the request", async (timeoutMs) => {
    const controller = new AbortController();
    const { closed, url } = await stopAt('waiting for the answer', () => controller.abort(new Error('caller gave up')));
    const error = await failure(secretClient(url, { timeoutMs }).transactions.get('1000000001', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(error.cause).toEqual(new Error('caller gave up'));
    await expect.poll(() => closed).toEqual([true]);
  });

  it("still stops on the caller's signal during the wait before a retry", async () => {
    server = await startLoopbackServer((_request, res) => json(res, 503, errorBody(503)));
    const controller = new AbortController();
    const client = secretClient(server.url, { timeoutMs: 0, retry: { delayMs: 60_000 }, onResponse: () => controller.abort() });
    const error = await failure(client.transactions.create(paymentRequest, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe("the caller's signal", () => {
  it('refuses a signal that is already aborted, before sending', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const error = await failure(secretClient(server.url).transactions.get('1000000001', { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('is shared by many calls in flight with one listener: no MaxListenersExceededWarning, as with bare fetch', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // The check can fail: eleven listeners on one signal make Node warn.
      const probe = new AbortController();
      for (let i = 0; i < 11; i++) probe.signal.addEventListener('abort', () => undefined);
      await expect.poll(() => warnings.map((w) => w.name)).toContain('MaxListenersExceededWarning');
      warnings.length = 0;

      const held: ((response: Response) => void)[] = [];
      const { client } = inProcessClient(() => new Promise((resolve) => held.push(resolve)));
      const controller = new AbortController();
      const calls = Array.from({ length: 20 }, () => client.transactions.get('1000000001', { signal: controller.signal }));
      await expect.poll(() => held.length).toBe(20);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      for (const answer of held) answer(Response.json(approved));
      await Promise.all(calls);
      // Warnings are emitted on the next tick: one more turn lets any of them arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('still stops every call sharing it when it fires', async () => {
    const { client } = inProcessClient(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const calls = Array.from({ length: 12 }, () => failure(client.transactions.get('1000000001', { signal: controller.signal })));
    controller.abort(new Error('page closed'));
    expect((await Promise.all(calls)).map((e) => e.kind)).toEqual(Array(12).fill('aborted'));
  });

  it('is let go of once calls are over', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const controller = new AbortController();
    const client = secretClient(server.url, { timeoutMs: 5_000 });
    for (let i = 0; i < 5; i++) await client.transactions.get('1000000001', { signal: controller.signal });
    await failure(client.transactions.get('', { signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
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
    expect(isPaymentsError(thrown) && thrown.kind).toBe('configuration');
    expect((thrown as Error).message).toMatch(/timeoutMs/);
    expect((thrown as Error).message).not.toContain(secretKey);
  });
});

describe("undici 7's fetch as the global fetch (Node 22 and later bundle undici 7)", () => {
  it.each<Phase>(['waiting for the answer', 'while the body trickles in'])('keeps the deadline %s', async (phase) => {
    globalThis.fetch = undici7Fetch as unknown as typeof fetch;
    const { closed, url, onResponse } = await stopAt(phase, fakeDeadline());
    const agent = new Agent();
    try {
      const error = await failure(secretClient(url, { timeoutMs: 150, dispatcher: agent, onResponse }).transactions.get('1000000001'));
      expect(error.kind).toBe('timeout');
      await expect.poll(() => closed).toEqual([true]);
    } finally {
      await agent.close();
    }
  });
});

describe("undici's MockAgent as the caller's dispatcher (merchants' own tests)", () => {
  it.each([
    { fetch: "Node's fetch", globalFetch: nodeFetch, timeoutMs: undefined },
    { fetch: "Node's fetch", globalFetch: nodeFetch, timeoutMs: 0 },
    { fetch: "undici 7's fetch", globalFetch: undici7Fetch as unknown as typeof fetch, timeoutMs: undefined },
    { fetch: "undici 7's fetch", globalFetch: undici7Fetch as unknown as typeof fetch, timeoutMs: 0 },
  ])('sees POST bodies as strings on $fetch with timeoutMs $timeoutMs', async ({ globalFetch, timeoutMs }) => {
    globalThis.fetch = globalFetch;
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: unknown[] = [];
    agent
      .get('https://api.example.test')
      .intercept({
        path: '/rest/v1/transactions',
        method: 'POST',
        // A MockAgent hands its matchers the body as the request gave it: a string here, not a stream.
        body: (body) => (seen.push(body), typeof body === 'string' && body.includes('"PAYMENT"')),
      })
      .reply(201, approved);
    try {
      const client = secretClient('https://api.example.test/rest/v1', { dispatcher: agent, check: false, timeoutMs });
      const result = await client.transactions.create(paymentRequest);
      expect(result.status).toBe(201);
      // The mock may ask its matcher more than once per request.
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(new Set(seen)).toEqual(new Set([JSON.stringify(paymentRequest)]));
      agent.assertNoPendingInterceptors();
    } finally {
      await agent.close();
    }
  });
});
