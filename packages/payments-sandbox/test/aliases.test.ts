import { describe, expect, it, vi } from 'vitest';
import { rejectedAliasPrefix } from '../src/index.js';
import { everyItem, call, failureOf, sandboxPerTest } from './support.js';

const delay = 60_000;
const env = sandboxPerTest({
  aliasDomains: ['pay.example.com', '*.shop.example.com'],
  settings: { aliasRegistrationDelayMs: delay, aliasDeregistrationDelayMs: delay },
});

type Alias = { id: string; status: string; customerId: string; aliasAddress: string; statusDescription?: string };

async function register(aliasAddress: string, extra: Record<string, unknown> = {}): Promise<Alias> {
  const { data } = await env.secret.aliases.register({ aliasAddress, type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS', ...extra } as never);
  return data as Alias;
}
const status = async (id: string) => ((await env.secret.aliases.get(id)).data as Alias).status;
async function registered(aliasAddress: string, extra: Record<string, unknown> = {}): Promise<Alias> {
  const alias = await register(aliasAddress, extra);
  await env.sandbox.control.advanceClock({ ms: delay });
  expect(await status(alias.id)).toBe('REGISTERED');
  return alias;
}

describe('payments sandbox: alias registration', () => {
  it('starts PENDING (address lowercased, a customer made for it) and becomes REGISTERED after the registration delay', async () => {
    const created = await env.secret.aliases.register({ aliasAddress: 'Invoice-1001@Pay.Example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never);
    const alias = created.data as Alias;
    expect(created.status).toBe(201);
    expect(alias).toMatchObject({ status: 'PENDING', aliasAddress: 'invoice-1001@pay.example.com', type: 'STATIC' });
    expect(created.headers.get('location')).toBe(`${env.sandbox.url}/aliases/${alias.id}`);
    expect((await env.secret.customers.get(alias.customerId)).status).toBe(200);
    await env.sandbox.control.advanceClock({ ms: delay / 2 });
    expect(await status(alias.id)).toBe('PENDING');
    await env.sandbox.control.advanceClock({ ms: delay / 2 });
    expect(await status(alias.id)).toBe('REGISTERED');
  });

  it('completes an ATTENDED registration at once', async () => {
    const alias = await register('now@pay.example.com', { registrationPriority: 'ATTENDED' });
    await vi.waitFor(async () => expect(await status(alias.id)).toBe('REGISTERED'), { timeout: 4_000, interval: 10 });
  });

  it(`ends REJECTED, with the reason, for a local part starting with "${rejectedAliasPrefix}" (the sandbox's convention)`, async () => {
    const alias = await register(`${rejectedAliasPrefix}-1@pay.example.com`);
    await env.sandbox.control.advanceClock({ ms: delay });
    const after = (await env.secret.aliases.get(alias.id)).data as Alias;
    expect(after).toMatchObject({ status: 'REJECTED', statusDescription: expect.stringContaining(rejectedAliasPrefix) });
  });

  it.each([
    { rule: 'a domain not configured on the facility', aliasAddress: 'a@other.example.com' },
    { rule: 'the parent of a subdomain-only entry', aliasAddress: 'a@example.com' },
  ])('refuses $rule with 422 on aliasAddress', async ({ aliasAddress }) => {
    const failure = await failureOf(register(aliasAddress));
    expect(failure).toMatchObject({ status: 422 });
    expect(failure.fieldErrors[0].fieldName).toBe('aliasAddress');
  });

  it('accepts a subdomain of a `*.` entry, and refuses an address another alias holds', async () => {
    expect((await register('a@eu.shop.example.com')).status).toBe('PENDING');
    expect(await failureOf(register('A@EU.shop.example.com'))).toMatchObject({ status: 422 });
  });

  it('registers for an existing customer, lists a customer’s aliases newest first and by status, and 404s an unknown customer', async () => {
    const { customerId } = (await env.secret.customers.create({ customerNumber: 'C-1', customerName: 'Ann' } as never)).data as { customerId: string };
    const first = (await env.secret.aliases.registerForCustomer(customerId, { aliasAddress: 'c1-a@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never)).data as Alias;
    await env.sandbox.control.advanceClock({ ms: delay });
    const second = (await env.secret.aliases.registerForCustomer(customerId, { aliasAddress: 'c1-b@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never)).data as Alias;
    expect(first.customerId).toBe(customerId);
    const ids = async (query?: Record<string, string>) => (await env.secret.aliases.listForCustomer(customerId, query ? { query } : undefined)).items.map((a) => (a as Alias).id);
    expect(await ids()).toEqual([second.id, first.id]);
    expect(await ids({ status: 'REGISTERED' })).toEqual([first.id]);
    expect(await failureOf(env.secret.aliases.registerForCustomer('0', { aliasAddress: 'x@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never))).toMatchObject({ kind: 'notFound' });
  });
});

describe('payments sandbox: alias deregistration', () => {
  it('refuses it with 422 unless the alias is REGISTERED; then 204, PENDING_DEREGISTRATION, and DEREGISTERED after the delay', async () => {
    const alias = await register('dereg@pay.example.com');
    expect(await failureOf(env.secret.aliases.deregister(alias.id, { status: 'DEREGISTERED' }))).toMatchObject({ status: 422 });
    await env.sandbox.control.advanceClock({ ms: delay });
    const response = await call(env.sandbox, 'PATCH', `/aliases/${alias.id}`, { body: { status: 'DEREGISTERED' } });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await status(alias.id)).toBe('PENDING_DEREGISTRATION');
    expect(await failureOf(env.secret.aliases.deregister(alias.id, { status: 'DEREGISTERED' }))).toMatchObject({ status: 422 });
    await env.sandbox.control.advanceClock({ ms: delay });
    expect(await status(alias.id)).toBe('DEREGISTERED');
    expect(await failureOf(env.secret.aliases.deregister(alias.id, { status: 'DEREGISTERED' }))).toMatchObject({ status: 422 });
  });

  it('answers 404 for an alias it does not hold', async () => {
    expect(await failureOf(env.secret.aliases.deregister('no-such-alias', { status: 'DEREGISTERED' }))).toMatchObject({ kind: 'notFound' });
    expect(await failureOf(env.secret.aliases.get('no-such-alias'))).toMatchObject({ kind: 'notFound' });
  });
});

describe('payments sandbox: a payer pays an alias (control interface)', () => {
  it('a STATIC alias takes many payments, each an ALIAS transaction that can be refunded but not voided', async () => {
    const alias = await registered('static@pay.example.com');
    const first = await env.sandbox.control.payAlias(alias.id, { amount: 25.5 });
    const second = await env.sandbox.control.payAlias(alias.id, { amount: 3 });
    expect(first.outcome).toBe('accepted');
    expect(first.transaction).toMatchObject({
      status: 'Approved',
      source: 'ALIAS',
      principalAmount: { amount: 25.5 },
      surchargeAmount: { amount: 0 },
      aliasAccount: { accountType: 'ALIAS', id: alias.id, customerId: alias.customerId, aliasAddress: 'static@pay.example.com' },
      voidable: false,
      refundable: true,
    });
    expect(second.outcome).toBe('accepted');
    expect(await status(alias.id)).toBe('REGISTERED');
    const receipt = first.transaction!.receiptNumber;
    expect((await env.secret.transactions.get(receipt)).data).toMatchObject({ source: 'ALIAS' });
    expect((await env.secret.transactions.listForCustomer(alias.customerId)).items).toHaveLength(2);
    await env.secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: receipt, principalAmount: 25.5, entryMode: 'STORED_CREDENTIAL' } as never);
    expect(await failureOf(env.secret.transactions.void(receipt))).toMatchObject({ status: 422 });
  });

  it('a SINGLE alias returns a payment of another amount, takes the exact one, then is deregistered', async () => {
    const alias = await registered('single@pay.example.com', { type: 'SINGLE', paymentAmount: '25.50' });
    const wrong = await env.sandbox.control.payAlias(alias.id, { amount: 25 });
    expect(wrong).toMatchObject({ outcome: 'returned', reason: expect.stringContaining('$25.50') });
    expect(await everyItem((q) => env.sandbox.control.listTransactions(q))).toEqual([]);
    expect(await status(alias.id)).toBe('REGISTERED');
    const right = await env.sandbox.control.payAlias(alias.id, { amount: 25.5 });
    expect(right.outcome).toBe('accepted');
    expect(await status(alias.id)).toBe('DEREGISTERED');
    await expect(env.sandbox.control.payAlias(alias.id, { amount: 25.5 })).rejects.toMatchObject({ status: 422 });
  });

  it('a SINGLE alias without an amount takes any one payment', async () => {
    const alias = await registered('single-any@pay.example.com', { type: 'SINGLE' });
    expect((await env.sandbox.control.payAlias(alias.id, { amount: 7.25 })).outcome).toBe('accepted');
    expect(await status(alias.id)).toBe('DEREGISTERED');
  });

  it('an alias that is not REGISTERED accepts no payment', async () => {
    const alias = await register('pending@pay.example.com');
    await expect(env.sandbox.control.payAlias(alias.id, { amount: 1 })).rejects.toMatchObject({ status: 422 });
    await expect(env.sandbox.control.payAlias('no-such-alias', { amount: 1 })).rejects.toMatchObject({ status: 404 });
  });
});
