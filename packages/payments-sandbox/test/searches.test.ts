import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { call, cardTokenRequest, paymentRequest, sandboxPerTest, type SandboxPerTest } from './support.js';

// Every list of transactions filters by the query: a transaction without the searched field does not match, and a
// value no transaction has gives an empty page (not the whole list).
const env = sandboxPerTest();

type Made = { receiptNumber: string };

async function token(e: SandboxPerTest, body: Record<string, unknown>): Promise<string> {
  const response = await call(e.sandbox, 'POST', '/single-use-tokens', { key: e.publishableKey, body: { supplierBusinessCode: 'TEST_BUSINESS', ...body } });
  expect(response.status, response.text).toBeLessThan(300);
  return response.json.singleUseTokenId as string;
}

async function transact(e: SandboxPerTest, body: Record<string, unknown>): Promise<Made> {
  const response = await call(e.sandbox, 'POST', '/transactions', { body });
  expect(response.status, response.text).toBeLessThan(300);
  return response.json as Made;
}

const card = (e: SandboxPerTest) => token(e, cardTokenRequest());
const bank = (e: SandboxPerTest) => token(e, { accountType: 'DIRECT_DEBIT', accountName: 'A', bsb: '000-000', accountNumber: '123' });
const nzBank = (e: SandboxPerTest) =>
  token(e, { accountType: 'DIRECT_DEBIT_NZ', nzAccountName: 'A', nzBankCode: '01', nzBranchCode: '0001', nzAccountNumber: '1234567', nzAccountSuffix: '00' });

/** The reference field the merchant sends with a transaction (absent when `tag` is undefined). */
const tagged = (tag: string | undefined) => (tag === undefined ? {} : { referenceNumber: tag });

interface Scene {
  /** The list's path (after the setup, which may create what the path names). */
  path: string;
  /** Creates one transaction that belongs on the list, with the given reference (none when undefined). */
  make: (tag: string | undefined) => Promise<Made>;
}

/** A customer with a stored card account, for the lists by customer and by account token. */
async function storedAccount(e: SandboxPerTest) {
  const customer = await call(e.sandbox, 'POST', '/customers', { body: { customerNumber: `C-${Math.random()}`, customerName: 'Ann' } });
  const account = await call(e.sandbox, 'POST', `/customers/${customer.json.customerId}/accounts`, { body: { singleUseTokenId: await card(e) } });
  return { customerId: customer.json.customerId as string, accountToken: account.json.accountToken as string };
}

const rows: { list: string; scene: (e: SandboxPerTest) => Promise<Scene> }[] = [
  { list: 'recent', scene: async (e) => ({ path: '/transactions', make: async (tag) => transact(e, paymentRequest(await card(e), 10, tagged(tag))) }) },
  { list: 'for-reference-number', scene: async (e) => ({ path: '/transactions/for-reference-number', make: async (tag) => transact(e, paymentRequest(await card(e), 10, tagged(tag))) }) },
  { list: 'for-settlement-date', scene: async (e) => ({ path: '/transactions/for-settlement-date', make: async (tag) => transact(e, paymentRequest(await card(e), 10, tagged(tag))) }) },
  { list: 'for-credit-card', scene: async (e) => ({ path: '/transactions/for-credit-card', make: async (tag) => transact(e, paymentRequest(await card(e), 10, tagged(tag))) }) },
  { list: 'for-bank-account', scene: async (e) => ({ path: '/transactions/for-bank-account', make: async (tag) => transact(e, paymentRequest(await bank(e), 10, tagged(tag))) }) },
  { list: 'for-nz-bank-account', scene: async (e) => ({ path: '/transactions/for-nz-bank-account', make: async (tag) => transact(e, paymentRequest(await nzBank(e), 10, tagged(tag))) }) },
  { list: 'suspended', scene: async (e) => ({ path: '/transactions/suspended', make: async (tag) => transact(e, paymentRequest(await card(e), 10.55, tagged(tag))) }) },
  {
    list: 'open-preauths',
    scene: async (e) => ({ path: '/transactions/open-preauths', make: async (tag) => transact(e, paymentRequest(await card(e), 10, { transactionType: 'PREAUTH', ...tagged(tag) })) }),
  },
  {
    list: 'for-account-token',
    scene: async (e) => {
      const { accountToken } = await storedAccount(e);
      const body = { transactionType: 'PAYMENT', accountToken, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 3, entryMode: 'STORED_CREDENTIAL' };
      return { path: `/transactions/for-account-token/${accountToken}`, make: (tag) => transact(e, { ...body, ...tagged(tag) }) };
    },
  },
  {
    list: 'customer transactions',
    scene: async (e) => {
      const { customerId } = await storedAccount(e);
      const body = { transactionType: 'PAYMENT', customerId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 3, entryMode: 'STORED_CREDENTIAL' };
      return { path: `/customers/${customerId}/transactions`, make: (tag) => transact(e, { ...body, ...tagged(tag) }) };
    },
  },
  {
    list: 'refunds',
    scene: async (e) => {
      const payment = await transact(e, paymentRequest(await card(e), 50));
      const body = { transactionType: 'REFUND', originalReceiptNumber: payment.receiptNumber, principalAmount: 1, entryMode: 'STORED_CREDENTIAL' };
      return { path: `/transactions/${payment.receiptNumber}/refunds`, make: (tag) => transact(e, { ...body, ...tagged(tag) }) };
    },
  },
];

