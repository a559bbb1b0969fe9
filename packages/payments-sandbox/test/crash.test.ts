// end-to-end: sandbox processes killed with SIGKILL and restarted on a store of 30,000 transactions (seconds each).
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialiseState } from '../src/state/persistence.js';
import { openSqliteStore } from '../src/state/sqlite-store.js';
import { emptyState, type TransactionRecord } from '../src/state/state.js';
import { basic, cardTokenRequest, paymentRequest } from './support.js';
import { startSandboxProcess, type SandboxProcess } from './support/state-process.js';

/**
 * Kill -9 at each step of a write, with 30k transactions in the store, through the test-only crash points of
 * `src/state/crash-points.ts` (deterministic: the process kills itself at the named step). Afterwards every payment
 * a client was told about is there under the receipt number it was told, each order has one payment, and the
 * numbers handed out after the restart are new ones.
 */

const keys = { secret: 'sk_crash_test', publishable: 'pk_crash_test' };
const seeded = 30_000;

let dir: string;
let seed: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-crash-'));
  // 30k payments as a state file of the earlier format: the first open migrates it (at that size, too).
  const state = emptyState();
  for (let n = 1; n <= seeded; n++) {
    const record: TransactionRecord = {
      receiptNumber: String(1_000_000_000 + n),
      createdAt: 1_700_000_000_000 + n,
      transactionType: 'PAYMENT',
      status: 'Approved',
      principal: 1000 + (n % 500),
      surcharge: 0,
      currency: 'AUD',
      supplierBusinessCode: 'TEST_BUSINESS',
      refunded: 0,
      accountType: 'CREDIT_CARD',
      ipAddress: null,
      comment: null,
      metadata: { orderId: `seed-${n}` },
      request: { principalAmount: (1000 + (n % 500)) / 100, metadata: { orderId: `seed-${n}` } },
    };
    state.transactions.set(record.receiptNumber, record);
  }
  state.sequence = seeded;
  seed = join(dir, 'seed.db');
  await writeFile(seed, serialiseState(state));
  await openSqliteStore(seed).close();
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const secretHeaders = { authorization: basic(keys.secret), accept: 'application/json', 'content-type': 'application/json' };

/** A request whose answer may never come (the process is killed): undefined then. */
async function post(url: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: any } | undefined> {
  try {
    const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  } catch {
    return undefined;
  }
}

async function token(url: string): Promise<string> {
  const answer = await post(url, '/single-use-tokens', cardTokenRequest(), { ...secretHeaders, authorization: basic(keys.publishable) });
  expect(answer?.status).toBe(200);
  return answer!.json.singleUseTokenId as string;
}

const pay = (url: string, tokenId: string, order: string) =>
  post(url, '/transactions', paymentRequest(tokenId, 12.5, { metadata: { orderId: order } }), { ...secretHeaders, 'Idempotency-Key': order });

/** A payment's answer that tells the client its receipt number. */
const receiptOf = (answer: { status: number; json: any } | undefined) =>
  answer && (answer.status === 201 || answer.status === 202) ? String(answer.json.receiptNumber) : undefined;

interface Case {
  step: string;
  env: Record<string, string>;
  /** What the clients do until the process dies; returns the orders it acknowledged, with their receipt numbers. */
  act(sandbox: SandboxProcess): Promise<Map<string, string>>;
}

const cases: Case[] = [
  {
    // The token's write is the first, the payment's the second.
    step: 'before the commit of a payment',
    env: { PAYKIT_SANDBOX_CRASH_AT: 'commit:before@2' },
    async act({ url }) {
      const answer = await pay(url, await token(url), 'order-1');
      expect(answer, 'a payment whose write was not committed is not answered').toBeUndefined();
      return new Map();
    },
  },
  {
    step: 'after the commit of a payment, before its answer',
    env: { PAYKIT_SANDBOX_CRASH_AT: 'commit:after@2' },
    async act({ url }) {
      const answer = await pay(url, await token(url), 'order-1');
      expect(answer).toBeUndefined();
      return new Map();
    },
  },
  {
    // The payment's write is held until the resend with the same key waits for it; the process dies as soon as the
    // resend has its answer. Answered from memory before the write (the bug of the JSON file), the payment was lost
    // and its receipt number given to the next payment.
    step: 'right after a resend with the same Idempotency-Key was answered while the original was being written',
    env: { PAYKIT_SANDBOX_CRASH_AT: 'replay:answered', PAYKIT_SANDBOX_HOLD_AT: 'commit@2', PAYKIT_SANDBOX_REPORT: 'replay:waiting' },
    async act(sandbox) {
      const { url } = sandbox;
      const tokenId = await token(url);
      const original = pay(url, tokenId, 'order-1');
      await sandbox.printed(/holding commit/);
      const resending = pay(url, tokenId, 'order-1');
      await sandbox.printed(/replay:waiting/);
      sandbox.signal('SIGUSR2');
      const resend = receiptOf(await resending);
      expect(resend, 'the resend is answered before the crash').toBeDefined();
      const first = receiptOf(await original);
      if (first !== undefined) expect(first).toBe(resend);
      return new Map([['order-1', resend!]]);
    },
  },
];

describe(`payments sandbox store: SIGKILL at each write step with ${seeded} transactions stored`, () => {
  it.each(cases)('killed $step: every acknowledged payment survives with its receipt number, none is paid twice, no number is reused', async ({ env, act }) => {
    const file = join(dir, `case-${Math.random().toString(36).slice(2)}.db`);
    await copyFile(seed, file);

    const crashing = await startSandboxProcess(file, keys, env);
    const acknowledged = await act(crashing);
    expect(await crashing.exited, 'the process was killed at its crash point').toBe('SIGKILL');

    const restarted = await startSandboxProcess(file, keys);
    try {
      // A new payment first: it must not get the number of one a client was told about.
      const fresh = receiptOf(await pay(restarted.url, await token(restarted.url), 'order-2'));
      expect(fresh).toBeDefined();
      acknowledged.set('order-2', fresh!);
      // The merchant resends the order whose outcome it does not know, with its key, until it has an answer.
      const resent = receiptOf(await pay(restarted.url, await token(restarted.url), 'order-1'));
      expect(resent).toBeDefined();
      if (acknowledged.has('order-1')) expect(resent, 'the resend after the restart replays the acknowledged payment').toBe(acknowledged.get('order-1'));
      acknowledged.set('order-1', resent!);
    } finally {
      await restarted.stop();
    }

    const store = openSqliteStore(file);
    try {
      const transactions = [...store.state.transactions.values()];
      for (const [order, receipt] of acknowledged) {
        expect(store.state.transactions.get(receipt)?.metadata, `receipt ${receipt} told to the client of ${order}`).toEqual({ orderId: order });
      }
      const perOrder = new Map<string, number>();
      for (const t of transactions) perOrder.set(String(t.metadata?.orderId), (perOrder.get(String(t.metadata?.orderId)) ?? 0) + 1);
      expect([...perOrder].filter(([, n]) => n > 1), 'orders paid twice').toEqual([]);
      expect(transactions).toHaveLength(seeded + 2);
      expect(store.state.sequence).toBeGreaterThanOrEqual(Math.max(...transactions.map((t) => Number(t.receiptNumber) - 1_000_000_000)));
    } finally {
      await store.close();
    }
  }, 60_000);
});
