import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { errorFromResponse, type AnyPaymentsError } from '../src/errors/payments-error.js';
import { transactionOutcome } from '../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';

// The service's error body is JSON of its choosing: an error must honour its declared types whatever arrives.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Fails unless every field the error reads from the body has the type it is declared with. */
function expectTyped(error: AnyPaymentsError): void {
  expect(['string', 'undefined']).toContain(typeof error.customerMessage);
  expect(['string', 'undefined']).toContain(typeof error.developerMessage);
  expect(Array.isArray(error.fieldErrors)).toBe(true);
  for (const fieldError of error.fieldErrors) {
    expect(typeof fieldError).toBe('object');
    expect(['string', 'undefined']).toContain(typeof fieldError.fieldName);
    expect(['string', 'undefined']).toContain(typeof fieldError.fieldValue);
    if (fieldError.messages !== undefined) {
      expect(Array.isArray(fieldError.messages)).toBe(true);
      for (const message of fieldError.messages) expect(typeof message).toBe('string');
    }
  }
  expect(typeof error.message).toBe('string');
  expect(error.message).not.toContain('[object Object]');
  expect(() => JSON.stringify(error)).not.toThrow();
}

describe('error bodies of any shape', () => {
  it.each([
    { label: 'errors as a string', body: { errors: 'amount is wrong' }, fieldErrors: [] },
    { label: 'errors as an object', body: { errors: { fieldName: 'amount' } }, fieldErrors: [] },
    {
      label: 'errors with items of every type',
      body: { errors: [null, 1, 'x', [], { fieldName: 5, fieldValue: 12.5, messages: 'too big' }, { fieldName: 'currency', messages: ['bad', 7] }] },
      fieldErrors: [{ fieldValue: '12.5' }, { fieldName: 'currency', messages: ['bad'] }],
    },
    { label: 'messages of other types', body: { customerMessage: 42, developerMessage: { text: 'no' } }, fieldErrors: [] },
    { label: 'an array', body: [{ errors: [] }], fieldErrors: [] },
    { label: 'text', body: 'Bad Gateway', fieldErrors: [] },
  ])('a 422 whose body is $label gives an error of the declared types', async ({ body, fieldErrors }) => {
    server = await startLoopbackServer((_request, res) => json(res, 422, body));
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(error.kind).toBe('validation');
    expectTyped(error);
    expect(error.fieldErrors).toEqual(fieldErrors);
  });

  it('keeps the properties the service may add to a field error within v1, well formed or not', async () => {
    const errors = [
      { fieldName: 'amount', messages: ['too big'], severity: 'high' },
      { fieldName: 7, messages: ['bad', 1], hint: { see: 'docs' } },
    ];
    server = await startLoopbackServer((_request, res) => json(res, 422, { errors }));
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(error.fieldErrors).toEqual([errors[0], { messages: ['bad'], hint: { see: 'docs' } }]);
  });

  it('keeps what is well formed', async () => {
    const body = { customerMessage: 'Check the amount.', developerMessage: 'principalAmount: too many decimals', errors: [{ fieldName: 'principalAmount', fieldValue: '1.001', messages: ['invalid'] }] };
    server = await startLoopbackServer((_request, res) => json(res, 422, body));
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect(error.customerMessage).toBe(body.customerMessage);
    expect(error.developerMessage).toBe(body.developerMessage);
    expect(error.fieldErrors).toEqual(body.errors);
    expect(error.message).toContain(body.developerMessage);
  });

  it('any JSON body, and any JSON in its fields, on any status (fast-check)', () => {
    const fields = fc.record({ customerMessage: fc.jsonValue(), developerMessage: fc.jsonValue(), errors: fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue())) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fields), fc.integer({ min: 300, max: 599 }), (body, status) => {
        expectTyped(errorFromResponse({ status, method: 'POST', url: 'https://api.example.test/rest/v1/x', body, idempotencyKey: undefined, attempts: 1 }));
      }),
      { numRuns: 500 },
    );
  });
});

describe('transaction answers of any shape', () => {
  it.each([{ status: 7 }, { status: null }, { status: ['Pending'] }, 'text', null])('%j is undetermined and does not throw', (data) => {
    expect(transactionOutcome({ status: 201, data: data as never })).toBe('undetermined');
  });
});
