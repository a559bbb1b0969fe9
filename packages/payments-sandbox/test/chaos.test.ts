import { isPaymentsError, transactionOutcome } from '@paykit/payments';
import { describe, expect, it } from 'vitest';
import { everyItem, cardTokenRequest, paymentRequest, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

const orders = 300;
const workers = 8; // below the concurrency limit: every 429 here is an injected one
const seed = 20261122;

/**
 * The merchant's rule when the client gives up: the outcome is unknown, so send the same request again with the
 * same Idempotency-Key until the service answers. The client's own resends wait 2 ms here (20 s in production).
 */
async function untilAnswered<T extends { attempts: number }>(send: () => Promise<T>, counts: { requests: number; gaveUp: number }): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      const answered = await send();
      counts.requests += answered.attempts;
      return answered;
    } catch (error) {
      const unresolved = isPaymentsError(error) && ['network', 'rateLimit', 'server', 'timeout'].includes(error.kind);
      if (!unresolved || round === 20) throw error;
      counts.requests += error.attempts;
      counts.gaveUp += 1;
    }
  }
}

// Some 900 requests (about half a second on a quiet machine): its time budget follows its size, so that it holds on a machine
// shared with other test runs.
const budgetMs = 30_000;

describe('payments sandbox: chaos', () => {
  it(`${orders} orders paid while the sandbox drops connections after the work and answers 429 and 503 at random: one transaction each`, async () => {
    await env.sandbox.control.setRandomFaults({
      seed,
      faults: [
        { fault: { drop: 'after' }, probability: 0.1 },
        { fault: { status: 429 }, probability: 0.1 },
        { fault: { status: 503 }, probability: 0.1 },
      ],
    });
    const { createPublishableClient, createSecretClient } = await import('@paykit/payments');
    const retry = { maxRetries: 3, delayMs: 2 };
    const secret = createSecretClient({ apiKey: env.secretKey, baseUrl: env.sandbox.url, retry });
    const publishable = createPublishableClient({ apiKey: env.publishableKey, baseUrl: env.sandbox.url, retry });
    const counts = { approved: 0, undetermined: 0, pending: 0, requests: 0, gaveUp: 0 };

    async function payOrder(order: number): Promise<void> {
      const token = await untilAnswered(() => publishable.singleUseTokens.create(cardTokenRequest() as never, { idempotencyKey: `token-${order}` }), counts);
      const singleUseTokenId = (token.data as { singleUseTokenId: string }).singleUseTokenId;
      const payment = await untilAnswered(
        () => secret.transactions.create(paymentRequest(singleUseTokenId, 10 + (order % 90), { metadata: { orderId: `order-${order}` } }) as never, { idempotencyKey: `order-${order}` }),
        counts,
      );
      counts[transactionOutcome(payment as never)] += 1;
    }

    let next = 0;
    await Promise.all(Array.from({ length: workers }, async () => {
      while (next < orders) await payOrder(next++);
    }));

    const faults = (await env.sandbox.control.getFaults()).applied;
    await env.sandbox.control.clearFaults();
    const transactions = await everyItem((q) => env.sandbox.control.listTransactions(q));
    const perOrder = new Map<string, number>();
    for (const t of transactions) {
      const order = (t.metadata as { orderId: string }).orderId;
      perOrder.set(order, (perOrder.get(order) ?? 0) + 1);
    }
    const duplicates = [...perOrder.values()].filter((n) => n > 1).length;
    console.log(
      `chaos: ${orders} orders, ${counts.approved} approved, ${counts.undetermined} undetermined, ${counts.pending} pending; ` +
        `${transactions.length} transactions in the sandbox, ${perOrder.size} distinct orders, ${duplicates} duplicate charges; ` +
        `faults injected: ${Object.entries(faults).map(([label, n]) => `${label} ${n}`).join(', ')}; ` +
        `${counts.requests} requests sent in all, ${counts.gaveUp} calls sent again with their key after the client gave up`,
    );

    expect(counts.approved + counts.undetermined + counts.pending).toBe(orders);
    expect(transactions).toHaveLength(orders);
    expect(perOrder.size).toBe(orders);
    expect(duplicates).toBe(0);
    expect(faults['drop after']).toBeGreaterThan(0);
    expect(faults['429 before']).toBeGreaterThan(0);
    expect(faults['503 before']).toBeGreaterThan(0);
  }, budgetMs);
});
