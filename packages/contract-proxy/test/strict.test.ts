import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paymentsContract } from '@paykit/contract-validation';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startContractProxy, type ContractProxy, type Violation } from '../src/index.js';
import { cardTokenRequest, paymentRequest, send, type Sent } from './support/merchant.js';
import { startWitness, type Witness } from './support/witness.js';

// --strict: a request that breaks the contract is answered 422 by the proxy and never reaches the service. One
// request per kind of schema violation and one per x-paykit rule, each checked against what the service received
// (a witness in front of the real sandbox).

const sandbox = inject('sandbox');
const accept = { accept: 'application/json' };

interface Context {
  proxy: ContractProxy;
  witness: Witness;
  /** A fresh single-use token, made on the sandbox directly. */
  token: () => Promise<string>;
  /** Moves the proxy's clock. */
  advance: (ms: number) => void;
  /** A request through the proxy, marked as the row's own (`x-test-row`). */
  send: (row: string, method: string, path: string, init?: { key?: string; headers?: Record<string, string>; body?: unknown }) => Promise<Sent>;
}

interface Row {
  name: string;
  rule: string;
  location: string;
  /** What comes first (answered by the service), then the request that must be refused. */
  run: (context: Context, row: string) => Promise<Sent>;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}, key = sandbox.secretKey) => ({
  method: 'POST',
  path,
  key,
  headers: { ...accept, 'idempotency-key': `strict-${Math.random()}`, ...headers },
  body,
});
const simple =
  (request: ReturnType<typeof post> | { method: string; path: string; key?: string; headers?: Record<string, string>; body?: unknown }) =>
  (context: Context, row: string) =>
    context.send(row, request.method, request.path, request);
const token = (extra: Record<string, unknown>, without?: string) => {
  const body: Record<string, unknown> = cardTokenRequest('4111111111111111', extra);
  if (without) delete body[without];
  return post('/single-use-tokens', body, {}, sandbox.publishableKey);
};
const threeDS = (extra: Record<string, unknown>) => async (context: Context, row: string) => {
  const id = await context.token();
  const request = post(`/single-use-tokens/${id}/three-ds2-authentication`, { messageCategory: '01', threeDSRequestorAuthenticationInd: '01', currency: 'AUD', ...extra });
  return context.send(row, request.method, request.path, request);
};
/** A first request answered with `status` by the service, then the same Idempotency-Key at once. */
const resendAfter = (status: number) => async (context: Context, row: string) => {
  const id = await context.token();
  const request = post('/transactions', paymentRequest(id), { 'idempotency-key': `resend-after-${status}` });
  context.witness.failNext(status);
  expect((await context.send(`${row}-first`, request.method, request.path, request)).status).toBe(status);
  return context.send(row, request.method, request.path, request);
};

const schemaRows: Row[] = [
  { name: 'a required field missing', rule: 'openapi:required', location: 'body.cardNumber', run: simple(token({}, 'cardNumber')) },
  { name: 'a field the schema does not allow', rule: 'openapi:additionalProperties', location: 'body.surprise', run: threeDS({ surprise: 1 }) },
  { name: 'a value that breaks its pattern', rule: 'openapi:pattern', location: 'body.cardNumber', run: simple(token({ cardNumber: '4111x' })) },
  { name: 'a value of the wrong type', rule: 'openapi:type', location: 'body.expiryDateMonth', run: simple(token({ expiryDateMonth: 12 })) },
  { name: 'a value outside its enum', rule: 'openapi:enum', location: 'body.accountType', run: simple(token({ accountType: 'CHEQUE' })) },
  { name: 'a value too short', rule: 'openapi:minLength', location: 'body.supplierBusinessCode', run: simple(token({ supplierBusinessCode: '' })) },
  { name: 'a value too long', rule: 'openapi:maxLength', location: 'body.email', run: threeDS({ email: `${'a'.repeat(250)}@x.example` }) },
  { name: 'a header parameter too long', rule: 'openapi:maxLength', location: 'header.Idempotency-Key', run: simple(post('/transactions', paymentRequest('t'), { 'idempotency-key': 'k'.repeat(61) })) },
  { name: 'a body that is not JSON', rule: 'openapi:body', location: 'body', run: simple(post('/transactions', '{"transactionType":', { 'content-type': 'application/json' })) },
  { name: 'no body where one is required', rule: 'openapi:required', location: 'body', run: simple({ method: 'POST', path: '/transactions', key: sandbox.secretKey, headers: { ...accept, 'idempotency-key': 'no-body' } }) },
  { name: 'a body of a media type the operation does not take', rule: 'openapi:content-type', location: 'header.Content-Type', run: simple(post('/transactions', 'amount=10', { 'content-type': 'application/x-www-form-urlencoded' })) },
  { name: 'no credentials', rule: 'openapi:security', location: 'header.Authorization', run: simple({ method: 'GET', path: '/transactions', headers: accept }) },
  { name: 'a path the contract does not have', rule: 'openapi:operation', location: 'path', run: simple({ method: 'GET', path: '/no-such-resource', key: sandbox.secretKey, headers: accept }) },
];

