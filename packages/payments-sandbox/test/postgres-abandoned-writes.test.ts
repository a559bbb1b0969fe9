// end-to-end: a real PostgreSQL (the suite's one cluster), two sandboxes on one database, clients that give up.
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { internalsOf } from '../src/sandbox.js';
import type { RequestPhase } from '../src/http/request-phases.js';
import { basic, cardTokenRequest, paymentRequest, phasesOf } from './support.js';
import { databaseOf, postgresTestsRun, sharedPostgres, type SharedPostgres } from './support/postgres.js';

/**
 * A write whose client gives up (the payments client's `timeoutMs`, wrk ending a run, a closed laptop) in PostgreSQL
 * mode, at each point where it may wait: for its turn behind another write of its process, while its body arrives,
 * with the write lock held. Whatever point, it is dropped (nothing done), no session is left holding the lock, and
 * both sandboxes on the database answer the next write. Any valid key must do: the publishable one too.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const keys = { secret: 'sk_abandon_test', publishable: 'pk_abandon_test' };
const options = (stateFile: string) => ({ stateFile, keys: { secret: [keys.secret], publishable: [keys.publishable] } });

let cluster: SharedPostgres;
let url: string;
let a: PaymentsSandbox;
let b: PaymentsSandbox;

async function post(base: string, path: string, body: unknown, key = keys.secret, extra: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: basic(key), accept: 'application/json', 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function token(base: string): Promise<string> {
  const answer = await post(base, '/single-use-tokens', cardTokenRequest(), keys.publishable);
  expect(answer.status).toBe(200);
  return answer.json.singleUseTokenId as string;
}

/** The head of a POST and the first `sent` bytes of its body, from a client that will give up (close the socket). */
function giveUpLater(base: string, path: string, body: unknown, key: string, sent?: number): Socket {
  const { hostname, port, pathname } = new URL(base);
  const text = JSON.stringify(body);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST ${pathname}${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nContent-Type: application/json\r\n` +
      `Authorization: ${basic(key)}\r\nIdempotency-Key: abandoned\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, sent ?? text.length)}`,
  );
  return socket;
}

const sessions = () =>
  cluster.query<{ state: string; locks: number }>(
    'postgres',
    "SELECT a.state, (SELECT count(*) FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)::int AS locks " +
      'FROM pg_stat_activity a WHERE a.datname = $1',
    [databaseOf(url)],
  );

/** Transactions in the database, by order. */
const orders = async () =>
  (await cluster.query<{ value: string }>(databaseOf(url), "SELECT value FROM paykit_sandbox_records WHERE collection = 'transactions' AND value IS NOT NULL"))
    .map((row) => (JSON.parse(row.value) as { metadata?: { orderId?: string } }).metadata?.orderId)
    .sort();

/**
 * After the abandoned write: no session holds the advisory lock or idles in a transaction (the bug left one "idle in
 * transaction" with the lock until PostgreSQL's 60 s timeout), and each sandbox answers a payment. The wall clock is
 * only a verdict window far from both outcomes: the fix answers in milliseconds, the bug in 60 s.
 */
async function bothAnswerTheNextWrite(): Promise<void> {
  await vi.waitFor(
    async () => {
      const now = await sessions();
      expect(now.filter((s) => s.locks > 0 || s.state === 'idle in transaction'), 'sessions holding the lock or a transaction').toEqual([]);
    },
    { timeout: 10_000, interval: 20 },
  );
  const startedAt = performance.now();
  const answers = await Promise.all([a, b].map(async (sandbox, n) => post(sandbox.url, '/transactions', paymentRequest(await token(sandbox.url), 11, { metadata: { orderId: `next-${n}` } }))));
  expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
  expect(performance.now() - startedAt, 'the next writes were not held up (the bug: 60 s)').toBeLessThan(20_000);
  for (const sandbox of [a, b]) expect(internalsOf(sandbox).inFlight.size, 'nothing left in flight').toBe(0);
}

describe.skipIf(!postgresTestsRun)('payments sandbox on PostgreSQL: a write whose client gives up', () => {
  beforeAll(() => {
    cluster = sharedPostgres();
  });
  beforeEach(async () => {
    url = await cluster.createDatabase();
    [a, b] = await Promise.all([startPaymentsSandbox(options(url)), startPaymentsSandbox(options(url))]);
  });
  afterEach(async () => {
    for (const sandbox of [a, b]) phasesOf(sandbox).reset();
    await Promise.all([a.close(), b.close()]);
  });

  it.each([
    { key: 'secret', abandoned: 'a payment' },
    { key: 'publishable', abandoned: 'a token request' },
  ])('queued behind another write of its process ($abandoned, $key key): dropped, never done', async ({ key }) => {
    const [first, second] = [await token(a.url), await token(a.url)];
    const locked = phasesOf(a).hold('locked', (visit) => visit.operationId === 'createTransaction');
    const holding = post(a.url, '/transactions', paymentRequest(first, 10, { metadata: { orderId: 'holding' } }));
    await locked.untilArrived(1);
    // The first write holds the lock; the second is handed to the store behind it, and its client gives up there.
    const queued = phasesOf(a).hold('queued');
    const body = key === 'secret' ? paymentRequest(second, 12, { metadata: { orderId: 'abandoned' } }) : cardTokenRequest();
    const client = giveUpLater(a.url, key === 'secret' ? '/transactions' : '/single-use-tokens', body, key === 'secret' ? keys.secret : keys.publishable);
    await queued.untilArrived(1);
    queued.release();
    client.destroy();
    await vi.waitFor(() => expect(internalsOf(a).inFlight.size, 'the abandoned write left').toBe(1), { timeout: 10_000, interval: 5 });
    locked.release();
    expect((await holding).status).toBe(201);
    await bothAnswerTheNextWrite();
    expect(await orders(), 'the abandoned payment was not made').toEqual(['holding', 'next-0', 'next-1']);
    // Nor was the token (the publishable case): the two tokens made first and the two of the next writes.
    const tokens = await cluster.query(databaseOf(url), "SELECT key FROM paykit_sandbox_records WHERE collection = 'tokens' AND value IS NOT NULL");
    expect(tokens).toHaveLength(4);
  });

  it('while its body arrives: no lock is held meanwhile (the other sandbox writes), and once it gives up nothing is left', async () => {
    const tokenId = await token(a.url);
    const reading = phasesOf(a).hold('body');
    const client = giveUpLater(a.url, '/transactions', paymentRequest(tokenId, 12, { metadata: { orderId: 'abandoned' } }), keys.secret, 20);
    await reading.untilArrived(1);
    reading.release();
    // Its body is still on its way (20 bytes of it sent): the lock is free, and a write through either sandbox is
    // answered meanwhile.
    expect((await sessions()).filter((s) => s.locks > 0)).toEqual([]);
    for (const [n, sandbox] of [a, b].entries()) {
      expect((await post(sandbox.url, '/transactions', paymentRequest(await token(sandbox.url), 11, { metadata: { orderId: `meanwhile-${n}` } }))).status).toBe(201);
    }
    expect(internalsOf(a).inFlight.size, 'the stalled request is still reading its body').toBe(1);
    client.destroy();
    await vi.waitFor(() => expect(internalsOf(a).inFlight.size).toBe(0), { timeout: 10_000, interval: 5 });
    await bothAnswerTheNextWrite();
    expect(await orders()).toEqual(['meanwhile-0', 'meanwhile-1', 'next-0', 'next-1']);
  });

  it('with the write lock held, before its handler ran: dropped, the lock released with its batch', async () => {
    const tokenId = await token(a.url);
    const locked = phasesOf(a).hold('locked');
    const client = giveUpLater(a.url, '/transactions', paymentRequest(tokenId, 12, { metadata: { orderId: 'abandoned' } }), keys.secret);
    await locked.untilArrived(1);
    expect((await sessions()).filter((s) => s.locks > 0), 'the write holds the lock').toHaveLength(1);
    client.destroy();
    await vi.waitFor(() => expect(internalsOf(a).inFlight.size, 'the abandoned write left').toBe(0), { timeout: 10_000, interval: 5 });
    locked.release();
    await bothAnswerTheNextWrite();
    expect(await orders(), 'the abandoned payment was not made').toEqual(['next-0', 'next-1']);
  });

  it.each(['body', 'processing', 'queued', 'locked'] as RequestPhase[])('a payments client call given up at %s (its signal, as its timeoutMs does): the sandboxes answer the next write', async (phase) => {
    const { createSecretClient } = await import('@paykit/payments');
    const tokenId = await token(a.url);
    const hold = phasesOf(a).hold(phase, (visit) => visit.operationId === 'createTransaction');
    const client = createSecretClient({ apiKey: keys.secret, baseUrl: a.url, timeoutMs: 60_000, retry: { maxRetries: 0 } });
    const gaveUp = new AbortController();
    const call = client.transactions.create(paymentRequest(tokenId, 12, { metadata: { orderId: 'abandoned' } }) as never, { signal: gaveUp.signal }).then(
      () => 'answered',
      () => 'gave up',
    );
    await hold.untilArrived(1);
    gaveUp.abort();
    expect(await call).toBe('gave up');
    await vi.waitFor(() => expect(internalsOf(a).inFlight.size).toBe(0), { timeout: 10_000, interval: 5 });
    hold.release();
    await bothAnswerTheNextWrite();
    expect(await orders()).toEqual(['next-0', 'next-1']);
  });
});
