// end-to-end: 1,000 checkouts against the payments sandbox (a real HTTP server in this process) that loses answers
// at random after doing the work: some 6,000 requests over loopback HTTP, 13 s for the 1,000 orders at a load average
// of 8-12 on this 2-core machine (about 8 s of CPU).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPublishableClient } from '@paykit/payments/publishable';
import { createSecretClient, isPaymentsError, recoverTransaction, settleTransaction, type PaymentsClient, type RecoveredTransaction } from '@paykit/payments';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';

// The chaos test: every step of a checkout that may retry or ask the payer again (the card token, the payment,
// the reads of a pending payment, the look-up by reference) meets lost answers after the work (a dropped connection,
// an answer after the deadline, a 503 or 504 after the work), and every order ends charged at most once, because the
// checkout follows the documented recovery: a key per attempt, and on an unknown outcome (`mustQueryState`),
// `recoverTransaction` until the outcome is known, never a new attempt before. The same faults make a naive checkout
// (a new key and a new card on any error) charge orders twice: the faults do bite.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 });

const orders = Number(process.env.CHAOS_ORDERS ?? 1_000);
/** Checkouts in flight at once: under the sandbox's 10 requests in flight. */
const concurrency = 8;
/** The client's deadline: an answer held past it (see `lateAnswers`) is an answer after the deadline. */
const timeoutMs = 500;

let sandbox: PaymentsSandbox;
let secretKey: string;
let publishableKey: string;
beforeAll(async () => {
  sandbox = await startPaymentsSandbox();
  [secretKey] = sandbox.keys.secret as [string];
  [publishableKey] = sandbox.keys.publishable as [string];
  // A pending payment settles at once (the sandbox's default waits 3 s of its clock).
  await sandbox.control.changeSettings({ pendingSettlesAfterMs: 1 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** Faults at random on every step, the sandbox's own: after the work is done, and a few before it. */
async function injectFaults(seed: number) {
  await sandbox.control.setRandomFaults({
    seed,
    operationIds: ['createSingleUseToken', 'createTransaction', 'getTransaction', 'listTransactionsForReferenceNumber'],
    faults: [
      { fault: { drop: 'after' }, probability: 0.12 },
      { fault: { drop: 'before' }, probability: 0.03 },
      { fault: { status: 503, when: 'after' }, probability: 0.04 },
      { fault: { status: 504, when: 'after' }, probability: 0.03 },
    ],
  });
}

/**
 * A fetch that holds some answers past the client's deadline (every `every`-th POST /transactions): the sandbox did the
 * work, the client sees a timeout. Nothing waits: the held answer is let go when the client's signal fires.
 */
function lateAnswers(every: number) {
  let posts = 0;
  let late = 0;
  const fetch = async (request: Request): Promise<Response> => {
    const isPayment = request.method === 'POST' && new URL(request.url).pathname.endsWith('/transactions');
    const signal = request.signal;
    const response = await globalThis.fetch(request);
    if (!isPayment || ++posts % every !== 0) return response;
    late++;
    await response.arrayBuffer();
    return new Promise((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { fetch, late: () => late };
}

/** What each order is made to meet, by its amount's cents (the sandbox's conventions). */
function amountOf(order: number): number {
  const cents = [0, 0, 0, 0, 0, 52, 52, 53, 51, 55][order % 10]!;
  return 10 + cents / 100;
}

interface Shop {
  payments: PaymentsClient;
  tokens: ReturnType<typeof createPublishableClient>;
  /** How many recoveries went to the look-up by reference (no key left to resend). */
  lookups: number;
}

function shop(fetch?: (request: Request) => Promise<Response>): Shop {
  const common = { baseUrl: sandbox.url, timeoutMs, retry: { delayMs: 0 }, ...(fetch ? { fetch } : {}) };
  return { payments: createSecretClient({ apiKey: secretKey, ...common }), tokens: createPublishableClient({ apiKey: publishableKey, ...common }), lookups: 0 };
}

/** The payer enters the card: a new single-use token (a lost answer only costs an unused token: ask again). */
async function cardToken(shop: Shop): Promise<string> {
  for (let tries = 1; ; tries++) {
    try {
      const token = await shop.tokens.singleUseTokens.create({
        supplierBusinessCode: 'TEST_BUSINESS',
        accountType: 'CREDIT_CARD',
        cardholderName: 'Chaos Payer',
        cardNumber: '4111111111111111',
        expiryDateMonth: '12',
        expiryDateYear: '2040',
      });
      return token.data.singleUseTokenId!;
    } catch (error) {
      if (!isPaymentsError(error) || tries >= 20) throw error;
    }
  }
}

function paymentFor(order: string, amount: number, singleUseTokenId: string) {
  return {
    transactionType: 'PAYMENT',
    singleUseTokenId,
    supplierBusinessCode: 'TEST_BUSINESS',
    principalAmount: amount,
    currency: 'AUD',
    eci: 'INTERNET',
    entryMode: 'STORED_CREDENTIAL',
    // The merchant's own reference, which a look-up by reference finds (the sandbox matches the request field of the
    // query parameter's name: the service's name for it is not published), and its copy that the transaction keeps.
    merchantReference: order,
    metadata: { order },
  } as const;
}

type Ending = 'paid' | 'not paid' | 'undetermined';

/**
 * The documented checkout: a key per attempt (`order-N/attempt-K`); a definite refusal (422: the card, the token)
 * asks the payer again; an unknown outcome is recovered with `recoverTransaction` (the same key while the service
 * remembers it, else the look-up by reference) until it is known, and only a payment found not taken lets the payer
 * try again. An outcome other than approved is never paid again.
 */
async function documentedCheckout(shop: Shop, index: number): Promise<Ending> {
  const order = `order-${index}`;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const request = paymentFor(order, amountOf(index), await cardToken(shop));
    let settled: RecoveredTransaction | undefined;
    try {
      settled = await settleTransaction(shop.payments.transactions, request, { idempotencyKey: `${order}/attempt-${attempt}`, pollIntervalMs: 0, settleTimeoutMs: 5_000 });
    } catch (error) {
      let unknown: unknown = error;
      let known = false;
      for (let recoveries = 0; isPaymentsError(unknown) && unknown.mustQueryState; recoveries++) {
        // Bounded, so that a recovery that never learns the outcome fails the test instead of hanging it.
        if (recoveries === 50) throw new Error(`${order}: still unknown after 50 recoveries`, { cause: unknown });
        if (!unknown.resendUntil) shop.lookups++;
        try {
          settled = await recoverTransaction(shop.payments.transactions, request, unknown, { pollIntervalMs: 0, settleTimeoutMs: 5_000, reference: { merchantReference: order } });
          known = true;
          break;
        } catch (next) {
          unknown = next;
        }
      }
      if (!known) {
        if (isPaymentsError(unknown) && unknown.kind === 'validation') continue; // refused: the payer tries another card
        throw unknown;
      }
      if (!settled) continue; // found not taken: the payer may try again
    }
    return settled!.outcome === 'approved' ? 'paid' : 'undetermined';
  }
  return 'not paid';
}

/** The naive checkout: any error, and the payer is asked for the card again, under a new key. */
async function naiveCheckout(shop: Shop, index: number): Promise<Ending> {
  const order = `naive-${index}`;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const settled = await settleTransaction(shop.payments.transactions, paymentFor(order, amountOf(index), await cardToken(shop)), { pollIntervalMs: 0 });
      return settled.outcome === 'approved' ? 'paid' : 'undetermined';
    } catch {
      // Try again with a new card and a new key.
    }
  }
  return 'not paid';
}

/** Orders between two moves of the sandbox's clock. */
const batch = 200;

/**
 * Runs `count` checkouts, `concurrency` at a time, in batches of `batch`. Between two batches the sandbox's clock
 * moves 11 minutes, past a card token's lifetime: the tokens whose answers were lost, never used, expire, as they
 * would over a day of checkouts (1,000 unused tokens per address would stop token creation with 429).
 */
async function runOrders(count: number, checkout: (index: number) => Promise<Ending>): Promise<Map<string, Ending>> {
  const endings = new Map<string, Ending>();
  for (let from = 0; from < count; from += batch) {
    let next = from;
    const to = Math.min(count, from + batch);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < to) {
          const index = next++;
          endings.set(String(index), await checkout(index));
        }
      }),
    );
    await sandbox.control.advanceClock({ ms: 11 * 60_000 });
  }
  return endings;
}

