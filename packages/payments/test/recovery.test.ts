import { afterEach, describe, expect, it, vi } from 'vitest';
import { recoverTransaction, settleTransaction, type UnknownOutcome } from '../src/index.js';
import { failure, paymentRequest } from './support/fixtures.js';
import { inProcessClient, useFakeClock, type Answer } from './support/in-process-fetch.js';

// The documented recovery of an unknown outcome: resend under the same Idempotency-Key while the service remembers it
// (the original outcome comes back, or the payment is carried out once), else look the payment up by the merchant's
// own reference. The in-process service below remembers each key's first answer, as the reference says the service
// does (only the key is compared), and can lose an answer after the work.

afterEach(() => {
  vi.useRealTimers();
});

const lifetimeMs = 22 * 3_600_000;

/** A service that takes payments once per key, and loses the answers the test asks it to lose. */
function service(options: { lose?: (index: number) => boolean; firstStatus?: string } = {}) {
  const byKey = new Map<string, { receiptNumber: string; status: string }>();
  const taken: { receiptNumber: string; status: string; reference: unknown }[] = [];
  let polls = 0;
  const answer: Answer = async (request, index) => {
    const url = new URL(request.url);
    if (request.method === 'POST') {
      const key = request.headers.get('idempotency-key')!;
      let transaction = byKey.get(key);
      if (!transaction) {
        const body = (await request.json()) as { merchantReference?: unknown };
        transaction = { receiptNumber: String(1000 + taken.length), status: options.firstStatus ?? 'Approved' };
        taken.push({ ...transaction, reference: body.merchantReference });
        byKey.set(key, transaction);
      }
      if (options.lose?.(index)) throw new TypeError('fetch failed');
      return Response.json(transaction, { status: transaction.status === 'Pending' ? 202 : 201 });
    }
    if (url.pathname.endsWith('/for-reference-number')) {
      const wanted = url.searchParams.get('merchantReference');
      const data = taken.filter((t) => t.reference === wanted).map(({ receiptNumber, status }) => ({ receiptNumber, status }));
      return Response.json({ links: [], data });
    }
    // A read of a pending payment: approved at the second read.
    const receiptNumber = url.pathname.split('/').pop()!;
    return Response.json({ receiptNumber, status: ++polls >= 2 ? 'Approved' : 'Pending' });
  };
  return { answer, taken };
}

const request = { ...paymentRequest, merchantReference: 'order-42' };

describe('before resendUntil: a resend under the same key', () => {
  it('gets the original outcome of a payment whose answer was lost: one payment, approved', async () => {
    const { answer, taken } = service({ lose: (index) => index === 0 });
    const { client, requests } = inProcessClient(answer, { retry: { maxRetries: 0 } });
    const lost = await failure(settleTransaction(client.transactions, request as never, { idempotencyKey: 'order-42/attempt-1' }));
    expect(lost).toMatchObject({ kind: 'network', mustQueryState: true });
    const recovered = await recoverTransaction(client.transactions, request as never, lost);
    expect(recovered).toMatchObject({ outcome: 'approved', transaction: { receiptNumber: '1000' }, created: { status: 201, idempotencyKey: 'order-42/attempt-1' } });
    expect(taken).toHaveLength(1);
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['order-42/attempt-1', 'order-42/attempt-1']);
  });

  it('works from the JSON of the error, kept with the order (another process, later)', async () => {
    const { answer, taken } = service({ lose: (index) => index === 0 });
    const { client } = inProcessClient(answer, { retry: { maxRetries: 0 } });
    const lost = await failure(client.transactions.create(request as never, { idempotencyKey: 'order-42/attempt-1' }));
    const kept = JSON.parse(JSON.stringify(lost)) as UnknownOutcome;
    expect((await recoverTransaction(client.transactions, request as never, kept))?.outcome).toBe('approved');
    expect(taken).toHaveLength(1);
  });

  it('settles a pending payment as settleTransaction does', async () => {
    const { answer } = service({ lose: (index) => index === 0, firstStatus: 'Pending' });
    const { client } = inProcessClient(answer, { retry: { maxRetries: 0 } });
    const lost = await failure(client.transactions.create(request as never, { idempotencyKey: 'order-42/attempt-1' }));
    const recovered = await recoverTransaction(client.transactions, request as never, lost, { pollIntervalMs: 0 });
    expect(recovered).toMatchObject({ outcome: 'approved', created: { status: 202 } });
  });

  it('lost again: still unknown, keeping the first resendUntil (the key was first sent then)', async () => {
    useFakeClock();
    const { answer, taken } = service({ lose: (index) => index <= 1 });
    const { client } = inProcessClient(answer, { retry: { maxRetries: 0 } });
    const lost = await failure(client.transactions.create(request as never, { idempotencyKey: 'order-42/attempt-1' }));
    await vi.advanceTimersByTimeAsync(3_600_000);
    const again = await failure(recoverTransaction(client.transactions, request as never, lost));
    expect(again).toMatchObject({ kind: 'network', mustQueryState: true, idempotencyKey: 'order-42/attempt-1', resendUntil: lost.resendUntil });
    expect(taken).toHaveLength(1);
  });
});

