// The control operations the dashboard reads: transactions searched and paged, a transaction's timeline, customers,
// aliases, recurring payments, deliveries by outcome and "deliver again", the recent requests. Every answer is checked
// against the control contract; card data appears in none.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, cardToken, everyItem, paymentRequest, sandboxPerTest } from './support.js';
import { checkedControl } from './support/control-contract.js';

const env = sandboxPerTest({ settings: { aliasRegistrationDelayMs: 1_000, pendingSettlesAfterMs: 3_000, webhookRetryDelaysMs: [10_000] } });
const problems: string[] = [];
const control = () => checkedControl(env.sandbox, problems);
afterEach(() => {
  expect(problems.splice(0), 'control answers the contract does not allow').toEqual([]);
});

/** A merchant's webhook endpoint: answers `status` (200 by default). */
let endpoint: { url: string; status: number; received: number };
let server: Server;
beforeAll(async () => {
  endpoint = { url: '', status: 200, received: 0 };
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      endpoint.received += 1;
      res.writeHead(endpoint.status, { 'content-type': 'text/plain' }).end(endpoint.status === 200 ? 'thanks' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const receiptOf = (answer: { data?: unknown }) => (answer.data as { receiptNumber: string }).receiptNumber;

async function pay(amount: number, extra: Record<string, unknown> = {}, key?: string): Promise<string> {
  const token = await cardToken(env);
  return receiptOf(await env.secret.transactions.create(paymentRequest(token, amount, extra) as never, key ? { idempotencyKey: key } : {}));
}

describe('listTransactions: search and filters, newest first, paged', () => {
  it('finds what each criterion names (table), newest first', async () => {
    const customer = (await env.secret.customers.create({ customerNumber: 'CUST-9', customerName: 'Ann' } as never)).data as { customerId: string };
    await env.secret.accounts.registerForCustomer(customer.customerId, { singleUseTokenId: await cardToken(env) } as never);
    const small = await pay(10, { metadata: { order: 'order-alpha' } });
    const declined = await pay(20.51);
    const pending = await pay(30.52, { comment: 'late Friday' });
    const byCustomer = receiptOf(await env.secret.transactions.create({ ...paymentRequest('', 40), singleUseTokenId: undefined, customerId: customer.customerId } as never));
    const refund = receiptOf(
      await env.secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: small, principalAmount: 4, entryMode: 'STORED_CREDENTIAL' } as never),
    );
    const all = [refund, byCustomer, pending, declined, small];
    const cases: { query: Parameters<ReturnType<typeof control>['listTransactions']>[0]; expected: string[] }[] = [
      { query: {}, expected: all },
      { query: { status: ['Declined'] }, expected: [declined] },
      { query: { status: ['Pending', 'Declined'] }, expected: [pending, declined] },
      { query: { transactionType: 'REFUND' }, expected: [refund] },
      { query: { amountMin: 20, amountMax: 35 }, expected: [pending, declined] },
      { query: { amountMax: 10 }, expected: [refund, small] },
      { query: { customerId: customer.customerId }, expected: [byCustomer] },
      { query: { receiptNumber: small }, expected: [refund, small] },
      { query: { q: 'ORDER-ALPHA' }, expected: [small] },
      { query: { q: 'friday' }, expected: [pending] },
      { query: { q: declined }, expected: [declined] },
      { query: { createdFrom: '2000-01-01T00:00:00Z', createdTo: '2001-01-01T00:00:00Z' }, expected: [] },
      { query: { createdFrom: '2000-01-01T00:00:00Z' }, expected: all },
    ];
    for (const { query, expected } of cases) {
      const page = await control().listTransactions(query);
      expect([query, page.items.map((t) => t.receiptNumber)]).toEqual([query, expected]);
    }
  });

  it('pages with a cursor: every transaction once, in order, the last page without a cursor', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push(await pay(10 + i));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await control().listTransactions({ limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((t) => t.receiptNumber));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(made.reverse());
  });

  it.each([
    ['limit 0', 'limit=0'],
    ['limit past 1,000', 'limit=1001'],
    ['an unknown status', 'status=Lost'],
    ['a date that is not one', 'createdFrom=yesterday'],
    ['an amount that is not one', 'amountMin=ten'],
    ['a parameter it does not take', 'sort=amount'],
  ])('refuses %s with 400', async (_what, query) => {
    const response = await fetch(`${env.sandbox.controlUrl}/transactions?${query}`, { headers: { authorization: `Bearer ${env.sandbox.controlToken}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe("a transaction's timeline", () => {
  it('shows the creating request (card data masked), replays under its key, settlement, a refund', async () => {
    const token = await cardToken(env);
    const body = paymentRequest(token, 10.52, { metadata: { note: 'card 4111111111111111' }, cardNumber: '4111111111111111' });
    const first = await call(env.sandbox, 'POST', '/transactions', { body, headers: { 'idempotency-key': 'order-timeline' } });
    expect(first.status).toBe(202);
    const receiptNumber = first.json.receiptNumber as string;
    const again = await call(env.sandbox, 'POST', '/transactions', { body, headers: { 'idempotency-key': 'order-timeline' } });
    expect(again.json.receiptNumber).toBe(receiptNumber);
    await control().advanceClock({ ms: 3_000 });
    await env.secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: receiptNumber, principalAmount: 1, entryMode: 'STORED_CREDENTIAL' } as never);

    const timeline = await control().getTransactionTimeline(receiptNumber);
    expect(timeline.transaction).toMatchObject({ receiptNumber, status: 'Approved' });
    expect(timeline.entries.map((e) => e.kind)).toEqual(['created', 'replay', 'settled', 'refund']);
    const [created, replay] = timeline.entries;
    expect(created!.request).toMatchObject({ method: 'POST', operationId: 'createTransaction', status: 202, replay: false, idempotencyKey: 'order-timeline' });
    expect(created!.request!.body).toMatchObject({ cardNumber: 'xxxxxxxxxxxx1111', singleUseTokenId: token });
    expect(replay!.request).toMatchObject({ replay: true, status: 202 });
    // The card number only as the contract's marks keep it; metadata is the merchant's text, kept as sent.
    expect(JSON.stringify(timeline)).not.toContain('"4111111111111111"');
  });

  it('shows a void, and the webhook notifications a transaction caused with every attempt, answer and signature', async () => {
    const voided = await pay(12);
    await env.secret.transactions.void(voided);
    expect((await control().getTransactionTimeline(voided)).entries.map((e) => e.kind)).toEqual(['created', 'voided']);

    await control().createWebhookSubscription({ url: endpoint.url, secret: 'whsec_timeline' });
    const alias = ((await env.secret.aliases.register({ aliasAddress: 'timeline@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never)).data as { id: string }).id;
    await control().advanceClock({ ms: 1_000 });
    const paid = await control().payAlias(alias, { amount: 5 });
    await env.sandbox.webhooksIdle();
    const receiptNumber = (paid as { transaction?: { receiptNumber: string } }).transaction!.receiptNumber;
    const timeline = await control().getTransactionTimeline(receiptNumber);
    expect(timeline.entries.map((e) => e.kind)).toEqual(['created', 'webhook']);
    const delivery = timeline.entries[1]!.delivery!;
    expect(delivery).toMatchObject({ eventType: 'alias.payment.received', outcome: 'delivered', attempts: [{ status: 200, answer: 'thanks', signature: expect.any(String) }] });
    expect(delivery.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(Object.values(delivery.headers)).toContain(delivery.attempts[0]!.signature);
  });

  it('is 404 for a transaction the sandbox does not hold', async () => {
    await expect(control().getTransactionTimeline('1')).rejects.toMatchObject({ status: 404 });
  });
});

describe('customers, aliases, recurring payments', () => {
  it('lists customers with their accounts (masked), aliases with their registration state, recurring payments', async () => {
    const customer = (await env.secret.customers.create({ customerNumber: 'CUST-1', customerName: 'Ann' } as never)).data as { customerId: string };
    const other = (await env.secret.customers.create({ customerNumber: 'CUST-2', customerName: 'Bob' } as never)).data as { customerId: string };
    await env.secret.accounts.registerForCustomer(customer.customerId, { singleUseTokenId: await cardToken(env), nickname: 'main' } as never);
    const schedule = await call(env.sandbox, 'POST', `/customers/${customer.customerId}/recurring-payments`, {
      body: { frequency: 'MONTHLY' },
      headers: { 'idempotency-key': 'schedule-1' },
    });
    expect(schedule.status).toBe(201);

    const customers = await control().listCustomers();
    expect(customers.items.map((c) => c.customerId)).toEqual([other.customerId, customer.customerId]);
    expect(customers.items[1]).toMatchObject({ fields: { customerNumber: 'CUST-1' }, accounts: [{ accountType: 'CREDIT_CARD', fields: { nickname: 'main' }, disabled: false }] });
    expect(JSON.stringify(customers)).not.toMatch(/4111111111111111/);
    expect(await control().listCustomers({ limit: 1 })).toMatchObject({ items: [{ customerId: other.customerId }], nextCursor: other.customerId });

    await env.secret.aliases.register({ aliasAddress: 'state@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never);
    const pending = (await control().listAliases()).items[0]!;
    expect(pending).toMatchObject({ aliasAddress: 'state@pay.example.com', status: 'PENDING', statusDueAt: expect.any(String) });
    await control().advanceClock({ ms: 1_000 });
    expect((await control().listAliases()).items[0]).toMatchObject({ status: 'REGISTERED', statusDueAt: null });
    expect((await control().listAliases({ customerId: pending.customerId })).items.map((a) => a.id)).toEqual([pending.id]);
    expect((await control().listAliases({ customerId: other.customerId })).items).toEqual([]);

    expect((await control().listCustomers({ customerId: customer.customerId })).items.map((c) => c.customerId)).toEqual([customer.customerId]);
    expect((await control().listRecurringPayments({ customerId: other.customerId })).items).toEqual([]);
    expect((await control().listRecurringPayments({ customerId: customer.customerId })).items).toHaveLength(1);
    expect((await control().listRecurringPayments()).items).toEqual([
      { id: expect.any(String), createdAt: expect.any(String), customerId: customer.customerId, fields: { frequency: 'MONTHLY' } },
    ]);
  });
});

describe('webhook deliveries', () => {
  it('filters by outcome, shows payload and headers, and delivers one again', async () => {
    await control().createWebhookSubscription({ url: endpoint.url, secret: 'whsec_deliveries', basicAuth: { username: 'hooks', password: 'hunter2' } });
    endpoint.status = 500;
    const alias = ((await env.secret.aliases.register({ aliasAddress: 'again@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never)).data as { id: string }).id;
    await control().advanceClock({ ms: 1_000 });
    await env.sandbox.webhooksIdle();
    const failing = await control().listWebhookDeliveries({ outcome: 'failing' });
    expect(failing.items).toHaveLength(1);
    const delivery = failing.items[0]!;
    expect(delivery).toMatchObject({ eventType: 'alias.registered', body: { data: { id: alias } }, attempts: [{ status: 500, answer: 'not now' }] });
    expect(delivery.headers.Authorization).toContain('hooks');
    expect(JSON.stringify(failing)).not.toContain('hunter2');
    expect((await control().listWebhookDeliveries({ outcome: 'delivered' })).items).toEqual([]);

    endpoint.status = 200;
    const before = endpoint.received;
    const started = await control().createWebhookDeliveryAttempt(delivery.id);
    expect(started.id).toBe(delivery.id);
    await env.sandbox.webhooksIdle();
    expect(endpoint.received).toBe(before + 1);
    const delivered = (await control().listWebhookDeliveries({ outcome: 'delivered' })).items;
    expect(delivered.map((d) => d.id)).toEqual([delivery.id]);
    expect(delivered[0]!.attempts.at(-1)).toMatchObject({ status: 200, manual: true });
    await expect(control().createWebhookDeliveryAttempt('none')).rejects.toMatchObject({ status: 404 });
  });
});

describe('recent requests', () => {
  it('lists method, path, operation, status, replay, masked body and violations, newest first', async () => {
    const token = await cardToken(env);
    await call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(token, 10), headers: { 'idempotency-key': 'recent-1' } });
    await call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(token, 10), headers: { 'idempotency-key': 'recent-1' } });
    await call(env.sandbox, 'GET', '/transactions/0');
    const page = await control().listRequests({ limit: 3 });
    expect(page.items.map((r) => [r.method, r.path, r.operationId, r.status, r.replay])).toEqual([
      ['GET', '/rest/v1/transactions/0', 'getTransaction', 404, false],
      ['POST', '/rest/v1/transactions', 'createTransaction', 201, true],
      ['POST', '/rest/v1/transactions', 'createTransaction', 201, false],
    ]);
    expect(page.items[2]).toMatchObject({ idempotencyKey: 'recent-1', receiptNumber: expect.any(String), violations: [] });
    const tokenRequest = (await everyItem((q) => control().listRequests({ ...q, operationId: 'createSingleUseToken' })))[0]!;
    expect(tokenRequest.body).toMatchObject({ cardNumber: 'xxxxxxxxxxxx1111' });
    expect(JSON.stringify(tokenRequest)).not.toContain('4111111111111111');
    expect((await control().listRequests({ failed: true })).items.map((r) => r.status)).toEqual([404]);
    const next = await control().listRequests({ limit: 1, cursor: page.items[0]!.id });
    expect(next.items[0]!.id).toBe(page.items[1]!.id);
  });
});
