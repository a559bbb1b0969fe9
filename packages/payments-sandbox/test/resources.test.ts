import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { call, cardToken, failureOf, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

type Fields = Record<string, any>;
const data = (result: { data: unknown }) => result.data as Fields;

describe('payments sandbox: customers', () => {
  it('creates, reads, replaces, changes and finds a customer by its number, keeping every field sent', async () => {
    const created = await env.secret.customers.create({ customerNumber: 'CUST-0042', customerName: 'Ann', email: 'ann@example.com' } as never);
    expect(created.status).toBe(201);
    const { customerId } = data(created);
    expect(created.headers.get('location')).toBe(`${env.sandbox.url}/customers/${customerId}`);
    expect(data(await env.secret.customers.get(customerId))).toMatchObject({ customerId, customerNumber: 'CUST-0042', customerName: 'Ann', email: 'ann@example.com' });

    const replaced = data(await env.secret.customers.update(customerId, { customerName: 'Ann B' } as never));
    expect(replaced).toMatchObject({ customerId, customerNumber: 'CUST-0042', customerName: 'Ann B' });
    expect(replaced.email).toBeUndefined();
    expect(data(await env.secret.customers.changeStatus(customerId, { enabled: false } as never))).toMatchObject({ customerName: 'Ann B', enabled: false });

    await env.secret.customers.create({ customerNumber: 'CUST-0043', customerName: 'Bob' } as never);
    const found = await env.secret.customers.search({ query: { customerNumber: 'CUST-0042' } });
    expect(found.items.map((c) => (c as Fields).customerId)).toEqual([customerId]);
    expect((await env.secret.customers.search()).items).toHaveLength(2);
  });

  it('refuses a number another customer has (422), and answers 404 for an unknown customer', async () => {
    const first = data(await env.secret.customers.create({ customerNumber: 'CUST-1', customerName: 'Ann' } as never));
    const second = data(await env.secret.customers.create({ customerNumber: 'CUST-2', customerName: 'Bob' } as never));
    expect(await failureOf(env.secret.customers.create({ customerNumber: 'CUST-1', customerName: 'Eve' } as never))).toMatchObject({ status: 422 });
    expect(await failureOf(env.secret.customers.update(second.customerId, { customerNumber: 'CUST-1' } as never))).toMatchObject({ status: 422 });
    expect(await failureOf(env.secret.customers.get('0'))).toMatchObject({ kind: 'notFound' });
    expect(first.customerId).not.toBe(second.customerId);
  });
});

describe('payments sandbox: accounts and recurring payments', () => {
  it('registers an account for a customer from a token, lists, updates and disables it', async () => {
    const { customerId } = data(await env.secret.customers.create({ customerNumber: 'C', customerName: 'Ann' } as never));
    const registered = await env.secret.accounts.registerForCustomer(customerId, { singleUseTokenId: await cardToken(env), nickname: 'main card' } as never);
    const account = data(registered);
    expect(account).toMatchObject({ customerId, nickname: 'main card', creditCard: { cardScheme: 'VISA', cardNumber: '411111xxxxxxx111' } });
    expect(JSON.stringify(account)).not.toContain('4111111111111111');
    expect((await env.secret.accounts.listForCustomer(customerId)).items.map((a) => (a as Fields).accountToken)).toEqual([account.accountToken]);
    expect(data(await env.secret.accounts.update(account.accountToken, { cardholderName: 'Ann B' } as never))).toMatchObject({ cardholderName: 'Ann B' });
    await env.secret.accounts.disable(account.accountToken);
    const paying = await call(env.sandbox, 'POST', '/transactions', {
      body: { transactionType: 'PAYMENT', accountToken: account.accountToken, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 1, entryMode: 'STORED_CREDENTIAL' },
    });
    expect(paying.status).toBe(422);
    expect(await failureOf(env.secret.accounts.registerForCustomer('0', {} as never))).toMatchObject({ kind: 'notFound' });
  });

  it('creates, reads, replaces, stops and lists the recurring payments of a customer', async () => {
    const { customerId } = data(await env.secret.customers.create({ customerNumber: 'C', customerName: 'Ann' } as never));
    const schedule = data(await env.secret.recurringPayments.createForCustomer(customerId, { frequency: 'MONTHLY', amount: 10 } as never));
    expect(schedule).toMatchObject({ customerId, frequency: 'MONTHLY', amount: 10 });
    const id = schedule.paymentScheduleId as string;
    expect(data(await env.secret.recurringPayments.get(id))).toMatchObject({ paymentScheduleId: id, frequency: 'MONTHLY' });
    expect(data(await env.secret.recurringPayments.update(id, { frequency: 'WEEKLY' } as never))).toMatchObject({ frequency: 'WEEKLY' });
    expect(data(await env.secret.recurringPayments.stop(id, { status: 'STOPPED' } as never))).toMatchObject({ frequency: 'WEEKLY', status: 'STOPPED' });
    expect((await env.secret.recurringPayments.listForCustomer(customerId)).items).toHaveLength(1);
    expect((await env.secret.transactions.listForRecurringPayment(id)).items).toEqual([]);
    expect(await failureOf(env.secret.recurringPayments.get('RP-0'))).toMatchObject({ kind: 'notFound' });
  });
});

describe('payments sandbox: payment files and mandate agreements', () => {
  it('keeps an uploaded file with one batch, lists the files of the list window only, and serves its reports', async () => {
    const file = data(await env.secret.paymentFiles.upload({ fileName: 'pay-1.csv', content: 'a,b' } as never));
    const id = file.paymentFileId as string;
    expect(data(await env.secret.paymentFiles.get(id))).toMatchObject({ paymentFileId: id, fileName: 'pay-1.csv' });
    const batches = await env.secret.paymentBatches.listForPaymentFile(id);
    const batchId = (batches.items[0] as Fields).paymentBatchId as string;
    expect(data(await env.secret.paymentBatches.get(batchId))).toMatchObject({ paymentFileId: id });
    expect((await env.secret.transactions.listForPaymentBatch(batchId, { query: { status: 'Approved' } })).items).toEqual([]);
    expect((await env.secret.paymentFiles.listErrors(id)).items).toEqual([]);
    const { paymentFiles } = env.secret;
    for (const download of [paymentFiles.downloadCsv2Report, paymentFiles.downloadCsvReport, paymentFiles.downloadFlatFileReport, paymentFiles.downloadMtsRejectsReport]) {
      expect((await download(id)).status).toBe(200);
    }
    expect((await env.secret.paymentFiles.list()).items).toHaveLength(1);
    await env.sandbox.control.advanceClock({ ms: rules.paymentFiles.listWindowMs + 1 });
    expect((await env.secret.paymentFiles.list()).items).toEqual([]);
    expect(data(await env.secret.paymentFiles.get(id))).toMatchObject({ paymentFileId: id });
  });

  it('creates mandate agreements with and without a customer, changes them and finds them by their fields', async () => {
    const { customerId } = data(await env.secret.customers.create({ customerNumber: 'C', customerName: 'Ann' } as never));
    const own = data(await env.secret.mandateAgreements.createForCustomer(customerId, { agreementCreationType: 'X', reference: 'R1' } as never));
    const other = data(await env.secret.mandateAgreements.create({ reference: 'R2' } as never));
    expect(own).toMatchObject({ customerId, reference: 'R1' });
    expect(data(await env.secret.mandateAgreements.update(own.agreementToken, { reference: 'R1b' } as never))).toMatchObject({ reference: 'R1b', customerId });
    // The reference names no query parameter of this search; the typed client has none, so the request is sent raw.
    const found = await call(env.sandbox, 'GET', '/mandate-agreements?reference=R2');
    expect(found.json.data.map((a: Fields) => a.agreementToken)).toEqual([other.agreementToken]);
    expect((await env.secret.mandateAgreements.list()).items).toHaveLength(2);
    expect(await failureOf(env.secret.mandateAgreements.update('MA-0', {} as never))).toMatchObject({ kind: 'notFound' });
  });
});

describe('payments sandbox: the facility', () => {
  it('serves the facility, its businesses, the payment methods of the contract example and the card lookups', async () => {
    expect((await env.secret.facility.get()).status).toBe(200);
    expect((await env.secret.apiKeys.getLatest()).status).toBe(200);
    expect((await env.secret.businesses.list()).items).toEqual([expect.objectContaining({ supplierBusinessCode: 'TEST_BUSINESS' })]);
    expect(data(await env.secret.businesses.get('TEST_BUSINESS'))).toMatchObject({ supplierBusinessCode: 'TEST_BUSINESS' });
    expect(await failureOf(env.secret.businesses.get('NOPE'))).toMatchObject({ kind: 'notFound' });
    expect((await env.secret.paymentMethods.list()).items.map((m) => (m as Fields).methodCode)).toContain('DIRECT_ENTRY');
    expect((await env.secret.businesses.queryCardSurcharge('TEST_BUSINESS', { cardNumber: '4111111111111111' } as never)).status).toBe(200);
    expect((await env.secret.creditCards.getScheme('411111')).status).toBe(200);
    expect((await env.publishable.businesses.listAcceptedCards('TEST_BUSINESS')).status).toBe(200);
    expect((await env.publishable.businesses.listCardSurcharges('TEST_BUSINESS')).status).toBe(200);
  });
});
