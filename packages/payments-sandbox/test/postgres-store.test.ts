// end-to-end: a real PostgreSQL (the suite's one cluster) and sandbox processes, some killed with SIGKILL.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { storeOf } from '../src/sandbox.js';
import { StateStoreError } from '../src/state/store.js';
import { openPostgresStore, redactUrl } from '../src/state/postgres-store.js';
import { basic, cardTokenRequest, paymentRequest, phasesOf } from './support.js';
import { databaseOf, postgresTestsRun, sharedPostgres, type SharedPostgres } from './support/postgres.js';
import { startSandboxProcess, type SandboxProcess } from './support/state-process.js';

/**
 * `--state postgres://…` against a real PostgreSQL (Debian's package, started once for the suite). Without it the
 * tests are skipped on a developer's machine, and fail under `CI=true` (`.ci/run` installs it).
 */

const keys = { secret: 'sk_pg_test', publishable: 'pk_pg_test' };
const headers = { authorization: basic(keys.secret), accept: 'application/json', 'content-type': 'application/json' };

let cluster: SharedPostgres;
/** A database of its own for each test. */
const database = () => cluster.createDatabase();

async function post(url: string, path: string, body: unknown, extra: Record<string, string>): Promise<{ status: number; json: any } | undefined> {
  try {
    const response = await fetch(url + path, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  } catch {
    return undefined; // no answer (the process was killed)
  }
}

async function token(url: string): Promise<string> {
  const answer = await post(url, '/single-use-tokens', cardTokenRequest(), { authorization: basic(keys.publishable) });
  expect(answer?.status).toBe(200);
  return answer!.json.singleUseTokenId as string;
}

/** Pays an order under its own Idempotency-Key; the receipt number when the answer says the payment was made. */
async function pay(url: string, order: string): Promise<string | undefined> {
  const answer = await post(url, '/transactions', paymentRequest(await token(url), 12.5, { metadata: { orderId: order } }), { 'Idempotency-Key': order });
  return answer && (answer.status === 201 || answer.status === 202) ? String(answer.json.receiptNumber) : undefined;
}

async function getTransaction(url: string, receipt: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/transactions/${receipt}`, { headers });
  return { status: response.status, json: await response.json() };
}

/** No part of the address: user, host and port, database, password. */
function expectNothingOfTheAddress(text: string, url: string): void {
  const address = new URL(url);
  for (const part of [address.username, address.host, address.port, databaseOf(url)]) expect(text).not.toContain(part);
  expectNoPassword(text);
}

/** Neither spelling of the cluster's password (as given, as encoded in the address). */
function expectNoPassword(text: string): void {
  expect(text).not.toContain(cluster.password);
  expect(text).not.toContain(encodeURIComponent(cluster.password));
}

const rowsOf = (url: string, collection: string) =>
  cluster.query<{ key: string; value: string }>(databaseOf(url), 'SELECT key, value FROM paykit_sandbox_records WHERE collection = $1 AND value IS NOT NULL', [collection]);

describe.skipIf(!postgresTestsRun)('payments sandbox: --state postgres://… (real PostgreSQL)', () => {
  beforeAll(() => {
    cluster = sharedPostgres();
  });

  it('keeps payments, the clock and idempotency records across a restart, and names the database without its password', async () => {
    const url = await database();
    const first = await startPaymentsSandbox({ stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    let receipt: string | undefined;
    try {
      expect(first.stateFile).toBe(redactUrl(url));
      expect(first.stateFile).toContain('paykit:***@127.0.0.1');
      expectNoPassword(first.stateFile!);
      receipt = await pay(first.url, 'order-1');
      expect(receipt).toBeDefined();
      await first.control.advanceClock({ ms: 3_600_000 });
    } finally {
      await first.close();
    }
    expect(existsSync('postgres:'), 'an address is not taken for a file name').toBe(false);

    const second = await startPaymentsSandbox({ stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    try {
      const read = await getTransaction(second.url, receipt!);
      expect(read.status).toBe(200);
      expect(read.json.metadata).toEqual({ orderId: 'order-1' });
      expect((await second.control.getClock()).offsetMs).toBeGreaterThanOrEqual(3_600_000);
      // The resend after the restart replays the payment; a new order gets a new number.
      expect(await pay(second.url, 'order-1')).toBe(receipt);
      const fresh = await pay(second.url, 'order-2');
      expect(fresh).toBeDefined();
      expect(fresh).not.toBe(receipt);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('two sandbox processes on one database: concurrent payments all kept, each seen by both, no number twice, one payment per Idempotency-Key; a killed process loses nothing it acknowledged', async () => {
    const url = await database();
    const processes: SandboxProcess[] = [await startSandboxProcess(url, keys), await startSandboxProcess(url, keys)];
    const [a, b] = processes as [SandboxProcess, SandboxProcess];
    try {
      const perProcess = 30;
      const workers = 4;
      // Each process takes its own orders, with several requests in flight at once on both.
      const payAll = async (sandbox: SandboxProcess, prefix: string) => {
        const receipts = new Map<string, string>();
        let next = 0;
        await Promise.all(
          Array.from({ length: workers }, async () => {
            while (next < perProcess) {
              const order = `${prefix}-${next++}`;
              const receipt = await pay(sandbox.url, order);
              expect(receipt, `${order} paid`).toBeDefined();
              receipts.set(order, receipt!);
            }
          }),
        );
        return receipts;
      };
      // And the same orders sent to both processes at once, as a client that fails over would: one payment each.
      // Four races at a time: with the workers, each process has at most 8 requests in flight (the reference's
      // limit is 10; a request waiting for the write lock is in flight too).
      const raced = Array.from({ length: 10 }, (_, n) => `raced-${n}`);
      const inTurn = async <T,>(items: string[], width: number, each: (item: string) => Promise<T>) => {
        const results: T[] = [];
        for (let at = 0; at < items.length; at += width) results.push(...(await Promise.all(items.slice(at, at + width).map(each))));
        return results;
      };
      const [fromA, fromB, races] = await Promise.all([
        payAll(a, 'a'),
        payAll(b, 'b'),
        inTurn(
          raced,
          4,
          async (order) => {
            const [tokenA, tokenB] = await Promise.all([token(a.url), token(b.url)]);
            const body = (tokenId: string) => paymentRequest(tokenId, 20, { metadata: { orderId: order } });
            const answers = await Promise.all([
              post(a.url, '/transactions', body(tokenA), { 'Idempotency-Key': order }),
              post(b.url, '/transactions', body(tokenB), { 'Idempotency-Key': order }),
            ]);
            const receipts = answers.filter((answer) => answer?.status === 201 || answer?.status === 202).map((answer) => String(answer!.json.receiptNumber));
            return { order, receipts, statuses: answers.map((answer) => answer?.status) };
          },
        ),
      ]);

      const all = new Map([...fromA, ...fromB]);
      for (const race of races) {
        // The second of the two is a replay of the first (or 429 while the first was still being processed).
        expect(race.receipts.length, `${race.order}: ${race.statuses.join(', ')}`).toBeGreaterThanOrEqual(1);
        expect(new Set(race.receipts).size, `${race.order} paid once`).toBe(1);
        all.set(race.order, race.receipts[0]!);
      }
      expect(new Set(all.values()).size, 'no receipt number handed out twice').toBe(all.size);
      for (const sandbox of processes) {
        for (const [order, receipt] of all) {
          const read = await getTransaction(sandbox.url, receipt);
          expect(read.json.metadata, `${order} seen by ${sandbox.url}`).toEqual({ orderId: order });
        }
      }
      const stored = await rowsOf(url, 'transactions');
      expect(stored, 'one transaction per order, none lost, none doubled').toHaveLength(all.size);
      expect(new Set(stored.map((row) => (JSON.parse(row.value) as { metadata: { orderId: string } }).metadata.orderId)).size).toBe(all.size);

      // Process A is killed while both are paying (once it has acknowledged 3 payments, while its client keeps
      // paying): whatever either acknowledged is in the database and seen by B.
      const acknowledged = new Map<string, string>();
      let killed!: () => void;
      const killing = new Promise<void>((resolve) => (killed = resolve));
      let unanswered = 0;
      const payingA = (async () => {
        for (let n = 0; ; n++) {
          const order = `kill-a-${n}`;
          const receipt = await pay(a.url, order).catch(() => undefined);
          if (receipt === undefined) return void (unanswered += 1); // the process is gone
          acknowledged.set(order, receipt);
          if (n === 2) void a.stop('SIGKILL').then(killed);
        }
      })();
      const payingB = (async () => {
        for (let n = 0; n < 20; n++) {
          const order = `kill-b-${n}`;
          const receipt = await pay(b.url, order);
          expect(receipt, `${order} paid by the process left`).toBeDefined();
          acknowledged.set(order, receipt!);
        }
      })();
      await Promise.all([payingA, payingB, killing]);
      expect(await a.exited).toBe('SIGKILL');
      expect(unanswered, 'A was killed while its client was paying').toBe(1);
      for (const [order, receipt] of acknowledged) expect((await getTransaction(b.url, receipt)).json.metadata, order).toEqual({ orderId: order });
    } finally {
      await Promise.all(processes.map((sandbox) => sandbox.stop()));
    }
  }, 60_000);

  it('a reset, the clock and webhook subscriptions changed through one sandbox are what another one on the database sees', async () => {
    const url = await database();
    const options = { stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } };
    const [a, b] = await Promise.all([startPaymentsSandbox(options), startPaymentsSandbox(options)]);
    try {
      const receipt = await pay(a.url, 'order-1');
      expect((await getTransaction(b.url, receipt!)).status).toBe(200);
      await a.control.advanceClock({ ms: 7_200_000 });
      await a.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec', eventTypes: ['alias.payment.received'] });
      expect((await b.control.getClock()).offsetMs).toBeGreaterThanOrEqual(7_200_000);
      expect(await b.control.listWebhookSubscriptions()).toHaveLength(1);
      await b.control.resetSandbox();
      expect((await getTransaction(a.url, receipt!)).status, 'gone for the other sandbox too').toBe(404);
      expect(await a.control.listWebhookSubscriptions()).toHaveLength(0);
      expect((await a.control.getClock()).offsetMs).toBe(0);
      // The number sequence goes on after a reset: the next payment, through either, has a new number.
      const next = await pay(a.url, 'order-2');
      expect(Number(next)).toBeGreaterThan(Number(receipt));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 30_000);

  // The token's write is the first, the payment's the second: the process kills itself at that step of the payment.
  it.each([
    { step: 'commit:before', committed: false },
    { step: 'commit:after', committed: true },
  ])('killed at $step of a payment: the resend after a restart is paid once, and no receipt number is reused', async ({ step, committed }) => {
    const url = await database();
    const crashing = await startSandboxProcess(url, keys, { PAYKIT_SANDBOX_CRASH_AT: `${step}@2` });
    expect(await pay(crashing.url, 'order-1'), 'no answer: the process died first').toBeUndefined();
    expect(await crashing.exited).toBe('SIGKILL');
    const stored = (await rowsOf(url, 'transactions')).map((row) => row.key);
    expect(stored).toHaveLength(committed ? 1 : 0);

    const restarted = await startSandboxProcess(url, keys);
    try {
      const fresh = await pay(restarted.url, 'order-2');
      const resent = await pay(restarted.url, 'order-1');
      expect(fresh).toBeDefined();
      expect(resent).toBeDefined();
      expect(fresh).not.toBe(resent);
      // Committed before the kill: the resend replays that payment under its number.
      if (committed) expect(resent).toBe(stored[0]);
    } finally {
      await restarted.stop();
    }
    const orders = (await rowsOf(url, 'transactions')).map((row) => (JSON.parse(row.value) as { metadata: { orderId: string } }).metadata.orderId);
    expect(orders.sort()).toEqual(['order-1', 'order-2']);
  }, 30_000);

  it("the clock's scheduled work runs once across sandboxes: each alias registration completes once, each webhook is delivered once", async () => {
    const url = await database();
    const received: string[] = [];
    const aliasCount = 8;
    let allReceived!: () => void;
    const everyAlias = new Promise<void>((resolve) => (allReceived = resolve));
    const endpoint = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end();
        if (received.length === aliasCount) allReceived();
      });
    });
    endpoint.listen(0, '127.0.0.1');
    await once(endpoint, 'listening');
    // Real timers on purpose: both sandboxes' timers fire at the same moments, and each task must still run once.
    const options = { stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] }, settings: { aliasRegistrationDelayMs: 50 } };
    const [a, b] = await Promise.all([startPaymentsSandbox(options), startPaymentsSandbox(options)]);
    try {
      await a.control.createWebhookSubscription({ url: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks`, secret: 'whsec', eventTypes: ['alias.registered'] });
      const aliases = await Promise.all(
        Array.from({ length: aliasCount }, async (_, n) => {
          const answer = await post(n % 2 ? a.url : b.url, '/aliases', { aliasAddress: `alias-${n}@pay.example.com`, type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }, { 'Idempotency-Key': `alias-${n}` });
          expect(answer?.status).toBe(201);
          return String(answer!.json.id);
        }),
      );
      // Both sandboxes hold every task (each caught up on the other's) and both timers fire at the same moments.
      await everyAlias;
      // Nothing more can come once neither sandbox has work left: every task done and every delivery answered, as
      // each sees the state after catching up (a GET catches up; what a delivery changed is saved just after it).
      await vi.waitFor(
        async () => {
          for (const sandbox of [a, b]) {
            await sandbox.webhooksIdle();
            await getTransaction(sandbox.url, '1');
            const { state } = storeOf(sandbox)!;
            expect(state.tasks.size, 'no scheduled work left').toBe(0);
            expect(state.deliveries.size).toBe(aliasCount);
            expect([...state.deliveries.values()].every((d) => d.delivered), 'every notification answered').toBe(true);
          }
        },
        { timeout: 20_000, interval: 20 },
      );
      const ids = received.map((body) => (JSON.parse(body) as { data: { id: string } }).data.id).sort();
      expect(ids, 'one alias.registered notification per alias').toEqual([...aliases].sort());
    } finally {
      await Promise.all([a.close(), b.close()]);
      endpoint.close();
    }
  }, 30_000);

  it('a payment is answered only once the write-ahead log is durable past it: committed and seen, but unanswered while the log cannot be made durable', async () => {
    const url = await database();
    const sandbox = await startPaymentsSandbox({ stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    // A synchronous standby nobody provides: a commit that waits for durability waits until this is undone (the
    // other tests' sandboxes on the cluster wait meanwhile, and go on after).
    const durability = async (blocked: boolean) => {
      await cluster.query('postgres', blocked ? "ALTER SYSTEM SET synchronous_standby_names = 'paykit_nobody'" : 'ALTER SYSTEM RESET synchronous_standby_names');
      await cluster.query('postgres', 'SELECT pg_reload_conf()');
      await vi.waitFor(async () => {
        const [row] = await cluster.query<{ synchronous_standby_names: string }>('postgres', 'SHOW synchronous_standby_names');
        expect(row!.synchronous_standby_names).toBe(blocked ? 'paykit_nobody' : '');
      }, { timeout: 10_000, interval: 20 });
    };
    try {
      const tokenId = await token(sandbox.url);
      await durability(true);
      let answered = false;
      const paying = post(sandbox.url, '/transactions', paymentRequest(tokenId, 40, { metadata: { orderId: 'durable' } }), { 'Idempotency-Key': 'durable' }).then((answer) => ((answered = true), answer));
      // The payment is committed (another session sees it) and the sandbox is waiting for the log to be durable.
      await vi.waitFor(async () => {
        const waiting = await cluster.query('postgres', "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event = 'SyncRep'", [databaseOf(url)]);
        expect(waiting).toHaveLength(1);
        expect((await rowsOf(url, 'transactions')).map((row) => JSON.parse(row.value).metadata)).toEqual([{ orderId: 'durable' }]);
      }, { timeout: 10_000, interval: 20 });
      expect(answered, 'no answer before the log is durable').toBe(false);
      await durability(false);
      expect((await paying)?.status).toBe(201);
    } finally {
      await durability(false);
      await sandbox.close();
    }
  }, 30_000);

  it('the database refuses a second answer under an Idempotency-Key within its lifetime: the batch fails whole, its COMMIT (sent behind it) saves nothing of it', async () => {
    const url = await database();
    const store = await openPostgresStore(url);
    try {
      const response = { status: 201, headers: {} };
      store.state.idempotency.set('key-1', { key: 'key-1', createdAt: 1_000, response });
      await store.commit();
      // A second record under the key, as a process that had not seen the first would write it, beside a record of
      // its own and a number taken: none of it is saved.
      store.state.idempotency.set('key-1', { key: 'key-1', createdAt: 2_000, response: { status: 202, headers: {} } });
      store.state.idempotency.set('key-2', { key: 'key-2', createdAt: 2_000, response });
      store.state.sequence += 5;
      await expect(store.commit()).rejects.toThrow(/already holds an answer under this Idempotency-Key/);
    } finally {
      await store.close();
    }
    const rows = await rowsOf(url, 'idempotency');
    expect(rows.map((row) => [row.key, JSON.parse(row.value).response.status])).toEqual([['key-1', 201]]);
    const [sequence] = await cluster.query<{ value: string }>(databaseOf(url), "SELECT value FROM paykit_sandbox_meta WHERE name = 'sequence'");
    expect(sequence!.value).toBe('0');
    // The store is usable after it: a new process reads what the database holds.
    const again = await openPostgresStore(url);
    try {
      expect(again.state.idempotency.get('key-1')?.response.status).toBe(201);
      expect(again.state.idempotency.has('key-2')).toBe(false);
    } finally {
      await again.close();
    }
  });

  it("the catch-up read keeps to the change index whatever the table's statistics: the plan the server keeps for it, made while the table was empty, reads no whole table once the table is large", async () => {
    const url = await database();
    // The statement as the store sends it (its text is the store's own, not restated here).
    const query = vi.spyOn(pg.Client.prototype, 'query');
    const store = await openPostgresStore(url);
    let since: string | undefined;
    try {
      store.state.sequence += 1;
      await store.commit();
      since = query.mock.calls.map(([config]) => config as unknown).find((config): config is { name: string; text: string } => (config as { name?: string } | null)?.name === 'paykit-sandbox-since')?.text;
    } finally {
      query.mockRestore();
      await store.close();
    }
    expect(since).toBeDefined();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The plan kept for any change number, as the server keeps it for a prepared statement; made now, on the table
      // as a new sandbox's database has it (empty, never analysed).
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE since (bigint) AS ${since}`);
      const plan = async () => (await client.query<{ 'QUERY PLAN': string }>('EXPLAIN EXECUTE since(0)')).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(await plan()).toContain('paykit_sandbox_records');
      await client.query("INSERT INTO paykit_sandbox_records (collection, key, value, change) SELECT 'transactions', 'k' || n, '{}', n FROM generate_series(1, 50000) AS n");
      const kept = await plan();
      expect(kept).toMatch(/Index Scan|Index Cond/);
      expect(kept).not.toMatch(/Seq Scan on paykit_sandbox_records/);
    } finally {
      await client.end();
    }
  });

  it('refuses to start when the database is out of reach: a StateStoreError naming it without the password, and the process exits', async () => {
    const unreachable = `postgres://paykit:${encodeURIComponent(cluster.password)}@127.0.0.1:1/none`;
    const refusal = await startPaymentsSandbox({ stateFile: unreachable }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StateStoreError);
    expect((refusal as Error).message).toMatch(/cannot reach the sandbox state at postgres:\/\/paykit:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
    expectNoPassword((refusal as Error).message);

    // A wrong password: the server's refusal, without the password sent.
    const wrong = cluster.url('postgres').replace(encodeURIComponent(cluster.password), 'Wrong%2Fpassword');
    const denied = (await startPaymentsSandbox({ stateFile: wrong }).then(
      () => new Error('started'),
      (error: unknown) => error,
    )) as Error;
    expect(denied.message).toMatch(/password authentication failed/);
    expect(denied.message).not.toMatch(/Wrong/);

    // The sandbox as a process (`paykit-mock payments-sandbox --state …`): it exits with the reason.
    const exited = await startSandboxProcess(unreachable, keys).then(
      async (started) => (await started.stop(), 'started'),
      (error: unknown) => (error as Error).message,
    );
    expect(exited).toMatch(/exited early[\s\S]*cannot reach the sandbox state/);
    expectNoPassword(exited);
  }, 30_000);

  it.each([
    {
      when: 'while a payment holds the write lock',
      phase: 'locked' as const,
      status: 500,
      message: /could not save this change to its state store; look the resource up/,
    },
    {
      when: 'while a payment waits to take the write lock',
      phase: 'processing' as const,
      status: 503,
      message: /cannot reach its state store; nothing was done/,
    },
  ])('when the database goes away $when: the payment is not acknowledged ($status), and the answer names no part of the address; once it is back, a resend is a new payment', async ({ phase, status, message }) => {
    const url = await database();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let sandbox: PaymentsSandbox | undefined = await startPaymentsSandbox({ stateFile: url, keys: { secret: [keys.secret], publishable: [keys.publishable] } });
    try {
      const tokenId = await token(sandbox.url);
      const hold = phasesOf(sandbox).hold(phase, (visit) => visit.operationId === 'createTransaction');
      const pending = post(sandbox.url, '/transactions', paymentRequest(tokenId, 30, { metadata: { orderId: 'lost' } }), { 'Idempotency-Key': 'lost' });
      await hold.untilArrived(1);
      await cluster.cutOff(url);
      hold.release();
      const answer = await pending;
      expect(answer?.status, 'not acknowledged').toBe(status);
      expect(answer?.json.developerMessage).toMatch(message);
      expectNothingOfTheAddress(JSON.stringify(answer?.json), url);

      // With the database gone, a caller without a valid key learns nothing more than that (401) ...
      const anonymous = await post(sandbox.url, '/transactions', paymentRequest(tokenId, 30), { authorization: basic('sk_not_a_key') });
      expect(anonymous?.status).toBe(401);
      expectNothingOfTheAddress(JSON.stringify(anonymous?.json), url);
      // ... and one with a key that the store is out of reach, not where it is.
      const refused = await post(sandbox.url, '/single-use-tokens', cardTokenRequest(), { authorization: basic(keys.publishable) });
      expect(refused?.status).toBe(503);
      expect(refused?.json.developerMessage).toMatch(/cannot reach its state store/);
      expectNothingOfTheAddress(JSON.stringify(refused?.json), url);
      // The sandbox's log has the reason, with the address but not its password.
      const log = logged.mock.calls.map((call) => call.join(' ')).join('\n');
      expect(log).toMatch(/cannot (write|lock|reach) the sandbox state at postgres:\/\/paykit:\*\*\*@127\.0\.0\.1/);
      expectNoPassword(log);

      await cluster.restore(url);
      // The refused payment was never stored, so its resend is a payment of its own, not a replay of a 500.
      const resent = await pay(sandbox.url, 'lost');
      expect(resent).toBeDefined();
      expect((await rowsOf(url, 'transactions')).map((row) => JSON.parse(row.value).metadata)).toEqual([{ orderId: 'lost' }]);
      await sandbox.close();
      sandbox = undefined;
    } finally {
      logged.mockRestore();
      await sandbox?.close();
      await cluster.restore(url);
    }
  }, 30_000);
});

describe('payments sandbox: a PostgreSQL address in logs and errors', () => {
  it.each([
    ['postgres://sandbox:s3cret@db.internal:5432/paykit', 'postgres://sandbox:***@db.internal:5432/paykit'],
    ['postgresql://sandbox@db.internal/paykit?password=s3cret&sslmode=require', 'postgresql://sandbox@db.internal/paykit?password=***&sslmode=require'],
    ['postgres://db.internal/paykit', 'postgres://db.internal/paykit'],
    ['postgres://sandbox:s3cret@[::1', 'postgres://… (not a valid address)'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