const paykitRows: Row[] = [
  { name: 'an amount with more decimal places than it takes (x-paykit-decimal-places)', rule: 'decimal-places', location: 'body.principalAmount', run: async (context, row) => {
    const request = post('/transactions', paymentRequest(await context.token(), 10.001));
    return context.send(row, request.method, request.path, request);
  } },
  { name: 'a POST without Idempotency-Key (retry)', rule: 'idempotency-key', location: 'header.Idempotency-Key', run: simple({ method: 'POST', path: '/transactions', key: sandbox.secretKey, headers: accept, body: paymentRequest('t') }) },
  { name: 'an Accept the operation cannot answer', rule: 'accept', location: 'header.Accept', run: simple({ method: 'GET', path: '/transactions', key: sandbox.secretKey, headers: { accept: 'text/html' } }) },
  { name: 'a declared publishable key on a secret-key operation', rule: 'key-type', location: 'header.Authorization', run: simple(post('/transactions', paymentRequest('t'), {}, sandbox.publishableKey)) },
  { name: 'a secret-key operation from a browser page', rule: 'secret-key-from-browser', location: 'header.Origin', run: simple({ method: 'GET', path: '/transactions', key: sandbox.secretKey, headers: { ...accept, origin: 'https://shop.example' } }) },
  { name: 'a resend at once after a 503 (retry)', rule: 'retry-wait', location: 'header.Idempotency-Key', run: resendAfter(503) },
  { name: 'a resend after a 500 (mustNotResend)', rule: 'resend-after-500', location: 'header.Idempotency-Key', run: resendAfter(500) },
  { name: 'a resend after a 504 with no query first (mustQueryState)', rule: 'query-state-first', location: 'header.Idempotency-Key', run: resendAfter(504) },
  {
    name: `a request beyond ${paymentsContract.rules.concurrency.maxInFlight} in flight (concurrency)`,
    rule: 'concurrency',
    location: 'header.Authorization',
    run: async (context, row) => {
      const limit = paymentsContract.rules.concurrency.maxInFlight;
      const held = context.witness.hold(limit);
      const first = Array.from({ length: limit }, () => context.send(`${row}-first`, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept }));
      const gate = await held;
      // The first ones are at the service, unanswered: the next one is the one too many.
      const over = await context.send(row, 'GET', '/transactions', { key: sandbox.secretKey, headers: accept });
      gate.release();
      for (const answer of await Promise.all(first)) expect(answer.status).toBe(200);
      return over;
    },
  },
  {
    name: 'a single-use token used after its lifetime (singleUseTokens)',
    rule: 'single-use-token-expired',
    location: 'body.singleUseTokenId',
    run: async (context, row) => {
      const created = await context.send(`${row}-first`, 'POST', '/single-use-tokens', token({}));
      expect(created.status).toBe(200);
      context.advance(paymentsContract.rules.singleUseTokens.lifetimeMs + 1000);
      const request = post('/transactions', paymentRequest(created.json.singleUseTokenId));
      return context.send(row, request.method, request.path, request);
    },
  },
];

/** The x-paykit-rules a request can break, and the rows that break them; the others, and why a request cannot. */
const requestRules: Record<string, string[]> = {
  retry: ['idempotency-key', 'retry-wait'],
  mustNotResend: ['resend-after-500'],
  mustQueryState: ['query-state-first'],
  concurrency: ['concurrency'],
  singleUseTokens: ['single-use-token-expired'],
};
const notRequestRules: Record<string, string> = {
  idempotencyKey: 'how long the service remembers a key: a resend after it is a new request, not a mistake the message shows',
  transactionStatus: 'how a client reads the status of an answer',
  pagination: 'the size of the pages the service answers',
  recentTransactions: 'the length of a list the service answers',
  secretKeys: 'the age of a key, which no message carries',
  paymentFiles: 'how far back a list the service answers reaches',
};

/** Every `x-paykit-*` extension the payments spec uses (read from its YAML files, not a list of ours). */
function paymentsExtensions(): string[] {
  const root = fileURLToPath(new URL('../../../specs/payments/', import.meta.url));
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.yaml')) for (const [, name] of readFileSync(join(dir, entry.name), 'utf8').matchAll(/^\s*(x-paykit-[a-z-]+):/gm)) found.add(name!);
    }
  };
  walk(root);
  return [...found].sort();
}