/** The payments the sandbox holds per order that took money or may have (anything but a decline). */
async function chargesByOrder(prefix: string): Promise<Map<string, string[]>> {
  const charges = new Map<string, string[]>();
  // The control interface lists a page at a time, newest first.
  const transactions = [];
  let cursor: string | undefined;
  do {
    const page = await sandbox.control.listTransactions({ limit: 1000, ...(cursor ? { cursor } : {}) });
    transactions.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  for (const transaction of transactions) {
    const order = (transaction as { metadata?: { order?: string } }).metadata?.order;
    if (!order?.startsWith(prefix) || transaction.status === 'Declined') continue;
    charges.set(order, [...(charges.get(order) ?? []), String(transaction.status)]);
  }
  return charges;
}

describe('a checkout meeting lost answers at every step', () => {
  it('the naive checkout (a new key and card on any error) charges some orders twice: the faults bite', async () => {
    await injectFaults(7);
    const naive = shop(lateAnswers(25).fetch);
    await runOrders(200, (index) => naiveCheckout(naive, index));
    const twice = [...(await chargesByOrder('naive-')).values()].filter((charges) => charges.length > 1);
    expect(twice.length).toBeGreaterThan(0);
  });

  it(`the documented recovery: ${orders} orders, none charged twice, each ending as the sandbox recorded it`, async () => {
    await injectFaults(42);
    const appliedBefore = (await sandbox.control.getFaults()).applied;
    const late = lateAnswers(25);
    const documented = shop(late.fetch);
    const endings = await runOrders(orders, (index) => documentedCheckout(documented, index));
    const appliedAfter = (await sandbox.control.getFaults()).applied;
    const applied = Object.fromEntries(Object.entries(appliedAfter).map(([label, count]) => [label, count - (appliedBefore[label] ?? 0)]));
    const charges = await chargesByOrder('order-');

    // The faults happened, of every kind: answers dropped after the work, held past the deadline, 503 and 504 after it.
    for (const label of ['drop after', 'drop before', '503 after', '504 after']) expect(applied[label], label).toBeGreaterThan(10);
    console.log(`faults applied over ${orders} orders:`, applied, `answers held past the deadline: ${late.late()}, look-ups by reference: ${documented.lookups}`);
    expect(late.late()).toBeGreaterThan(10);
    // Both ways of the recovery ran: the resend under the same key, and the look-up by reference.
    expect(documented.lookups).toBeGreaterThan(0);

    const twice = [...charges].filter(([, list]) => list.length > 1);
    expect(twice).toEqual([]);
    for (const [index, ending] of endings) {
      const taken = charges.get(`order-${index}`) ?? [];
      if (ending === 'paid') expect(taken, `order-${index}`).toEqual(['Approved']);
      if (ending === 'not paid') expect(taken, `order-${index}`).toEqual([]);
    }
    expect(endings.size).toBe(orders);
  });
});
