import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { readFileSync } from 'node:fs';
import { call, phasesOf, sandboxPerTest, tally } from './support.js';

const env = sandboxPerTest();

// The rule as the bundled spec states it (the sandbox itself reads no spec at run time).
const spec = JSON.parse(readFileSync(new URL('../dist/specs/payments.json', import.meta.url), 'utf8')) as { components: { parameters: Record<string, unknown> } };
const keyRule = spec.components.parameters.IdempotencyKey as { name: string; schema: { maxLength: number } };
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
    const hold = phasesOf(env.sandbox).hold('processing');
    const pending = call(env.sandbox, 'POST', '/customers', { body: customer('4'), headers: { [header]: 'key-4' } });
    await hold.untilArrived(1);
    // The original is held in its processing: the resend comes while it is still under way.
    const resend = await call(env.sandbox, 'POST', '/customers', { body: customer('4'), headers: { [header]: 'key-4' } });
    expect(resend.status).toBe(429);
    expect(hold.arrived, 'the resend did no work of its own').toHaveLength(1);
    hold.release();
    const original = await pending;
    expect(original.status).toBe(201);
    // Once the original is done, the key gives its answer.
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('4'), headers: { [header]: 'key-4' } })).text).toBe(original.text);
  });

  it('holds a request for processingDelayMs on the processing timer, and no longer once it is 0', async () => {
    // The test's clock: each wait is kept until the test ends it.
    const waits: { ms: number; done: () => void }[] = [];
    let called!: () => void;
    const firstWait = new Promise<void>((resolve) => (called = resolve));
    phasesOf(env.sandbox).timer = (ms) => new Promise<void>((done) => (waits.push({ ms, done }), called()));
    await env.sandbox.control.changeSettings({ processingDelayMs: 250 });
    let answered = false;
    const pending = call(env.sandbox, 'GET', '/transactions').then((response) => ((answered = true), response));
    await firstWait;
    expect(waits.map((w) => w.ms)).toEqual([250]);
    expect(answered, 'no answer while the delay runs').toBe(false);
    waits[0]!.done();
    expect((await pending).status).toBe(200);
    await env.sandbox.control.changeSettings({ processingDelayMs: 0 });
    expect((await call(env.sandbox, 'GET', '/transactions')).status).toBe(200);
    expect(waits, 'no delay at 0').toHaveLength(1);
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
    const limit = rules.concurrency.maxInFlight;
    const hold = phasesOf(env.sandbox).hold('processing');
    const answers = tally(Array.from({ length: limit + 2 }, () => call(env.sandbox, 'GET', '/transactions').then((r) => r.status)));
    // `limit` requests in flight at once, held in their processing; the two beyond them are answered meanwhile.
    await hold.untilArrived(limit);
    expect(await answers.until(2)).toEqual([429, 429]);
    expect(hold.arrived).toHaveLength(limit);
    hold.release();
    const statuses = await answers.until(limit + 2);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('answers 409 to two creations of one customer number at the same time', async () => {
    const hold = phasesOf(env.sandbox).hold('processing');
    const first = call(env.sandbox, 'POST', '/customers', { body: customer('8') });
    await hold.untilArrived(1);
    // The first creation is held while it holds the number: the second comes at the same time.
    expect((await call(env.sandbox, 'POST', '/customers', { body: customer('8') })).status).toBe(409);
    hold.release();
    expect((await first).status).toBe(201);
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
    const hold = phasesOf(env.sandbox).hold('processing', (visit) => visit.operationId === 'createSingleUseToken');
    const token = call(env.sandbox, 'POST', '/single-use-tokens', { key: env.publishableKey, body: tokenBody(), headers: { [header]: 'shared-3' } });
    await hold.untilArrived(1);
    // The publishable-key request holds 'shared-3' in its own scope while this one comes.
    const customerAnswer = await call(env.sandbox, 'POST', '/customers', { body: customer('s3'), headers: { [header]: 'shared-3' } });
    expect(customerAnswer.status).toBe(201);
    hold.release();
    expect((await token).status).toBe(200);
  });
});