const receiptsAt = async (path: string) => {
  const response = await call(env.sandbox, 'GET', path);
  expect(response.status, response.text).toBe(200);
  return (response.json.data as Made[]).map((t) => t.receiptNumber);
};

describe('payments sandbox: every transaction list filters by its query', () => {
  it.each(rows)('$list: matching, not matching, field absent, value nobody has', async ({ scene }) => {
    const { path, make } = await scene(env);
    const a = await make('REF-A');
    const b = await make('REF-B');
    const absent = await make(undefined);
    // Without a query: everything the list holds, newest first.
    expect(await receiptsAt(path)).toEqual([absent, b, a].map((t) => t.receiptNumber));
    // Matching and not matching: the other reference and the transaction without one are left out.
    expect(await receiptsAt(`${path}?referenceNumber=REF-A`)).toEqual([a.receiptNumber]);
    expect(await receiptsAt(`${path}?referenceNumber=REF-B`)).toEqual([b.receiptNumber]);
    // A value nobody has, and a field no transaction has: an empty page.
    expect(await receiptsAt(`${path}?referenceNumber=NOPE`)).toEqual([]);
    expect(await receiptsAt(`${path}?noSuchField=REF-A`)).toEqual([]);
    // Two criteria: both must hold.
    expect(await receiptsAt(`${path}?referenceNumber=REF-A&receiptNumber=${a.receiptNumber}`)).toEqual([a.receiptNumber]);
    expect(await receiptsAt(`${path}?referenceNumber=REF-A&receiptNumber=${b.receiptNumber}`)).toEqual([]);
  });

  it.each([
    { list: 'returns', path: () => '/transactions/returns' },
    { list: 'retries', path: async () => `/transactions/${(await transact(env, paymentRequest(await card(env), 10, tagged('REF-A')))).receiptNumber}/retries` },
    {
      list: 'recurring payment transactions',
      path: async () => {
        const { customerId } = await storedAccount(env);
        const schedule = await call(env.sandbox, 'POST', `/customers/${customerId}/recurring-payments`, { body: { referenceNumber: 'REF-A' } });
        return `/recurring-payments/${schedule.json.paymentScheduleId}/transactions`;
      },
    },
  ])('$list: the sandbox makes none, so the list is empty with and without a query', async ({ path }) => {
    await transact(env, paymentRequest(await card(env), 10, tagged('REF-A')));
    const at = await path();
    expect(await receiptsAt(at)).toEqual([]);
    expect(await receiptsAt(`${at}?referenceNumber=REF-A`)).toEqual([]);
  });

  it('searches by a field of the transaction itself: settlement date and status', async () => {
    const approved = await transact(env, paymentRequest(await card(env), 10));
    const declined = await transact(env, paymentRequest(await card(env), 10.51));
    const { settlementDate } = (await call(env.sandbox, 'GET', `/transactions/${approved.receiptNumber}`)).json as { settlementDate: string };
    expect(await receiptsAt(`/transactions/for-settlement-date?settlementDate=${settlementDate}`)).toEqual([declined.receiptNumber, approved.receiptNumber]);
    expect(await receiptsAt('/transactions/for-settlement-date?settlementDate=1999-01-01')).toEqual([]);
    expect(await receiptsAt('/transactions/for-credit-card?status=Declined')).toEqual([declined.receiptNumber]);
    // A field that is null on every transaction (comment) matches nothing, not even the text "null".
    expect(await receiptsAt('/transactions/for-reference-number?comment=null')).toEqual([]);
  });

  it('pages across a filtered result: only matching transactions, the query kept in next and prev', async () => {
    const size = rules.pagination.pageSize;
    const wanted: string[] = [];
    for (let i = 0; i < size + 3; i++) {
      wanted.push((await transact(env, paymentRequest(await card(env), 10, tagged('REF-P')))).receiptNumber);
      if (i % 6 === 0) await transact(env, paymentRequest(await card(env), 10, tagged(i % 12 === 0 ? 'REF-Q' : undefined)));
    }
    const first = await call(env.sandbox, 'GET', '/transactions/for-reference-number?referenceNumber=REF-P');
    expect((first.json.data as Made[]).map((t) => t.receiptNumber)).toEqual([...wanted].reverse().slice(0, size));
    const next = (first.json.links as { rel: string; href: string }[]).find((l) => l.rel === 'next')!;
    expect(new URL(next.href).searchParams.get('referenceNumber')).toBe('REF-P');
    const second = await call(env.sandbox, 'GET', next.href);
    expect((second.json.data as Made[]).map((t) => t.receiptNumber)).toEqual([...wanted].reverse().slice(size));
    expect((second.json.links as { rel: string }[]).map((l) => l.rel)).toEqual(['self', 'prev']);
    expect(await receiptsAt('/transactions/for-reference-number?referenceNumber=REF-P&page=3')).toEqual([]);
  });
});

