import { describe, expect, it } from 'vitest';
import { createPublishableClient, createSecretClient, isPaymentsError, type components, type PaymentsClientOptions, type PaymentsErrorKind } from '@paykit/payments';
import { exampleRequests } from '../src/example-request.js';
import { listOperations, loadContract } from '../src/openapi-document.js';
import { testKeys } from '../src/payments-invoker.js';
import { sharedPrism } from './support/mocks.js';

/**
 * How the payments client behaves against the real Prism CLI serving the bundled payments spec: Prism checks the
 * requests (security, parameters, bodies) and answers from the spec's examples. These tests lived in the payments
 * package, which then needed @paykit/mock-server while the mock server needs @paykit/payments: here they need
 * neither package to depend on the other.
 */

/** The spec's own example of a payment from a single-use token (the first request example of createTransaction). */
const paymentsDocument = loadContract('payments');
const createTransaction = listOperations(paymentsDocument).find((operation) => operation.operationId === 'createTransaction')!;
const paymentRequest = exampleRequests(paymentsDocument, createTransaction)[0]!.body as components['schemas']['TransactionRequest'];

const secretClient = (baseUrl: string, options: Partial<PaymentsClientOptions> = {}) =>
  createSecretClient({ apiKey: testKeys.secretKey, baseUrl, retry: { delayMs: 5 }, ...options });
const mock = sharedPrism('payments');

const client = () => secretClient(mock.url, { retry: { maxRetries: 0 } });
const publishable = () => createPublishableClient({ apiKey: testKeys.publishableKey, baseUrl: mock.url });

