import { fetch as undici7Fetch, Agent as Undici7Agent, MockAgent } from 'undici';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallStop } from '../src/client/call-stop.js';
import { DeadlineQueue } from '../src/client/deadlines.js';
import { stoppableHandler } from '../src/client/stoppable-dispatch.js';
import { failure, secretClient } from './support/fixtures.js';
import { json, startLoopbackServer, type LoopbackServer, type Script } from './support/loopback-server.js';

// On Node's fetch the client keeps a call's deadline (and the caller's signal) through the request's undici
// dispatcher instead of handing fetch an AbortSignal. These tests watch what fetch is given, through a recording
// fetch installed as the global one (a new function, so the client first has to find out whether it honours
// dispatchers), and check that every way of stopping a call still stops the request itself.

const approved = { receiptNumber: '1000000001', status: 'Approved' };
const nodeFetch = globalThis.fetch;

interface SentInit {
  signal: AbortSignal | undefined;
  dispatcher: unknown;
}

let sent: SentInit[] = [];
let server: LoopbackServer | undefined;

/** Installs `fetch` as the global fetch, recording what each call's init carries. */
function installFetch(fetch: (input: string, init: RequestInit) => Promise<Response>): void {
  globalThis.fetch = ((input: string, init: RequestInit & { dispatcher?: unknown }) => {
    sent.push({ signal: init.signal ?? undefined, dispatcher: init.dispatcher });
    return fetch(input, init);
  }) as typeof globalThis.fetch;
}

beforeAll(async () => {
  // Loads Node's undici, which installs its global dispatcher: until then there is nothing to dispatch through.
  await (await nodeFetch('data:,ready')).text();
});

beforeEach(() => {
  sent = [];
  installFetch(nodeFetch);
});

afterEach(async () => {
  globalThis.fetch = nodeFetch;
  await server?.close();
  server = undefined;
});

/** Request 0 is answered at once (it teaches the client about the fetch in use); later ones follow `slow`. */
function afterOneQuickAnswer(slow: Script): Script {
  return (request, res, index) => (index === 0 ? json(res, 200, approved) : slow(request, res, index));
}

/** Records whether the server's answer to each request was cut off by the client closing the connection. */
function cutOff(res: import('node:http').ServerResponse, into: boolean[]): void {
  res.on('close', () => into.push(!res.writableEnded));
}

const neverAnswer: Script = () => undefined;

