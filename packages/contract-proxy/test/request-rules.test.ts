import { describe, expect, it } from 'vitest';
import { rules } from '@paykit/payments/rules';
import { matchOperation, RequestRules, type ReceivedRequest } from '../src/index.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

function request(method: string, headers: Record<string, string>, json?: unknown): ReceivedRequest {
  return { method, headers, query: new URLSearchParams(), json };
}

const payment = { transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
const good = { accept: 'application/json', authorization: basic('sk_1'), 'idempotency-key': 'k-1' };

describe('operation matching from the generated operation tables', () => {
  it.each([
    ['POST', '/transactions', 'createTransaction', 'secret'],
    ['GET', '/transactions/suspended', 'listSuspendedTransactions', 'secret'],
    ['GET', '/transactions/123', 'getTransaction', 'secret'],
    ['POST', '/single-use-tokens', 'createSingleUseToken', 'publishable'],
  ])('%s %s is %s (%s key)', (method, path, id, keyType) => {
    expect(matchOperation(method, path)).toMatchObject({ id, keyType });
  });

  it('a path outside the contract matches nothing', () => {
    expect(matchOperation('GET', '/no-such-resource')).toBeUndefined();
  });
});

describe('our x-paykit rules on one request', () => {
  const create = matchOperation('POST', '/transactions')!;
  type Row = { name: string; headers: Record<string, string>; json?: unknown; rules: string[] };
  const rows: Row[] = [
    { name: 'a correct payment', headers: good, json: payment, rules: [] },
    { name: 'no Idempotency-Key', headers: { ...good, 'idempotency-key': undefined as never }, json: payment, rules: ['idempotency-key'] },
    { name: 'Accept text/html', headers: { ...good, accept: 'text/html' }, json: payment, rules: ['accept'] },
    { name: 'Accept application/json refused by q=0', headers: { ...good, accept: 'application/json;q=0' }, json: payment, rules: ['accept'] },
    { name: 'Accept */*', headers: { ...good, accept: '*/*' }, json: payment, rules: [] },
    { name: 'from a browser page', headers: { ...good, origin: 'https://shop.example' }, json: payment, rules: ['secret-key-from-browser'] },
    { name: '3 decimal places', headers: good, json: { ...payment, principalAmount: 10.001 }, rules: ['decimal-places'] },
    { name: 'floating-point error only (0.1 + 0.2)', headers: good, json: { ...payment, principalAmount: 0.1 + 0.2 }, rules: [] },
    { name: 'a declared publishable key', headers: { ...good, authorization: basic('pk_1') }, json: payment, rules: ['key-type'] },
  ];
  it.each(rows)('$name', ({ headers, json, rules: expected }) => {
    const checker = new RequestRules({ publishableKeys: ['pk_1'] });
    const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
    const found = checker.check(request('POST', clean, json), create);
    expect(found.map((v) => v.rule)).toEqual(expected);
    // Nothing of the request's values is copied into a violation.
    expect(JSON.stringify(found)).not.toContain('sk_1');
  });

  it('names the field of a decimal-places violation', () => {
    const found = new RequestRules().check(request('POST', good, { ...payment, principalAmount: 1.234 }), create);
    expect(found).toEqual([expect.objectContaining({ rule: 'decimal-places', location: 'body.principalAmount', operation: 'createTransaction' })]);
  });

  it('learns a key’s type from an answer the service gave, and names it on the other type', () => {
    const checker = new RequestRules();
    const token = matchOperation('POST', '/single-use-tokens')!;
    const secretCall = request('GET', { accept: 'application/json', authorization: basic('sk_learned') });
    const list = matchOperation('GET', '/transactions')!;
    expect(checker.check(secretCall, list)).toEqual([]);
    checker.answered(secretCall, list, 200);
    const wrong = checker.check(request('POST', { ...good, authorization: basic('sk_learned') }), token);
    expect(wrong.map((v) => [v.rule, v.location])).toEqual([['key-type', 'header.Authorization']]);
  });

  it('a key refused by the service (401) teaches nothing', () => {
    const checker = new RequestRules();
    const list = matchOperation('GET', '/transactions')!;
    const call = request('GET', { accept: 'application/json', authorization: basic('sk_x') });
    checker.answered(call, list, 401);
    expect(checker.check(request('POST', { ...good, authorization: basic('sk_x') }), matchOperation('POST', '/single-use-tokens')!)).toEqual([]);
  });
});

describe('the waits between resends of one Idempotency-Key (rules.retry, rules.mustNotResend)', () => {
  const create = matchOperation('POST', '/transactions')!;
  type Row = { previous: number | 'network-error'; waitedMs: number; rule: string | undefined };
  const rows: Row[] = [
    { previous: 503, waitedMs: 1000, rule: 'retry-wait' },
    { previous: 429, waitedMs: rules.retry.waitMs - 1, rule: 'retry-wait' },
    { previous: 'network-error', waitedMs: 5, rule: 'retry-wait' },
    { previous: 503, waitedMs: rules.retry.waitMs, rule: undefined },
    { previous: 500, waitedMs: rules.retry.waitMs * 10, rule: 'resend-after-500' },
    { previous: 201, waitedMs: 0, rule: undefined },
  ];
  it.each(rows)('a resend $waitedMs ms after $previous: $rule', ({ previous, waitedMs, rule }) => {
    let now = 1_000_000;
    const checker = new RequestRules({ now: () => now });
    const sent = request('POST', good, payment);
    expect(checker.check(sent, create)).toEqual([]);
    checker.answered(sent, create, previous);
    now += waitedMs;
    const found = checker.check(sent, create).map((v) => v.rule);
    expect(found).toEqual(rule ? [rule] : []);
  });
});