describe('a payment whose settling was cut short (its receipt number known)', () => {
  it('settleTransaction: a failed read of the pending payment is an unknown outcome naming it; recoverTransaction reads it, nothing resent', async () => {
    let reads = 0;
    const { client, requests } = inProcessClient(
      (request) => {
        if (request.method === 'POST') return Response.json({ receiptNumber: '1000', status: 'Pending' }, { status: 202 });
        return ++reads === 1 ? Promise.reject(new TypeError('fetch failed')) : Response.json({ receiptNumber: '1000', status: 'Approved' });
      },
      { retry: { maxRetries: 0 } },
    );
    const cut = await failure(settleTransaction(client.transactions, request as never, { idempotencyKey: 'order-42/attempt-1', pollIntervalMs: 0 }));
    expect(cut).toMatchObject({ kind: 'network', mustQueryState: true, receiptNumber: '1000', idempotencyKey: 'order-42/attempt-1' });
    const recovered = await recoverTransaction(client.transactions, request as never, cut, { pollIntervalMs: 0 });
    expect(recovered).toMatchObject({ outcome: 'approved', transaction: { receiptNumber: '1000' }, created: undefined });
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a read that fails again keeps it unknown', async () => {
    const { client } = inProcessClient(() => Promise.reject(new TypeError('fetch failed')), { retry: { maxRetries: 0 } });
    const again = await failure(recoverTransaction(client.transactions, request as never, { idempotencyKey: 'k', resendUntil: undefined, receiptNumber: '1000' }));
    expect(again).toMatchObject({ kind: 'network', mustQueryState: true });
  });
});

describe('past resendUntil (the service has forgotten the key): a look-up by reference', () => {
  it.each([
    { label: 'the payment was taken: found, approved, nothing resent', takenBefore: true, outcome: 'approved' },
    { label: 'it was not: undefined (the payer may be asked again), nothing resent', takenBefore: false, outcome: undefined },
  ])('$label', async ({ takenBefore, outcome }) => {
    useFakeClock();
    const { answer, taken } = service({ lose: () => true });
    const { client, requests } = inProcessClient(answer, { retry: { maxRetries: 0 } });
    let lost: UnknownOutcome = { idempotencyKey: 'order-42/attempt-1', resendUntil: new Date(Date.now() + lifetimeMs).toISOString() };
    if (takenBefore) lost = await failure(client.transactions.create(request as never, { idempotencyKey: 'order-42/attempt-1' }));
    await vi.advanceTimersByTimeAsync(lifetimeMs);
    const posts = requests.filter((r) => r.method === 'POST').length;
    const recovered = await recoverTransaction(client.transactions, request as never, lost, { reference: { merchantReference: 'order-42' } });
    expect(recovered?.outcome).toBe(outcome);
    expect(recovered?.created).toBeUndefined();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(posts);
    expect(requests.at(-1)!.url).toMatch(/\/transactions\/for-reference-number\?merchantReference=order-42$/);
    expect(taken).toHaveLength(takenBefore ? 1 : 0);
  });

  it('without a reference: an input error, nothing sent (a resend could take a second payment)', async () => {
    const { answer } = service();
    const { client, requests } = inProcessClient(answer);
    const error = await failure(recoverTransaction(client.transactions, request as never, { idempotencyKey: 'k', resendUntil: new Date(Date.now() - 1).toISOString() }));
    expect(error.kind).toBe('input');
    expect(requests).toHaveLength(0);
  });
});
