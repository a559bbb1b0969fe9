import { contractValidator, paymentsContract } from '@paykit/contract-validation';
import { describe, expect, it } from 'vitest';
import { RequestRules, type ReceivedRequest } from '../src/request-rules.js';

const payments = contractValidator('payments');
const rules = paymentsContract.rules;
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const operation = (method: string, path: string) => {
  const matched = payments.match(method, path);
  if (!matched) throw new Error(`${method} ${path} is no operation`);
  return matched;
};
const request = (method: string, headers: Record<string, string>, json?: unknown): ReceivedRequest => ({ method, headers, json });

const payment = { transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 10, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
const good = { accept: 'application/json', authorization: basic('sk_1'), 'idempotency-key': 'k-1' };
const create = operation('POST', '/transactions');

describe('our x-paykit rules on one request', () => {
  type Row = { name: string; headers: Record<string, string | undefined>; rules: string[] };
  const rows: Row[] = [
    { name: 'a correct payment', headers: good, rules: [] },
    { name: 'no Idempotency-Key', headers: { ...good, 'idempotency-key': undefined }, rules: ['idempotency-key'] },
    { name: 'no Accept', headers: { ...good, accept: undefined }, rules: ['accept'] },
    { name: 'Accept text/html', headers: { ...good, accept: 'text/html' }, rules: ['accept'] },
    { name: 'Accept application/json refused by q=0', headers: { ...good, accept: 'application/json;q=0' }, rules: ['accept'] },
    { name: 'Accept */*', headers: { ...good, accept: '*/*' }, rules: [] },
    { name: 'from a browser page', headers: { ...good, origin: 'https://shop.example' }, rules: ['secret-key-from-browser'] },
    { name: 'a declared publishable key', headers: { ...good, authorization: basic('pk_1') }, rules: ['key-type'] },
  ];
  it.each(rows)('$name', ({ headers, rules: expected }) => {
    const checker = new RequestRules({ publishableKeys: ['pk_1'] });
    const clean = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const { findings } = checker.check(request('POST', clean, payment), create);
    expect(findings.map((finding) => finding.rule)).toEqual(expected);
    // Nothing of the request's values is copied into a finding.
    expect(JSON.stringify(findings)).not.toContain('sk_1');
    for (const finding of findings) expect(finding.source).toMatch(/^(#\/|x-paykit-rules\.)/);
  });

  it('learns a key’s type from an answer the service gave, and names it on the other type; the recording gets its alias only', () => {
    const checker = new RequestRules();
    const list = operation('GET', '/transactions');
    const first = checker.check(request('GET', { accept: 'application/json', authorization: basic('sk_learned') }), list);
    expect(first.findings).toEqual([]);
    expect(first.ticket.key).toEqual({ alias: 'key-1' });
    checker.answered(first.ticket, list, 200, undefined);
    expect(first.ticket.key).toEqual({ alias: 'key-1', type: 'secret' });
    const wrong = checker.check(request('POST', { ...good, authorization: basic('sk_learned') }), operation('POST', '/single-use-tokens'));
    expect(wrong.findings.map((finding) => [finding.rule, finding.location])).toEqual([['key-type', 'header.Authorization']]);
    expect(wrong.ticket.key).toEqual({ alias: 'key-1', type: 'secret' });
  });

  it('a key refused by the service (401) teaches nothing', () => {
    const checker = new RequestRules();
    const list = operation('GET', '/transactions');
    const refused = checker.check(request('GET', { accept: 'application/json', authorization: basic('sk_x') }), list);
    checker.answered(refused.ticket, list, 401, undefined);
    expect(checker.check(request('POST', { ...good, authorization: basic('sk_x') }), operation('POST', '/single-use-tokens')).findings).toEqual([]);
  });
});

describe('the waits and queries between resends of one Idempotency-Key (x-paykit-rules retry, mustNotResend, mustQueryState)', () => {
  type Row = { previous: number | 'network-error'; waitedMs: number; queried?: boolean; rule: string | undefined };
  const rows: Row[] = [
    { previous: 503, waitedMs: 1000, rule: 'retry-wait' },
    { previous: 429, waitedMs: rules.retry.waitMs - 1, rule: 'retry-wait' },
    { previous: 'network-error', waitedMs: 5, rule: 'retry-wait' },
    { previous: 503, waitedMs: rules.retry.waitMs, rule: undefined },
    { previous: 500, waitedMs: rules.retry.waitMs * 10, rule: 'resend-after-500' },
    { previous: 504, waitedMs: rules.retry.waitMs * 10, rule: 'query-state-first' },
    { previous: 502, waitedMs: 0, queried: true, rule: undefined },
    { previous: 201, waitedMs: 0, rule: undefined },
  ];
  it.each(rows)('a resend $waitedMs ms after $previous (queried first: $queried): $rule', ({ previous, waitedMs, queried, rule }) => {
    let now = 1_000_000;
    const checker = new RequestRules({ now: () => now });
    const sent = request('POST', good, payment);
    const first = checker.check(sent, create);
    expect(first.findings).toEqual([]);
    checker.answered(first.ticket, create, previous, undefined);
    now += waitedMs;
    if (queried) {
      const look = checker.check(request('GET', { accept: 'application/json', authorization: basic('sk_1') }), operation('GET', '/transactions'));
      checker.answered(look.ticket, operation('GET', '/transactions'), 200, undefined);
    }
    expect(checker.check(sent, create).findings.map((finding) => finding.rule)).toEqual(rule ? [rule] : []);
  });
});

describe('the session rules that count (x-paykit-rules concurrency, singleUseTokens)', () => {
  it(`names the request beyond ${rules.concurrency.maxInFlight} in flight with one key, and none once one is answered`, () => {
    const checker = new RequestRules();
    const list = operation('GET', '/transactions');
    const look = () => checker.check(request('GET', { accept: 'application/json', authorization: basic('sk_busy') }), list);
    const tickets = Array.from({ length: rules.concurrency.maxInFlight }, () => {
      const checked = look();
      expect(checked.findings).toEqual([]);
      return checked.ticket;
    });
    const over = look();
    expect(over.findings.map((finding) => finding.rule)).toEqual(['concurrency']);
    checker.answered(over.ticket, list, 200, undefined);
    checker.answered(tickets[0]!, list, 200, undefined);
    expect(look().findings).toEqual([]);
  });

  it('names a single-use token used after its lifetime, learnt from the answer that created it', () => {
    let now = 5_000_000;
    const checker = new RequestRules({ now: () => now });
    const tokens = operation('POST', '/single-use-tokens');
    const created = checker.check(request('POST', { ...good, authorization: basic('pk_2') }, {}), tokens);
    checker.answered(created.ticket, tokens, 200, { singleUseTokenId: 'tok-1' });
    const use = () => checker.check(request('POST', { ...good, 'idempotency-key': `k-${now}` }, { ...payment, singleUseTokenId: 'tok-1' }), create).findings;
    now += rules.singleUseTokens.lifetimeMs;
    expect(use()).toEqual([]);
    now += 1;
    expect(use()).toEqual([expect.objectContaining({ rule: 'single-use-token-expired', location: 'body.singleUseTokenId', source: 'x-paykit-rules.singleUseTokens' })]);
  });

  it('a refused request holds no place in flight and leaves no resend to wait for', () => {
    const checker = new RequestRules();
    const sent = request('POST', good, payment);
    for (let i = 0; i < rules.concurrency.maxInFlight * 2; i++) {
      const checked = checker.check(sent, create);
      expect(checked.findings).toEqual([]);
      checker.refused(checked.ticket);
    }
  });
});
