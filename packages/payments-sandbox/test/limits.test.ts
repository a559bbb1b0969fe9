import { describe, expect, it } from 'vitest';
import { rules } from '@paykit/payments/rules';
import { loadPaymentsContract } from '../src/contract/contract.js';
import { call, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

const keyRule = loadPaymentsContract().document.components.parameters!.IdempotencyKey as { name: string; schema: { maxLength: number } };
const header = keyRule.name;
const customer = (n: string) => ({ customerNumber: `CUST-${n}`, customerName: `Customer ${n}` });

describe('payments sandbox: idempotency (Limits section)', () => {
  it('answers a resend with the same key with the original answer, and does the work once', async () => {
    const first = await call(env.sandbox, 'POST', '/customers', { body: customer('1'), headers: { [header]: 'key-1' } });
    const again = await call(env.sandbox, 'POST', '/customers', { body: customer('1'), headers: { [header]: 'key-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect((await call(env.sandbox, 'GET', '/customers?customerNumber=CUST-1')).json.data).toHaveLength(1);
  });

  it('compares only the key: a request to another endpoint gets the original answer', async () => {
    const first = await call(env.sandbox, 'POST', '/customers', { body: customer('2'), headers: { [header]: 'key-2' } });
    const other = await call(env.sandbox, 'POST', '/aliases', {
      body: { aliasAddress: 'invoice-2@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' },
      headers: { [header]: 'key-2' },
    });
    expect(other.status).toBe(201);
    expect(other.text).toBe(first.text);
    expect(other.json.customerNumber).toBe('CUST-2');
  });

  it('remembers an error answer too', async () => {
    const first = await call(env.sandbox, 'POST', '/customers', { body: { customerName: 'No number' }, headers: { [header]: 'key-3' } });
    const again = await call(env.sandbox, 'POST', '/customers', { body: customer('3'), headers: { [header]: 'key-3' } });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.text).toBe(first.text);
  });

  it('answers 429 to a resend while the original is still processing', async () => {
    await env.sandbox.control.changeSettings({ processingDelayMs: 300 });
    const both = await Promise.all([1, 2].map(() => call(env.sandbox, 'POST', '/customers', { body: customer('4'), headers: { [header]: 'key-4' } })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 429]);
    const original = both.find((r) => r.status === 201)!;
    // Once the original is done, the key gives its answer.
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('4'), headers: { [header]: 'key-4' } })).text).toBe(original.text);
  });

  it('forgets a key after the lifetime of the contract rules, on the sandbox clock', async () => {
    const first = await call(env.sandbox, 'POST', '/customers', { body: customer('5'), headers: { [header]: 'key-5' } });
    await env.sandbox.control.advanceClock({ ms: rules.idempotencyKey.lifetimeMs / 2 });
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('6'), headers: { [header]: 'key-5' } })).text).toBe(first.text);
    await env.sandbox.control.advanceClock({ ms: rules.idempotencyKey.lifetimeMs / 2 });
    const later = await call(env.sandbox, 'POST', '/customers', { body: customer('6'), headers: { [header]: 'key-5' } });
    expect(later.status).toBe(201);
    expect(later.json.customerNumber).toBe('CUST-6');
  });

  it('refuses a key longer than the contract allows with 400, and does nothing', async () => {
    const tooLong = 'k'.repeat(keyRule.schema.maxLength + 1);
    const response = await call(env.sandbox, 'POST', '/customers', { body: customer('7'), headers: { [header]: tooLong } });
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({ fieldName: header });
    expect((await call(env.sandbox, 'GET', '/customers')).json.data).toEqual([]);
    const longest = await call(env.sandbox, 'POST', '/customers', { body: customer('7'), headers: { [header]: tooLong.slice(1) } });
    expect(longest.status).toBe(201);
  });
});

describe('payments sandbox: concurrency (Limits section)', () => {
  it('answers 429 to the requests beyond the limit in flight at once', async () => {
    // Long enough that every request is in flight at once even on a busy machine (300 ms was not, under load).
    await env.sandbox.control.changeSettings({ processingDelayMs: 2000 });
    const limit = rules.concurrency.maxInFlight;
    const responses = await Promise.all(Array.from({ length: limit + 2 }, () => call(env.sandbox, 'GET', '/transactions')));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('answers 409 to two creations of one customer number at the same time', async () => {
    await env.sandbox.control.changeSettings({ processingDelayMs: 200 });
    const [a, b] = await Promise.all([call(env.sandbox, 'POST', '/customers', { body: customer('8') }), call(env.sandbox, 'POST', '/customers', { body: customer('8') })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    // One after the other, the number is simply taken: invalid content.
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('8') })).status).toBe(422);
  });
});

describe('payments sandbox: idempotency keys are scoped by the type of API key (our reading of the Limits section)', () => {
  const tokenBody = () => ({
    supplierBusinessCode: 'TEST_BUSINESS',
    accountType: 'CREDIT_CARD',
    cardholderName: 'Test Cardholder',
    cardNumber: '4111111111111111',
    expiryDateMonth: '12',
    expiryDateYear: String(new Date().getUTCFullYear() + 3),
  });

  it('a publishable-key caller reusing a secret-key request’s key gets its own answer, not the stored one', async () => {
    const secretAnswer = await call(env.sandbox, 'POST', '/customers', { body: customer('s1'), headers: { [header]: 'shared-1' } });
    expect(secretAnswer.status).toBe(201);
    const publishable = await call(env.sandbox, 'POST', '/single-use-tokens', { key: env.publishableKey, body: tokenBody(), headers: { [header]: 'shared-1' } });
    expect(publishable.status).toBe(200);
    expect(publishable.text).not.toContain('CUST-s1');
    expect(publishable.json.singleUseTokenId).toEqual(expect.any(String));
    // The secret side still gets its own answer back.
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('s1'), headers: { [header]: 'shared-1' } })).text).toBe(secretAnswer.text);
  });

  it('a publishable-key caller sending a key first does not block a later secret-key request with that key', async () => {
    const first = await call(env.sandbox, 'POST', '/single-use-tokens', { key: env.publishableKey, body: tokenBody(), headers: { [header]: 'shared-2' } });
    expect(first.status).toBe(200);
    const secret = await call(env.sandbox, 'POST', '/customers', { body: customer('s2'), headers: { [header]: 'shared-2' } });
    expect(secret.status).toBe(201);
    expect(secret.json.customerNumber).toBe('CUST-s2');
    expect((await call(env.sandbox, 'GET', '/customers?customerNumber=CUST-s2')).json.data).toHaveLength(1);
  });

  it('a key resent while a publishable-key request with it is processing is not refused to the secret key', async () => {
    await env.sandbox.control.changeSettings({ processingDelayMs: 300 });
    const [token, customerAnswer] = await Promise.all([
      call(env.sandbox, 'POST', '/single-use-tokens', { key: env.publishableKey, body: tokenBody(), headers: { [header]: 'shared-3' } }),
      call(env.sandbox, 'POST', '/customers', { body: customer('s3'), headers: { [header]: 'shared-3' } }),
    ]);
    expect([token.status, customerAnswer.status]).toEqual([200, 201]);
  });
});
