import { describe, expect, it } from 'vitest';
import { everyItem, call, cardToken, failureOf, paymentRequest, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

const pay = async (options: { idempotencyKey?: string } = {}) =>
  env.secret.transactions.create(paymentRequest(await cardToken(env)) as never, options);

describe('payments sandbox: injected faults (control interface)', () => {
  it.each([
    { fault: { status: 503 }, label: '503 before' },
    { fault: { status: 429 }, label: '429 before' },
    { fault: { drop: 'before' as const }, label: 'drop before' },
  ])('$label: the client resends with the same key and the payment is taken once', async ({ fault, label }) => {
    const token = await cardToken(env);
    await env.sandbox.control.injectFault({ fault, count: 2, operationId: 'createTransaction' });
    const result = await env.secret.transactions.create(paymentRequest(token) as never);
    expect(result.status).toBe(201);
    expect(result.attempts).toBe(3);
    expect(await everyItem((q) => env.sandbox.control.listTransactions(q))).toHaveLength(1);
    expect((await env.sandbox.control.getFaults()).applied).toEqual({ [label]: 2 });
  });

  it('drop after the work: the resend with the same key gets the original answer, no second payment', async () => {
    await env.sandbox.control.injectFault({ fault: { drop: 'after' }, operationId: 'createTransaction' });
    const result = await pay();
    expect(result.attempts).toBe(2);
    const [only] = await everyItem((q) => env.sandbox.control.listTransactions(q));
    expect(only).toMatchObject({ receiptNumber: (result.data as { receiptNumber: string }).receiptNumber });
    expect(await everyItem((q) => env.sandbox.control.listTransactions(q))).toHaveLength(1);
  });

  it('500 (after the work, by default): the client does not resend; the payment exists; a resend with the key gets it', async () => {
    await env.sandbox.control.injectFault({ fault: { status: 500 }, operationId: 'createTransaction' });
    const token = await cardToken(env);
    const failure = await failureOf(env.secret.transactions.create(paymentRequest(token) as never, { idempotencyKey: 'order-500' }));
    expect(failure).toMatchObject({ kind: 'server', status: 500, attempts: 1 });
    const [made] = await everyItem((q) => env.sandbox.control.listTransactions(q));
    const again = await env.secret.transactions.create(paymentRequest(token) as never, { idempotencyKey: 'order-500' });
    expect((again.data as { receiptNumber: string }).receiptNumber).toBe(made!.receiptNumber);
  });

  it.each([502, 504])('%d before the work: a server error that says to query the state, and nothing done', async (status) => {
    await env.sandbox.control.injectFault({ fault: { status }, operationId: 'createTransaction' });
    expect(await failureOf(pay())).toMatchObject({ kind: 'server', status, mustQueryState: true });
    expect(await everyItem((q) => env.sandbox.control.listTransactions(q))).toEqual([]);
  });

  it('applies only to the next N requests of the operation named', async () => {
    await env.sandbox.control.injectFault({ fault: { status: 503 }, count: 1, operationId: 'getTransaction' });
    expect((await call(env.sandbox, 'GET', '/transactions')).status).toBe(200);
    expect((await call(env.sandbox, 'GET', '/transactions/1')).status).toBe(503);
    expect((await call(env.sandbox, 'GET', '/transactions/1')).status).toBe(404);
    expect((await env.sandbox.control.getFaults()).pending).toEqual([]);
  });

  it('fails every request at random with the probabilities given, until cleared', async () => {
    await env.sandbox.control.setRandomFaults({ faults: [{ fault: { status: 503 }, probability: 1 }], seed: 7 });
    expect((await call(env.sandbox, 'GET', '/')).status).toBe(503);
    expect((await call(env.sandbox, 'GET', '/')).status).toBe(503);
    await env.sandbox.control.clearFaults();
    expect((await call(env.sandbox, 'GET', '/')).status).toBe(200);
  });

  it.each([
    { problem: 'a status the contract does not declare for every operation', fault: { status: 418 } },
    { problem: 'an unknown timing', fault: { drop: 'during' } },
    { problem: 'a count below one', fault: { status: 503 }, count: 0 },
  ])('refuses $problem with 400', async ({ fault, count }) => {
    await expect(env.sandbox.control.injectFault({ fault: fault as never, count: count ?? 1 })).rejects.toMatchObject({ status: 400 });
  });
});
