import { settleTransaction, transactionOutcome } from '@paykit/payments';
import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { everyItem, call, cardToken, failureOf, paymentRequest, sandboxPerTest, type SandboxPerTest } from './support.js';

const env = sandboxPerTest({ businesses: [{ supplierBusinessCode: 'TEST_BUSINESS', surcharges: { VISA: '1.5' } }], settings: { pendingSettlesAfterMs: 5_000 } });

type Transaction = Record<string, any> & { receiptNumber: string; status: string };

async function paid(e: SandboxPerTest, amount = 10, extra: Record<string, unknown> = {}, card?: string): Promise<Transaction> {
  const { data } = await e.secret.transactions.create(paymentRequest(await cardToken(e, card), amount, extra) as never);
  return data as Transaction;
}

const refund = (receipt: string, amount: number) =>
  env.secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: receipt, principalAmount: amount, entryMode: 'STORED_CREDENTIAL' } as never);

describe('payments sandbox: amounts are recorded to the cent', () => {
  const payRaw = async (amountText: string) => {
    const body = JSON.stringify(paymentRequest(await cardToken(env, '5555555555554444'), 1)).replace('"principalAmount":1', `"principalAmount":${amountText}`);
    return call(env.sandbox, 'POST', '/transactions', { raw: body, headers: { 'content-type': 'application/json' } });
  };

  it('takes the largest amount of the sandbox and gives it back to the cent', async () => {
    const taken = await payRaw('9999999999999.99');
    expect(taken.status, taken.text).toBe(201);
    expect(taken.json.principalAmount).toEqual({ currency: 'AUD', amount: 9999999999999.99, displayAmount: '$9,999,999,999,999.99' });
  });

  it.each([
    { amount: '90071992547409.93', why: 'past 2^53 cents (it was recorded as 90071992547409.94)' },
    { amount: '10000000000000.00', why: "past the sandbox's limit" },
    { amount: '1e300', why: 'far past it' },
    { amount: '12.345', why: 'three decimal places' },
    { amount: '0.001', why: 'less than a cent' },
  ])('refuses $amount ($why) with 422 on principalAmount, and records nothing', async ({ amount }) => {
    const refused = await payRaw(amount);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.errors[0]).toMatchObject({ fieldName: 'principalAmount' });
    expect(await everyItem((q) => env.sandbox.control.listTransactions(q))).toEqual([]);
  });

  it('refuses an alias payment amount past the limit, and a payer paying one', async () => {
    const alias = await call(env.sandbox, 'POST', '/aliases', {
      body: { aliasAddress: 'big@pay.example.com', type: 'SINGLE', supplierBusinessCode: 'TEST_BUSINESS', paymentAmount: '90071992547409.93' },
    });
    expect(alias.status, alias.text).toBe(422);
    const fine = await call(env.sandbox, 'POST', '/aliases', { body: { aliasAddress: 'fine@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } });
    await env.sandbox.control.advanceClock({ ms: (await env.sandbox.control.getSettings()).aliasRegistrationDelayMs });
    await expect(env.sandbox.control.payAlias(fine.json.id, { amount: 90071992547409.93 })).rejects.toMatchObject({ status: 422 });
    // The alias takes payments: the refusal was the amount's.
    expect(await env.sandbox.control.payAlias(fine.json.id, { amount: 5 })).toMatchObject({ outcome: 'accepted' });
  });
});

describe('payments sandbox: payment outcomes (the sandbox amounts)', () => {
  it('approves any other amount: 201, Approved, the Location of the transaction, the business surcharge', async () => {
    const result = await env.secret.transactions.create(paymentRequest(await cardToken(env), 10) as never);
    expect(result.status).toBe(201);
    expect(transactionOutcome(result as never)).toBe('approved');
    expect(result.headers.get('location')).toBe(`${env.sandbox.url}/transactions/${(result.data as Transaction).receiptNumber}`);
    expect(result.data).toMatchObject({
      status: 'Approved',
      transactionType: 'PAYMENT',
      principalAmount: { currency: 'AUD', amount: 10, displayAmount: '$10.00' },
      surchargeAmount: { amount: 0.15 },
      totalAmount: { amount: 10.15, displayAmount: '$10.15' },
      voidable: true,
      refundable: true,
    });
  });

  it('declines an amount ending in .51: 201 with status Declined, which the client reads as undetermined', async () => {
    const created = await env.secret.transactions.create(paymentRequest(await cardToken(env), 20.51) as never);
    expect(created.data).toMatchObject({ status: 'Declined', voidable: false, refundable: false });
    // The contract names no decline status (the reference lists none): the client does not guess one.
    expect(transactionOutcome(created as never)).toBe('undetermined');
  });

  it('suspends an amount ending in .55 (fraud screening): 201, neither approved nor declined, listed as suspended', async () => {
    const created = await env.secret.transactions.create(paymentRequest(await cardToken(env), 20.55) as never);
    expect(created.status).toBe(201);
    const suspended = created.data as Transaction;
    expect(suspended).toMatchObject({ status: 'Suspended', voidable: false, refundable: false });
    expect(transactionOutcome(created as never)).toBe('undetermined');
    const approved = await paid(env, 20);
    const listed = await env.secret.transactions.listSuspended();
    expect(listed.items.map((t) => (t as Transaction).receiptNumber)).toEqual([suspended.receiptNumber]);
    expect(approved.status).toBe('Approved');
    // The client's settle loop returns it at once as undetermined, without taking the payment again.
    const before = (await env.secret.transactions.list()).items.length;
    const settled = await settleTransaction(env.secret.transactions, paymentRequest(await cardToken(env), 7.55) as never, { pollIntervalMs: 20, settleTimeoutMs: 5_000 });
    expect(settled.outcome).toBe('undetermined');
    expect((settled.transaction as Transaction).status).toBe('Suspended');
    expect((await env.secret.transactions.list()).items.length).toBe(before + 1);
  });

  it.each([
    { amount: 30.52, settled: 'Approved', outcome: 'approved' },
    // The contract names no decline status (the reference lists none): the sandbox's `Declined` is undetermined.
    { amount: 30.53, settled: 'Declined', outcome: 'undetermined' },
  ])('answers $amount with 202 pending, and a GET shows $settled once it settles', async ({ amount, settled, outcome }) => {
    const created = await env.secret.transactions.create(paymentRequest(await cardToken(env), amount) as never);
    expect(created.status).toBe(202);
    expect(transactionOutcome(created as never)).toBe('pending');
    const receipt = (created.data as Transaction).receiptNumber;
    expect((await env.secret.transactions.get(receipt)).data).toMatchObject({ status: 'Pending' });
    await env.sandbox.control.advanceClock({ ms: 5_000 });
    expect((await env.secret.transactions.get(receipt)).data).toMatchObject({ status: settled });
    // The client's own settle loop sees the same, in real time.
    await env.sandbox.control.changeSettings({ pendingSettlesAfterMs: 50 });
    const settledByClient = await settleTransaction(env.secret.transactions, paymentRequest(await cardToken(env), amount) as never, { pollIntervalMs: 20, settleTimeoutMs: 5_000 });
    expect(settledByClient.outcome).toBe(outcome);
  });

  it('refuses an amount ending in .54 with 422 (payment method not accepted), without using the token', async () => {
    const token = await cardToken(env);
    expect(await failureOf(env.secret.transactions.create(paymentRequest(token, 40.54) as never))).toMatchObject({ status: 422 });
    expect((await env.secret.transactions.create(paymentRequest(token, 40) as never)).status).toBe(201);
  });

  it('refuses a payment without a means of payment, or with an unknown business', async () => {
    const noMeans = await call(env.sandbox, 'POST', '/transactions', { body: { transactionType: 'PAYMENT', principalAmount: 1, entryMode: 'STORED_CREDENTIAL', supplierBusinessCode: 'TEST_BUSINESS' } });
    expect(noMeans.status).toBe(422);
    const unknownBusiness = await call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(await cardToken(env), 1, { supplierBusinessCode: 'NOPE' }) });
    expect(unknownBusiness.status).toBe(422);
    expect(unknownBusiness.json.errors[0].fieldName).toBe('supplierBusinessCode');
  });
});

