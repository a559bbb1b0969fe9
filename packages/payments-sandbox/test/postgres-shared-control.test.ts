// end-to-end: a real PostgreSQL (the suite's one cluster) and two sandboxes on one database.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../src/handler-context.js';
import { startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { basic, cardTokenRequest, paymentRequest, phasesOf } from './support.js';
import { databaseOf, postgresTestsRun, sharedPostgres, type SharedPostgres } from './support/postgres.js';

/**
 * Behind one address, one sandbox: what the control interface changes through one process (settings, faults, a
 * reset, the processing delay) is what every process on the database does, and a simulated processing delay holds
 * no lock that would slow the others.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const keys = { secret: 'sk_shared_test', publishable: 'pk_shared_test' };
let cluster: SharedPostgres;
let url: string;
let a: PaymentsSandbox;
let b: PaymentsSandbox;

async function post(base: string, path: string, body: unknown, key = keys.secret, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: basic(key), accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function pay(base: string, order: string): Promise<number> {
  const token = await post(base, '/single-use-tokens', cardTokenRequest(), keys.publishable);
  expect(token.status).toBe(200);
  return (await post(base, '/transactions', paymentRequest(token.json.singleUseTokenId, 10, { metadata: { orderId: order } }))).status;
}

describe.skipIf(!postgresTestsRun)('payments sandbox on PostgreSQL: the control interface across processes', () => {
  beforeAll(() => {
    cluster = sharedPostgres();
  });
  beforeEach(async () => {
    url = await cluster.createDatabase();
    const options = { stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } };
    [a, b] = await Promise.all([startPaymentsSandbox(options), startPaymentsSandbox(options)]);
  });
  afterEach(async () => {
    for (const sandbox of [a, b]) phasesOf(sandbox).reset();
    await Promise.all([a.close(), b.close()]);
  });

  it('settings changed through one are what the other reports and uses', async () => {
    const changed = await a.control.changeSettings({ pendingSettlesAfterMs: 123_456, webhookRetryDelaysMs: [7, 8] });
    expect(await b.control.getSettings()).toEqual(changed);
    expect(changed).toMatchObject({ pendingSettlesAfterMs: 123_456, webhookRetryDelaysMs: [7, 8], aliasRegistrationDelayMs: defaultSettings.aliasRegistrationDelayMs });
    // B schedules a pending payment's settlement with A's setting.
    const token = await post(b.url, '/single-use-tokens', cardTokenRequest(), keys.publishable);
    const pending = await post(b.url, '/transactions', paymentRequest(token.json.singleUseTokenId, 30.52));
    expect(pending.status).toBe(202);
    const tasks = await cluster.query<{ value: string }>(databaseOf(url), "SELECT value FROM paykit_sandbox_records WHERE collection = 'tasks' AND value IS NOT NULL");
    const settle = tasks.map((row) => JSON.parse(row.value) as { kind: string; dueAt: number }).find((task) => task.kind === 'transaction.settle');
    expect(settle!.dueAt - Date.parse(pending.json.transactionTime)).toBeGreaterThanOrEqual(123_456 - 1_000);
  });

  it('a fault injected through one applies to the next matching request either gets, once', async () => {
    await a.control.injectFault({ fault: { status: 503 }, count: 1, operationId: 'createTransaction' });
    expect((await b.control.getFaults()).pending).toEqual([{ fault: { status: 503 }, count: 1, operationId: 'createTransaction' }]);
    expect(await pay(b.url, 'order-1'), 'the fault, through the other process').toBe(503);
    expect(await pay(a.url, 'order-2'), 'applied once').toBe(201);
    expect(await pay(b.url, 'order-3')).toBe(201);
    for (const sandbox of [a, b]) expect(await sandbox.control.getFaults()).toEqual({ pending: [], applied: { '503 before': 1 } });
  });

  it('a fault injected through one is taken by the very next write through the other, which read nothing before it, and once by the two of them at once', async () => {
    // The tokens first: afterwards B does nothing between A's injection and its payment (no read that would catch up).
    const tokens = [];
    for (const base of [b.url, b.url, a.url]) tokens.push((await post(base, '/single-use-tokens', cardTokenRequest(), keys.publishable)).json.singleUseTokenId as string);
    await a.control.injectFault({ fault: { status: 503 }, count: 1, operationId: 'createTransaction' });
    const first = await post(b.url, '/transactions', paymentRequest(tokens[0]!, 10, { metadata: { orderId: 'first' } }));
    expect(first.status, "B's next payment gets A's fault").toBe(503);
    expect((await a.control.getFaults()).pending, 'taken').toEqual([]);
    // Once only, when both processes pay at the same moment.
    await b.control.injectFault({ fault: { status: 503 }, count: 1, operationId: 'createTransaction' });
    const both = await Promise.all([post(a.url, '/transactions', paymentRequest(tokens[2]!, 10)), post(b.url, '/transactions', paymentRequest(tokens[1]!, 10))]);
    expect(both.map((answer) => answer.status).sort()).toEqual([201, 503]);
    for (const sandbox of [a, b]) expect(await sandbox.control.getFaults()).toEqual({ pending: [], applied: { '503 before': 2 } });
  });

  it('a resend with the same Idempotency-Key through the other process is answered as a replay of the first answer, which it had not read before', async () => {
    const token = (await post(a.url, '/single-use-tokens', cardTokenRequest(), keys.publishable)).json.singleUseTokenId as string;
    const request = paymentRequest(token, 10, { metadata: { orderId: 'resent' } });
    const original = await post(a.url, '/transactions', request, keys.secret, { 'Idempotency-Key': 'resent-through-b' });
    expect(original.status).toBe(201);
    const resend = await post(b.url, '/transactions', request, keys.secret, { 'Idempotency-Key': 'resent-through-b' });
    expect(resend).toEqual(original);
    const payments = await cluster.query<{ n: number }>(databaseOf(url), "SELECT count(*)::int AS n FROM paykit_sandbox_records WHERE collection = 'transactions' AND value IS NOT NULL");
    expect(payments[0]!.n, 'one payment').toBe(1);
  });

  it('a resend through the other process while it knows of a processing delay is answered only once the log is durable past the record it replays', async () => {
    // With a delay set through B, B reads before deciding (not in its write's batch); the record it replays is A's,
    // which A committed without waiting for the disk. B must not answer before a flush of its own covers it: it
    // writes the record again, so the record's change number moves to one of B's.
    phasesOf(a).timer = async () => {};
    phasesOf(b).timer = async () => {};
    await b.control.changeSettings({ processingDelayMs: 5_000 });
    const token = (await post(a.url, '/single-use-tokens', cardTokenRequest(), keys.publishable)).json.singleUseTokenId as string;
    const request = paymentRequest(token, 10, { metadata: { orderId: 'replayed-durably' } });
    const original = await post(a.url, '/transactions', request, keys.secret, { 'Idempotency-Key': 'replayed-durably' });
    expect(original.status).toBe(201);
    const changeOfRecord = async () =>
      (await cluster.query<{ change: string }>(databaseOf(url), "SELECT change::text FROM paykit_sandbox_records WHERE collection = 'idempotency' AND key LIKE '% replayed-durably'"))[0]!.change;
    const written = Number(await changeOfRecord());
    const resend = await post(b.url, '/transactions', request, keys.secret, { 'Idempotency-Key': 'replayed-durably' });
    expect(resend).toEqual(original);
    expect(Number(await changeOfRecord()), 'B wrote the record again before answering').toBeGreaterThan(written);
  });

  it('random faults drawn across both follow one seeded sequence, and clearing them through one clears them for both', async () => {
    await a.control.setRandomFaults({ faults: [{ fault: { status: 503 }, probability: 0.5 }], seed: 5, operationIds: ['listTransactions'] });
    const list = (base: string) => fetch(`${base}/transactions`, { headers: { authorization: basic(keys.secret), accept: 'application/json' } }).then((r) => r.status);
    // The same seed through one process gives the same statuses, taken in turn from both: one sequence.
    const acrossBoth = [];
    for (let n = 0; n < 8; n++) acrossBoth.push(await list(n % 2 ? a.url : b.url));
    await a.control.setRandomFaults({ faults: [{ fault: { status: 503 }, probability: 0.5 }], seed: 5, operationIds: ['listTransactions'] });
    const throughOne = [];
    for (let n = 0; n < 8; n++) throughOne.push(await list(a.url));
    expect(acrossBoth).toEqual(throughOne);
    expect(new Set(throughOne)).toEqual(new Set([200, 503]));
    await b.control.clearRandomFaults();
    expect([await list(a.url), await list(b.url)]).toEqual([200, 200]);
    expect((await a.control.getFaults()).applied).toEqual({ '503 before': 2 * throughOne.filter((status) => status === 503).length });
  });

  it('a reset through one forgets what was changed through the other: faults, settings, records, the clock', async () => {
    await a.control.injectFault({ fault: { status: 503 }, count: 5 });
    await a.control.changeSettings({ processingDelayMs: 60_000, aliasRegistrationDelayMs: 1 });
    await a.control.advanceClock({ ms: 60_000 });
    await b.control.resetSandbox();
    const after = await a.control.getFaults();
    expect(after).toEqual({ pending: [], applied: {} });
    expect(await a.control.getSettings()).toEqual(defaultSettings);
    expect((await a.control.getClock()).offsetMs).toBe(0);
    // No delay and no fault left for A's next request (a delay of 60 s would hold this test well past its budget).
    expect(await pay(a.url, 'after-reset')).toBe(201);
  });

  it('the processing delay set through one holds requests on both, and holds no lock: the other process writes meanwhile', async () => {
    const waits: { on: string; ms: number }[] = [];
    let releaseA!: () => void;
    const aHeld = new Promise<void>((resolve) => {
      phasesOf(a).timer = (ms) => (waits.push({ on: 'a', ms }), resolve(), new Promise<void>((done) => (releaseA = done)));
    });
    phasesOf(b).timer = async (ms) => void waits.push({ on: 'b', ms });
    await b.control.changeSettings({ processingDelayMs: 5_000 });
    const token = await post(b.url, '/single-use-tokens', cardTokenRequest(), keys.publishable);
    waits.length = 0;
    const slow = post(a.url, '/transactions', paymentRequest(token.json.singleUseTokenId, 10, { metadata: { orderId: 'slow' } }));
    await aHeld;
    // A's payment is in its processing delay: no session holds the write lock, and B pays meanwhile.
    const locks = await cluster.query<{ n: number }>('postgres', "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted");
    expect(locks[0]!.n).toBe(0);
    expect(await pay(b.url, 'meanwhile')).toBe(201);
    expect(waits).toEqual([
      { on: 'a', ms: 5_000 },
      { on: 'b', ms: 5_000 },
      { on: 'b', ms: 5_000 },
    ]);
    releaseA();
    expect((await slow).status).toBe(201);
  });
});