describe('secret-key operations against Prism', () => {
  it.each([
    { call: 'facility.get', run: () => client().facility.get() },
    { call: 'apiKeys.getLatest', run: () => client().apiKeys.getLatest() },
    { call: 'businesses.get', run: () => client().businesses.get('TEST_BUSINESS') },
    { call: 'transactions.get', run: () => client().transactions.get('1000000001') },
    { call: 'transactions.create', run: () => client().transactions.create(paymentRequest) },
    { call: 'transactions.void', run: () => client().transactions.void('1000000001') },
    { call: 'customers.search', run: () => client().customers.search({ query: { customerNumber: 'CUST-0042' } }) },
    { call: 'customers.create', run: () => client().customers.create({ customerNumber: 'CUST-0042', customerName: 'Test Customer' }) },
    { call: 'customers.get', run: () => client().customers.get('CUST-ID-1') },
    { call: 'aliases.get', run: () => client().aliases.get('alias-1') },
    {
      call: 'aliases.register',
      run: () => client().aliases.register({ aliasAddress: 'Invoice-1001@Pay.Example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }),
    },
    { call: 'aliases.listForCustomer', run: () => client().aliases.listForCustomer('CUST-ID-1') },
    { call: 'creditCards.getScheme', run: () => client().creditCards.getScheme('411111') },
    { call: 'paymentMethods.list', run: () => client().paymentMethods.list() },
    { call: 'paymentFiles.list', run: () => client().paymentFiles.list() },
    { call: 'paymentFiles.downloadCsvReport', run: () => client().paymentFiles.downloadCsvReport('file-1') },
    { call: 'mandateAgreements.list', run: () => client().mandateAgreements.list() },
  ])('$call answers with a success status and a body', async ({ run }) => {
    const result = await run();
    expect(result.status).toBeGreaterThanOrEqual(200);
    expect(result.status).toBeLessThan(300);
    if (result.status !== 204) expect(result.data).toBeTruthy();
  });

  it('returns the idempotency key it sent with a POST', async () => {
    const result = await client().transactions.create(paymentRequest, { idempotencyKey: 'order-77' });
    expect(result.idempotencyKey).toBe('order-77');
    expect(result.status).toBe(201);
  });

  it('serves the CSV report as text', async () => {
    const result = await client().transactions.list({ accept: 'text/csv' });
    expect(typeof result.data).toBe('string');
  });
});

describe('publishable-key operations against Prism', () => {
  it('creates a single-use token and reads the card lists of a business', async () => {
    const token = await publishable().singleUseTokens.create({
      supplierBusinessCode: 'TEST_BUSINESS',
      accountType: 'CREDIT_CARD',
      cardNumber: '4111111111111111',
      expiryDateMonth: '12',
      expiryDateYear: '2029',
    });
    expect(token.data.singleUseTokenId).toBeTruthy();
    expect((await publishable().businesses.listAcceptedCards('TEST_BUSINESS')).status).toBe(200);
    expect((await publishable().businesses.listCardSurcharges('TEST_BUSINESS')).status).toBe(200);
  });
});

describe('pagination against Prism', () => {
  // Prism answers every list request with the spec's static example. That example is a last page (no next link): a
  // next link there would lead the iterator back to the same items on every page. Following and re-basing links is
  // covered against the sandbox and by the client's own tests.
  it('walks the example list to its end: its items once, one request, no cycle', async () => {
    const seen: string[] = [];
    const paged = secretClient(mock.url, { onRequest: (r) => seen.push(r.url) });
    const first = await paged.transactions.list();
    expect(first.hasNextPage).toBe(false);
    expect(first.items.length).toBeGreaterThan(0);
    const items: unknown[] = [];
    for await (const item of first.all({ limit: 100 })) items.push(item);
    expect(items).toEqual(first.items);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([`${mock.url}/transactions`]);
  });
});

describe('every error kind from the service', () => {
  const create = (prefer: string) =>
    client().customers.create({ customerNumber: 'CUST-0042', customerName: 'Test Customer' }, { headers: { Prefer: prefer } });
  const get = (prefer: string) => client().customers.get('CUST-ID-1', { headers: { Prefer: prefer } });
  it.each([
    { code: 401, kind: 'authentication', call: create },
    { code: 403, kind: 'permission', call: create },
    { code: 404, kind: 'notFound', call: get },
    { code: 409, kind: 'conflict', call: create },
    { code: 422, kind: 'validation', call: create },
    { code: 429, kind: 'rateLimit', call: create },
    { code: 500, kind: 'server', call: create },
    { code: 502, kind: 'server', call: create },
    { code: 503, kind: 'server', call: create },
    { code: 504, kind: 'server', call: create },
    { code: 400, kind: 'request', call: create },
    { code: 406, kind: 'request', call: get },
  ] as { code: number; kind: PaymentsErrorKind; call: typeof get }[])('$code becomes a PaymentsError of kind $kind', async ({ code, kind, call }) => {
    const error = await call(`code=${code}`).catch((e: unknown) => e);
    expect(isPaymentsError(error)).toBe(true);
    if (!isPaymentsError(error)) return;
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(code);
    expect(error.developerMessage).toBeTruthy();
    if (call === create) {
      expect(error.method).toBe('POST');
      expect(error.url).toBe(`${mock.url}/customers`);
      expect(error.idempotencyKey).toBeTruthy();
    } else {
      expect(error.url).toBe(`${mock.url}/customers/CUST-ID-1`);
      expect(error.idempotencyKey).toBeUndefined();
    }
  });

  it('carries the typed field errors of a 422', async () => {
    const error = await client()
      .aliases.register({ aliasAddress: 'a@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' }, { headers: { Prefer: 'code=422' } })
      .catch((e: unknown) => e);
    expect(isPaymentsError(error) && error.kind === 'validation' && error.fieldErrors.length).toBeGreaterThan(0);
  });

  it('lets Prism refuse what the client checks would have refused first', async () => {
    const invalid = { customerName: 'No number' } as never;
    const checked = await client().customers.create(invalid).catch((e: unknown) => e);
    expect(isPaymentsError(checked) && checked.kind).toBe('input');
    const unchecked = await secretClient(mock.url, { check: false, retry: { maxRetries: 0 } }).customers.create(invalid).catch((e: unknown) => e);
    expect(isPaymentsError(unchecked) && unchecked.status).toBeGreaterThanOrEqual(400);
  });
});