describe('payments sandbox: refunds and voids follow refundable and voidable', () => {
  it('refunds up to what was paid, in parts, and lists the refunds of the payment', async () => {
    const payment = await paid(env, 10);
    expect((await refund(payment.receiptNumber, 4)).data).toMatchObject({ transactionType: 'REFUND', status: 'Approved', originalReceiptNumber: payment.receiptNumber });
    const tooMuch = await failureOf(refund(payment.receiptNumber, 6.16));
    expect(tooMuch).toMatchObject({ status: 422 });
    expect(tooMuch.fieldErrors[0].fieldName).toBe('principalAmount');
    await refund(payment.receiptNumber, 6.15);
    expect((await env.secret.transactions.get(payment.receiptNumber)).data).toMatchObject({ refundable: false, voidable: false });
    expect(await failureOf(refund(payment.receiptNumber, 0.01))).toMatchObject({ status: 422 });
    const refunds = await env.secret.transactions.listRefunds(payment.receiptNumber);
    expect(refunds.items.map((t) => (t as Transaction).principalAmount.amount)).toEqual([6.15, 4]);
  });

  it('refuses to refund a declined payment', async () => {
    expect(await failureOf(refund((await paid(env, 1.51)).receiptNumber, 1))).toMatchObject({ status: 422 });
  });

  it('voids a voidable payment once; it is then neither voidable nor refundable', async () => {
    const payment = await paid(env, 10);
    expect((await env.secret.transactions.void(payment.receiptNumber)).data).toMatchObject({ status: 'Voided', voidable: false, refundable: false });
    expect(await failureOf(env.secret.transactions.void(payment.receiptNumber))).toMatchObject({ kind: 'validation', status: 422 });
  });

  it.each([
    { situation: 'declined', make: () => paid(env, 2.51) },
    { situation: 'pending', make: () => paid(env, 2.52) },
    { situation: 'refunded', make: async () => { const p = await paid(env, 2); await refund(p.receiptNumber, 1); return p; } },
    { situation: 'settled (a day later)', make: async () => { const p = await paid(env, 2); await env.sandbox.control.advanceClock({ ms: 24 * 3_600_000 }); return p; } },
  ])('refuses to void a $situation payment with 422', async ({ make }) => {
    const payment = await make();
    expect((await env.secret.transactions.get(payment.receiptNumber)).data).toMatchObject({ voidable: false });
    expect(await failureOf(env.secret.transactions.void(payment.receiptNumber))).toMatchObject({ status: 422 });
  });

  it('answers 404 for a receipt number it does not hold', async () => {
    expect(await failureOf(env.secret.transactions.get('9999999999'))).toMatchObject({ kind: 'notFound' });
    expect(await failureOf(env.secret.transactions.void('9999999999'))).toMatchObject({ kind: 'notFound' });
  });
});

