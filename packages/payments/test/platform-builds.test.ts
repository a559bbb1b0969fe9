import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Publishable from '../src/publishable.js';
import { importedSource, measureBundle } from './support/bundle-size.js';

// package.json's `imports` give `#platform` as src/platform/web.ts to a bundler for a browser or a worker and as
// src/platform/node.ts to Node (Bun and Deno too). The two builds of the publishable entry, bundled and minified as the
// size budget measures them, answer one table of calls: the same wherever a browser can meet the case, and apart
// only in the Node-only cases the web build leaves out (the last table, which also shows that the comparison can fail).

type Entry = typeof Publishable;
const builds: Partial<Record<'node' | 'web', Entry>> = {};
const folder = mkdtempSync(join(tmpdir(), 'paykit-platform-builds-'));

beforeAll(async () => {
  const entry = fileURLToPath(new URL('../src/publishable.ts', import.meta.url));
  for (const [name, platform] of [['node', 'node'], ['web', 'browser']] as const) {
    const file = join(folder, `${name}.mjs`);
    writeFileSync(file, (await measureBundle(entry, platform)).code);
    builds[name] = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Entry;
  }
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const baseUrl = 'https://api.example.test/rest/v1';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
/** A fetch that answers the n-th request with the n-th answer (the last one for any beyond). */
const answers =
  (...list: Array<() => Response | Promise<Response>>) =>
  (calls: number) =>
    list[Math.min(calls, list.length - 1)]!();
const networkFailure = (cause?: unknown) => Promise.reject(new TypeError('fetch failed', { cause }));
const token = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2030 };

interface Row {
  case: string;
  answer: (calls: number, request: Request, second: unknown) => Response | Promise<Response>;
  call: (client: Publishable.PublishableClient) => Promise<unknown>;
  /** A deadline, run on fake timers: the call's promise is awaited once they have moved past it. */
  timeoutMs?: number;
}

/** What a caller can see of a call: its result or its error (times of day left out), the requests it sent, in order. */
async function outcome(entry: Entry, row: Row) {
  const sent: string[] = [];
  let calls = 0;
  const client = entry.createPublishableClient({
    apiKey: 'pk_test_key',
    baseUrl,
    // No wait between attempts (no timer): a resend follows its failure at once.
    retry: { delayMs: 0 },
    timeoutMs: row.timeoutMs ?? 10_000,
    dispatcher: { name: 'an undici Agent' },
    fetch: (request: Request, second?: unknown) => {
      sent.push(`${request.method} ${request.url} ${request.headers.get('idempotency-key') ?? ''}`);
      return Promise.resolve(row.answer(calls++, request, second));
    },
  });
  try {
    const pending = row.call(client);
    // It may fail while the timers move, before it is awaited below: handled there, not unhandled here.
    pending.catch(() => undefined);
    if (row.timeoutMs) await vi.advanceTimersByTimeAsync(row.timeoutMs);
    const { data, status, attempts, idempotencyKey } = (await pending) as Publishable.ApiResult<unknown>;
    return { result: { data, status, attempts, idempotencyKey }, sent };
  } catch (error) {
    const { occurredAt, resendUntil, ...rest } = entry.isPaymentsError(error) ? error.toJSON() : { error: String(error) };
    return { error: { ...rest, resendUntil: resendUntil === undefined ? undefined : 'set' }, sent, occurredAt: typeof occurredAt };
  }
}

const code = 'BIZ1';
const sameEverywhere: Row[] = [
  { case: '200 with a list', answer: answers(() => json(200, { data: [{ cardType: 'VISA' }] })), call: (c) => c.businesses.listAcceptedCards(code) },
  { case: 'POST answered 201', answer: answers(() => json(201, { token: 't1' })), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-1' }) },
  { case: '200 text/html where JSON belongs', answer: answers(() => new Response('<html>down</html>', { headers: { 'content-type': 'text/html' } })), call: (c) => c.businesses.listCardSurcharges(code) },
  { case: '400 with field errors', answer: answers(() => json(400, { errors: [{ field: 'cardNumber', message: 'invalid' }] })), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-2' }) },
  { case: '503, then 200', answer: answers(() => json(503, {}), () => json(200, { data: [] })), call: (c) => c.businesses.listAcceptedCards(code) },
  { case: '429 on every attempt of a POST', answer: answers(() => json(429, {}, { 'retry-after': '0' })), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-3' }) },
  { case: 'fetch fails on a GET, then 200', answer: answers(() => networkFailure() as never, () => json(200, { data: [] })), call: (c) => c.businesses.listAcceptedCards(code) },
  { case: 'fetch fails on every attempt of a POST', answer: answers(() => networkFailure() as never), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-4' }) },
  { case: 'a body broken off', answer: answers(() => new Response(new ReadableStream({ pull: (c) => c.error(new TypeError('terminated')) }), { headers: { 'content-type': 'application/json' } })), call: (c) => c.businesses.listAcceptedCards(code) },
  { case: '307 to another host', answer: answers(() => new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/x' } })), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-5' }) },
  { case: 'the deadline passes', answer: () => new Promise<Response>(() => {}), timeoutMs: 20, call: (c) => c.businesses.listAcceptedCards(code) },
  { case: 'a signal aborted before the call', answer: answers(() => json(200, {})), call: (c) => c.businesses.listAcceptedCards(code, { signal: AbortSignal.abort(new Error('left the page')) }) },
  { case: "'..' as a path parameter", answer: answers(() => json(200, {})), call: (c) => c.businesses.listAcceptedCards('..') },
  { case: 'an idempotency key of the wrong form', answer: answers(() => json(201, {})), call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'x'.repeat(500) }) },
];

describe('the web build of the publishable entry answers like the Node build', () => {
  it.each(sameEverywhere)('$case', async (row) => {
    if (row.timeoutMs) vi.useFakeTimers();
    const node = await outcome(builds.node!, row);
    expect(node.sent.length + Number('error' in node)).toBeGreaterThan(0);
    expect(await outcome(builds.web!, row)).toEqual(node);
  });

  it("ends every call that shares an aborted signal (Node's build follows it with one listener, the web build with one per call)", async () => {
    const outcomes = [];
    for (const entry of [builds.node!, builds.web!]) {
      const controller = new AbortController();
      let started = 0;
      let allStarted!: () => void;
      const started12 = new Promise<void>((resolve) => (allStarted = resolve));
      const client = entry.createPublishableClient({
        apiKey: 'pk_test_key',
        baseUrl,
        fetch: (request: Request) =>
          new Promise<Response>((_, reject) => {
            if (++started === 12) allStarted();
            request.signal.addEventListener('abort', () => reject(request.signal.reason));
          }),
      });
      const calls = Array.from({ length: 12 }, () => client.businesses.listAcceptedCards(code, { signal: controller.signal }).catch((error: Error) => error));
      await started12;
      controller.abort(new Error('left the page'));
      const errors = (await Promise.all(calls)) as Publishable.AnyPaymentsError[];
      outcomes.push(errors.map((error) => [error.kind, error.attempts, (error.cause as Error).message]));
    }
    expect(outcomes[0]).toEqual(Array(12).fill(['aborted', 1, 'left the page']));
    expect(outcomes[1]).toEqual(outcomes[0]);
  });

  it('prints a client the same way as text and as JSON', () => {
    const [node, web] = [builds.node!, builds.web!].map((entry) => entry.createPublishableClient({ apiKey: 'pk_test_key', baseUrl }));
    expect([String(web), JSON.stringify(web)]).toEqual([String(node), JSON.stringify(node)]);
    expect(String(node)).toBe(`PublishablePaymentsClient(${baseUrl})`);
  });
});

describe('what the web build leaves out: cases only Node can meet', () => {
  it.each([
    {
      case: "Node's code for a refused connection (nothing was sent)",
      answer: () => networkFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
      node: { kind: 'network', mustQueryState: false },
      web: { kind: 'network', mustQueryState: true },
    },
    {
      case: "undici's ProxyAgent refusing its tunnel",
      answer: () => networkFailure(new Error('Proxy response (407) !== 200 when HTTP Tunneling')),
      node: { kind: 'proxyRefused', status: 407, attempts: 1 },
      web: { kind: 'network', attempts: 3 },
    },
  ])('$case', async ({ answer, node, web }) => {
    const row: Row = { case: '', answer: answer as Row['answer'], call: (c) => c.singleUseTokens.create(token as never, { idempotencyKey: 'k-6' }) };
    expect((await outcome(builds.node!, row)).error).toMatchObject(node);
    expect((await outcome(builds.web!, row)).error).toMatchObject(web);
  });

  it("hands a custom fetch undici's dispatcher, and util.inspect prints a client by its address, under Node only", async () => {
    const seen: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(builds)) {
      const row: Row = { case: '', answer: (_, __, second) => ((seen[name] = second), json(200, { data: [] })), call: (c) => c.businesses.listAcceptedCards(code) };
      await outcome(entry, row);
    }
    expect(seen).toEqual({ node: { dispatcher: { name: 'an undici Agent' } }, web: undefined });
    const [node, web] = [builds.node!, builds.web!].map((entry) => inspect(entry.createPublishableClient({ apiKey: 'pk_test_key', baseUrl })));
    expect(node).toBe(`PublishablePaymentsClient(${baseUrl})`);
    expect(web).not.toBe(node);
  });
});

describe("package.json's imports", () => {
  it.each([
    { conditions: ['browser', 'import', 'default'], source: 'web.ts' },
    { conditions: ['worker', 'import', 'default'], source: 'web.ts' },
    { conditions: ['workerd', 'worker', 'browser', 'import', 'default'], source: 'web.ts' },
    { conditions: ['node', 'import', 'default'], source: 'node.ts' },
    { conditions: ['deno', 'node', 'import', 'default'], source: 'node.ts' },
    { conditions: ['bun', 'node', 'import', 'default'], source: 'node.ts' },
  ])('give #platform as $source under $conditions', ({ conditions, source }) => {
    expect(importedSource('#platform', conditions)).toBe(fileURLToPath(new URL(`../src/platform/${source}`, import.meta.url)));
  });
});