describe('payments sandbox: the other searches filter too', () => {
  it('customers by number: a customer without that number does not match, an unknown number is an empty page', async () => {
    const ann = await call(env.sandbox, 'POST', '/customers', { body: { customerNumber: 'N-1', customerName: 'Ann' } });
    await call(env.sandbox, 'POST', '/customers', { body: { customerNumber: 'N-2', customerName: 'Bob' } });
    const numbers = async (query: string) => ((await call(env.sandbox, 'GET', `/customers${query}`)).json.data as { customerId: string }[]).map((c) => c.customerId);
    expect(await numbers('?customerNumber=N-1')).toEqual([ann.json.customerId]);
    expect(await numbers('?customerNumber=N-9')).toEqual([]);
  });

  it('mandate agreements: by a field they have, not by one they lack, an unknown value is an empty page', async () => {
    const first = await call(env.sandbox, 'POST', '/mandate-agreements', { body: { reference: 'M-1', status: 'PENDING' } });
    await call(env.sandbox, 'POST', '/mandate-agreements', { body: { status: 'PENDING' } });
    expect(first.status, first.text).toBe(201);
    const tokens = async (query: string) => ((await call(env.sandbox, 'GET', `/mandate-agreements${query}`)).json.data as { agreementToken: string }[]).map((a) => a.agreementToken);
    expect(await tokens('?reference=M-1')).toEqual([first.json.agreementToken]);
    expect(await tokens('?reference=M-9')).toEqual([]);
    expect(await tokens('?status=PENDING')).toHaveLength(2);
  });
});