describe('payments sandbox: transaction lists', () => {
  it('the recent list holds only the most recent ones, newest first; other lists page with next and prev links', async () => {
    const count = rules.pagination.pageSize + 5;
    const receipts: string[] = [];
    for (let i = 0; i < count; i++) receipts.push((await paid(env, 1 + i)).receiptNumber);
    const recent = await env.secret.transactions.list();
    expect(recent.items.map((t) => (t as Transaction).receiptNumber)).toEqual(receipts.slice(-rules.recentTransactions.count).reverse());
    expect(recent.hasNextPage).toBe(false);

    const first = await env.secret.transactions.listForCreditCard();
    expect(first.items).toHaveLength(rules.pagination.pageSize);
    expect(first.hasNextPage).toBe(true);
    const second = await first.nextPage();
    expect(second!.items.map((t) => (t as Transaction).receiptNumber)).toEqual(receipts.slice(0, 5).reverse());
    expect((second!.data as { links: { rel: string }[] }).links.map((l) => l.rel)).toEqual(['self', 'prev']);
    const all: string[] = [];
    for await (const t of first) all.push((t as Transaction).receiptNumber);
    expect(all).toEqual([...receipts].reverse());
  });

  it('every search holds what it is about', async () => {
    const card = await paid(env, 5);
    const bankToken = await env.publishable.singleUseTokens.create({ supplierBusinessCode: 'TEST_BUSINESS', accountType: 'DIRECT_DEBIT', accountName: 'A', bsb: '000-000', accountNumber: '123' } as never);
    const bank = (await env.secret.transactions.create(paymentRequest((bankToken.data as { singleUseTokenId: string }).singleUseTokenId, 6) as never)).data as Transaction;
    const preauth = await paid(env, 7, { transactionType: 'PREAUTH' });
    const receipts = async (page: Promise<{ items: unknown[] }>) => (await page).items.map((t) => (t as Transaction).receiptNumber);

    expect(await receipts(env.secret.transactions.listForCreditCard())).toEqual([preauth.receiptNumber, card.receiptNumber]);
    expect(await receipts(env.secret.transactions.listForBankAccount())).toEqual([bank.receiptNumber]);
    expect(await receipts(env.secret.transactions.listForNzBankAccount())).toEqual([]);
    expect(await receipts(env.secret.transactions.listSuspended())).toEqual([]);
    expect(await receipts(env.secret.transactions.listReturned())).toEqual([]);
    expect(await receipts(env.secret.transactions.listRetries(card.receiptNumber))).toEqual([]);
    expect(await receipts(env.secret.transactions.listOpenPreauths())).toEqual([preauth.receiptNumber]);
    await env.secret.transactions.create({ transactionType: 'CAPTURE', originalReceiptNumber: preauth.receiptNumber, entryMode: 'STORED_CREDENTIAL' } as never);
    expect(await receipts(env.secret.transactions.listOpenPreauths())).toEqual([]);
    // The reference names no query parameter of these searches: a field of the transaction filters (sent raw).
    const bySettlementDate = async (date: string) => (await call(env.sandbox, 'GET', `/transactions/for-settlement-date?settlementDate=${date}`)).json.data.map((t: Transaction) => t.receiptNumber);
    expect(await bySettlementDate(card.settlementDate)).toContain(card.receiptNumber);
    expect(await bySettlementDate('1999-01-01')).toEqual([]);
    expect((await env.secret.transactions.listForReferenceNumber()).items.length).toBeGreaterThanOrEqual(4);
  });

  it('lists the transactions of a customer and of an account token, paid with the stored account', async () => {
    const customer = (await env.secret.customers.create({ customerNumber: 'C-1', customerName: 'Ann' } as never)).data as { customerId: string };
    const account = (await env.secret.accounts.registerForCustomer(customer.customerId, { singleUseTokenId: await cardToken(env) } as never)).data as { accountToken: string };
    const byCustomer = (await env.secret.transactions.create({ transactionType: 'PAYMENT', customerId: customer.customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 3, entryMode: 'STORED_CREDENTIAL' } as never)).data as Transaction;
    const byAccount = (await env.secret.transactions.create({ transactionType: 'PAYMENT', accountToken: account.accountToken, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 4, entryMode: 'STORED_CREDENTIAL' } as never)).data as Transaction;
    const receipts = (page: { items: unknown[] }) => page.items.map((t) => (t as Transaction).receiptNumber);
    expect(receipts(await env.secret.transactions.listForCustomer(customer.customerId))).toEqual([byAccount.receiptNumber, byCustomer.receiptNumber]);
    expect(receipts(await env.secret.transactions.listForAccountToken(account.accountToken))).toEqual([byAccount.receiptNumber, byCustomer.receiptNumber]);
    expect(await failureOf(env.secret.transactions.listForCustomer('0'))).toMatchObject({ kind: 'notFound' });
    expect(await failureOf(env.secret.transactions.listForAccountToken('0'))).toMatchObject({ kind: 'notFound' });
  });
});