describe('calls on a fetch that honours dispatchers', () => {
  it('hand fetch no AbortSignal once one call has shown that the dispatcher is used', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const client = secretClient(server.url, { timeoutMs: 5_000 });
    await client.transactions.get('1000000001');
    await client.transactions.get('1000000001');
    expect(sent[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(sent[0]!.dispatcher).toBeDefined();
    expect(sent[1]!.signal).toBeUndefined();
    expect(sent[1]!.dispatcher).toBeDefined();
  });

  it('stop a request waiting for its answer at the deadline, and close its connection', async () => {
    const cut: boolean[] = [];
    server = await startLoopbackServer(afterOneQuickAnswer((_request, res) => cutOff(res, cut)));
    const client = secretClient(server.url, { timeoutMs: 150 });
    await client.transactions.get('1000000001');
    const started = Date.now();
    const error = await failure(client.transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(sent[1]!.signal).toBeUndefined();
    await expect.poll(() => cut).toEqual([true]);
  });

  it('stop a body that arrives too slowly at the deadline', async () => {
    const cut: boolean[] = [];
    server = await startLoopbackServer(
      afterOneQuickAnswer((_request, res) => {
        cutOff(res, cut);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"receiptNumber":');
      }),
    );
    const client = secretClient(server.url, { timeoutMs: 150 });
    await client.transactions.get('1000000001');
    const error = await failure(client.transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(sent[1]!.signal).toBeUndefined();
    await expect.poll(() => cut).toEqual([true]);
  });

  it('stop a request that has not reached a socket yet, and never send it', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const inner = (globalThis as Record<symbol, { dispatch(options: unknown, handler: unknown): boolean }>)[
      Symbol.for('undici.globalDispatcher.1')
    ]!;
    // A dispatcher that holds every request for a second, as a saturated pool or a slow connect would.
    const held = {
      dispatch(options: unknown, handler: unknown): boolean {
        setTimeout(() => inner.dispatch(options, handler), 1_000);
        return true;
      },
    };
    const client = secretClient(server.url, { timeoutMs: 100, dispatcher: held });
    // The first call (signal and dispatcher both) shows the client that fetch sends through the dispatcher.
    expect((await failure(client.transactions.get('1000000001'))).kind).toBe('timeout');
    const started = Date.now();
    const error = await failure(client.transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(700);
    expect(sent[1]!.signal).toBeUndefined();
    // Both requests were failed before undici got to them, and are never written once it does.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(server.requests).toHaveLength(0);
  });

  it("stop on the caller's signal without handing it to fetch", async () => {
    const cut: boolean[] = [];
    server = await startLoopbackServer(afterOneQuickAnswer((_request, res) => cutOff(res, cut)));
    const client = secretClient(server.url, { timeoutMs: 5_000 });
    await client.transactions.get('1000000001');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    const error = await failure(client.transactions.get('1000000001', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(error.cause).toEqual(new Error('caller gave up'));
    expect(sent[1]!.signal).toBeUndefined();
    await expect.poll(() => cut).toEqual([true]);
  });

  it('keep the deadline on the very first call, while both ways are in place', async () => {
    server = await startLoopbackServer(neverAnswer);
    const error = await failure(secretClient(server.url, { timeoutMs: 100 }).transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(sent[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(sent[0]!.dispatcher).toBeDefined();
  });
});

describe('calls on a fetch that ignores dispatchers (a mocking library, say)', () => {
  it('go back to AbortSignals after the first answer, and keep their deadline', async () => {
    installFetch((input, init) => nodeFetch(input, { ...init, dispatcher: undefined } as RequestInit));
    server = await startLoopbackServer(afterOneQuickAnswer(neverAnswer));
    const client = secretClient(server.url, { timeoutMs: 150 });
    await client.transactions.get('1000000001');
    const error = await failure(client.transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    // The first call had both; the second relies on the signal alone.
    expect(sent[1]!.signal).toBeInstanceOf(AbortSignal);
    expect(sent[1]!.dispatcher).toBeUndefined();
  });
});

describe('calls where no undici dispatcher is to be found (another runtime, a future undici)', () => {
  it('use AbortSignals from the start, and keep their deadline', async () => {
    const key = Symbol.for('undici.globalDispatcher.1');
    const globals = globalThis as Record<symbol, unknown>;
    const saved = globals[key];
    const agent = new Undici7Agent();
    // This fetch brings its own dispatcher, so that it still works while undici's global one is hidden.
    installFetch((input, init) => nodeFetch(input, { ...init, dispatcher: agent } as RequestInit));
    server = await startLoopbackServer(afterOneQuickAnswer(neverAnswer));
    globals[key] = undefined;
    try {
      const client = secretClient(server.url, { timeoutMs: 150 });
      await client.transactions.get('1000000001');
      const error = await failure(client.transactions.get('1000000001'));
      expect(error.kind).toBe('timeout');
      for (const init of sent) {
        expect(init.signal).toBeInstanceOf(AbortSignal);
        expect(init.dispatcher).toBeUndefined();
      }
    } finally {
      globals[key] = saved;
      await agent.close();
    }
  });
});

describe("undici 7's fetch as the global fetch (Node 24 bundles undici 7)", () => {
  it.each([
    ['waiting for the answer', neverAnswer],
    [
      'while the body arrives',
      ((_request, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"receiptNumber":');
      }) as Script,
    ],
  ])('keeps the deadline %s, without a signal', async (_phase, slow) => {
    installFetch(undici7Fetch as unknown as (input: string, init: RequestInit) => Promise<Response>);
    server = await startLoopbackServer(afterOneQuickAnswer(slow));
    const client = secretClient(server.url, { timeoutMs: 150, dispatcher: new Undici7Agent() });
    await client.transactions.get('1000000001');
    const error = await failure(client.transactions.get('1000000001'));
    expect(error.kind).toBe('timeout');
    expect(sent[1]!.signal).toBeUndefined();
  });
});

describe("undici's MockAgent as the caller's dispatcher (merchants' own tests)", () => {
  it.each([
    ["Node's fetch", nodeFetch],
    ["undici 7's fetch", undici7Fetch as unknown as typeof nodeFetch],
  ])('still matches request bodies on %s, whether or not the call also carries a signal', async (_name, fetch) => {
    installFetch(fetch as (input: string, init: RequestInit) => Promise<Response>);
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: string[] = [];
    agent
      .get('https://api.example.test')
      .intercept({
        path: '/rest/v1/transactions',
        method: 'POST',
        // A MockAgent hands its matchers the body as the request gave it: a string here, not a stream.
        body: (body) => (seen.push(typeof body), typeof body === 'string' && body.includes('"PAYMENT"')),
      })
      .reply(201, approved)
      .times(2);
    const client = secretClient('https://api.example.test/rest/v1', { dispatcher: agent, check: false });
    for (let i = 0; i < 2; i++) {
      const result = await client.transactions.create({ transactionType: 'PAYMENT' } as never);
      expect(result.status).toBe(201);
    }
    // The mock may ask its matcher more than once per request.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set(['string']));
    expect(sent[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(sent[1]!.signal).toBeUndefined();
    await agent.close();
  });
});

describe("undici 7's controller-based handlers", () => {
  /** A handler in undici 7's newer interface, recording what it is told. */
  function controllerHandler() {
    const heard: string[] = [];
    let failed: (error: Error) => void = () => undefined;
    const failedWith = new Promise<Error>((resolve) => (failed = resolve));
    return {
      heard,
      failedWith,
      handler: {
        onRequestStart: () => void heard.push('start'),
        onResponseStart: (_controller: unknown, status: number) => void heard.push(`status ${status}`),
        onResponseData: () => void heard.push('data'),
        onResponseEnd: () => void heard.push('end'),
        onResponseError: (_controller: unknown, error: Error) => {
          heard.push('error');
          failed(error);
        },
      },
    };
  }

  it('are stopped at the deadline once their request has started', async () => {
    const cut: boolean[] = [];
    server = await startLoopbackServer((_request, res) => cutOff(res, cut));
    const { origin } = new URL(server.url);
    const stop = new CallStop(new DeadlineQueue(100), undefined, 'dispatcher', new Undici7Agent(), stoppableHandler);
    const { heard, handler, failedWith } = controllerHandler();
    stop.dispatch({ origin, path: '/rest/v1/transactions/1', method: 'GET', headers: {} }, handler);
    const error = await failedWith;
    stop.release();
    expect(error.name).toBe('TimeoutError');
    expect(heard).toEqual(['start', 'error']);
    await expect.poll(() => cut).toEqual([true]);
  });

  it('hear of the failure once, at once, when stopped before their request starts', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, approved));
    const { origin } = new URL(server.url);
    const controller = new AbortController();
    const stop = new CallStop(undefined, controller.signal, 'dispatcher', new Undici7Agent(), stoppableHandler);
    const { heard, handler, failedWith } = controllerHandler();
    stop.dispatch({ origin, path: '/rest/v1/transactions/1', method: 'GET', headers: {} }, handler);
    controller.abort(new Error('caller gave up'));
    expect((await failedWith).message).toBe('caller gave up');
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop.release();
    expect(heard).toEqual(['error']);
  });
});