/**
 * What --strict does with each `x-paykit-*` extension: refuses what breaks it (a row above), passes what it allows
 * (a test below), or has nothing to refuse in a request, and why.
 */
const extensions: Record<string, string> = {
  'x-paykit-rules': 'refused: the rows of `requestRules`',
  'x-paykit-decimal-places': 'refused: the decimal-places row',
  'x-paykit-open-enum': 'passed on: a value the list does not name yet reaches the service (a test below)',
  'x-paykit-sensitive': 'what a recording masks, not a rule a request can break (masking and merchant-flow tests)',
  'x-paykit-sensitive-from': 'what a recording masks in a field error, not a rule a request can break',
  'x-paykit-assumption': 'marks where the contract assumes, constrains nothing',
  'x-paykit-assumptions': 'the list of the assumptions, constrains nothing',
  'x-paykit-state-machines':
    'the state a request meets is the service’s, not in the message: whether a transition is allowed is the service’s answer, whose status the answer checks judge',
  'x-paykit-idempotency-key':
    'names the idempotency header, from which the validator learns which header the key rows (a POST without the key, a resend) read',
  'x-paykit-flows': 'the order of the main flows, drawn in the docs: a request outside a flow is not a mistake in itself',
};

describe('--strict refuses each kind of violation before it reaches the service', () => {
  let proxy: ContractProxy;
  let witness: Witness;
  let now = Date.UTC(2026, 0, 1);
  const seen: Violation[] = [];
  let context: Context;
  beforeAll(async () => {
    witness = await startWitness(sandbox.url);
    proxy = await startContractProxy({
      upstream: witness.url,
      strict: true,
      secretKeys: [sandbox.secretKey],
      publishableKeys: [sandbox.publishableKey],
      now: () => now,
      onViolation: (violation) => seen.push(violation),
    });
    context = {
      proxy,
      witness,
      token: async () => (await send(sandbox.url, 'POST', '/single-use-tokens', { key: sandbox.publishableKey, headers: { ...accept, 'idempotency-key': `t-${Math.random()}` }, body: cardTokenRequest() })).json.singleUseTokenId,
      advance: (ms) => void (now += ms),
      send: (row, method, path, init = {}) => send(proxy.url, method, path, { ...init, headers: { ...init.headers, 'x-test-row': row } }),
    };
  });
  afterAll(async () => {
    await proxy?.close();
    await witness?.close();
  });

  it('passes a correct request on, and the witness sees it (so a request it does not see was not sent)', async () => {
    const answer = await context.send('correct', 'GET', '/transactions', { key: sandbox.secretKey, headers: accept });
    expect(answer.status).toBe(200);
    expect(witness.seenFor('correct')).toHaveLength(1);
  });

  it.each([...schemaRows, ...paykitRows])('$name: $rule at $location', async (row) => {
    const before = seen.length;
    const answer = await row.run(context, row.name);
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.json.title).toContain(row.rule);
    expect(answer.json.violations).toContainEqual(expect.objectContaining({ rule: row.rule, side: 'request', location: row.location, source: expect.any(String) }));
    expect(seen.slice(before)).toContainEqual(expect.objectContaining({ rule: row.rule, location: row.location }));
    expect(witness.seenFor(row.name)).toEqual([]);
  });

  it('counts the refusals in the report, and the verdict fails', () => {
    const report = proxy.report();
    expect(report.mode).toBe('strict');
    expect(report.refused).toBe(schemaRows.length + paykitRows.length);
    expect(report.verdict.passed).toBe(false);
  });

  it('passes on a value an open enum does not list yet (x-paykit-open-enum): the service receives it, nothing is named', async () => {
    const before = seen.length;
    const request = post('/transactions', { ...paymentRequest(await context.token()), entryMode: 'KEYED_BY_PAYER' });
    const answer = await context.send('open-enum', request.method, request.path, request);
    expect(answer.status).not.toBe(422);
    expect(witness.seenFor('open-enum').map((received) => JSON.parse(received.body).entryMode)).toEqual(['KEYED_BY_PAYER']);
    expect(seen.slice(before)).toEqual([]);
  });

  it('says what it does with every x-paykit extension of the spec', () => {
    expect(paymentsExtensions()).toEqual(Object.keys(extensions).sort());
  });

  it('has a row for every x-paykit rule a request can break, and says why the others cannot be', () => {
    expect(Object.keys(paymentsContract.rules).sort()).toEqual([...Object.keys(requestRules), ...Object.keys(notRequestRules)].sort());
    const covered = new Set(paykitRows.map((row) => row.rule));
    for (const names of Object.values(requestRules)) for (const name of names) expect(covered).toContain(name);
  });
});
