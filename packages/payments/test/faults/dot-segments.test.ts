import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failure, secretClient } from '../support/fixtures.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { createRawClient } from '../../src/raw.js';

// Fault row "`.` or `..` as a path parameter": URLs resolve dot segments, so `/customers/../aliases` is `/aliases`
// (registering an alias that creates a customer) and `/transactions/.` is the list. Both are refused before sending,
// by the methods and by the raw client; anything else that merely contains dots goes, encoded, to the resource meant.

let service: LoopbackServer;
beforeAll(async () => {
  service = await startLoopbackServer((_request, res) => json(res, 200, { receiptNumber: '1', id: 'a-1', links: [], data: [] }));
});
afterAll(() => service.close());
afterEach(() => {
  service.requests.length = 0;
});

const registration = { aliasAddress: 'invoice-1@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as const;

describe('a dot segment as a path parameter is refused before sending', () => {
  it.each([
    { call: "aliases.registerForCustomer('..')", run: () => secretClient(service.url).aliases.registerForCustomer('..', registration), name: 'customerId' },
    { call: "transactions.get('.')", run: () => secretClient(service.url).transactions.get('.'), name: 'receiptNumber' },
    {
      call: "raw POST /customers/{customerId}/aliases with '..'",
      run: () => createRawClient(secretClient(service.url)).POST('/customers/{customerId}/aliases', { params: { path: { customerId: '..' } }, body: registration }),
      name: 'customerId',
    },
    {
      call: "raw GET /transactions/{receiptNumber} with '.'",
      run: () => createRawClient(secretClient(service.url)).GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '.' } } }),
      name: 'receiptNumber',
    },
  ])('$call: an input error naming the parameter, nothing sent', async ({ run, name }) => {
    const error = await failure(run() as Promise<unknown>);
    expect(error.kind).toBe('input');
    expect(error.fieldErrors.map((f) => f.fieldName)).toEqual([name]);
    expect(service.requests).toHaveLength(0);
  });
});

describe('values that only contain dots go where they are meant', () => {
  it.each(['...', 'a..b', '.hidden', '%2e%2e'])('%s', async (value) => {
    await secretClient(service.url).transactions.get(value);
    await createRawClient(secretClient(service.url)).GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: value } } });
    expect(service.requests.map((r) => r.url)).toEqual(Array(2).fill(`/rest/v1/transactions/${encodeURIComponent(value)}`));
  });
});
