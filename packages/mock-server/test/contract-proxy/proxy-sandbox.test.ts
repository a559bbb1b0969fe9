import { createPublishableClient, createSecretClient } from '@paykit/payments';
import { replayHar, type Violation } from '@paykit/contract-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsSandbox } from '../../src/index.js';
import { cardTokenRequest, paymentRequest, proxiedSandbox, send, slowStart, type ProxiedSandbox } from './support.js';

/** Our own clients' flow: a card token with the publishable key, a payment and its look-up with the secret key. */
async function ourFlow(env: ProxiedSandbox): Promise<string> {
  const publishable = createPublishableClient({ apiKey: env.publishableKey, baseUrl: env.proxy.url });
  const secret = createSecretClient({ apiKey: env.secretKey, baseUrl: env.proxy.url });
  const token = (await publishable.singleUseTokens.create(cardTokenRequest() as never)).data as { singleUseTokenId: string };
  const payment = (await secret.transactions.create(paymentRequest(token.singleUseTokenId, 12.5) as never)).data as { receiptNumber: string };
  await secret.transactions.get(payment.receiptNumber as never);
  return payment.receiptNumber;
}

describe('the proxy in front of the payments sandbox', () => {
  let env: ProxiedSandbox;
  const seen: Violation[] = [];
  beforeAll(async () => {
    env = await proxiedSandbox({ record: true, onViolation: (v) => seen.push(v) });
  }, slowStart);
  afterAll(() => env?.close());

  it('finds no violation in our own clients’ traffic, and passes it through', async () => {
    const receipt = await ourFlow(env);
    expect(receipt).toEqual(expect.any(String));
    const report = env.proxy.report();
    expect(seen).toEqual([]);
    expect(report.totals).toEqual({ request: 0, answer: 0 });
    expect(report.operations).toEqual({ createSingleUseToken: 1, createTransaction: 1, getTransaction: 1 });
  });

  it('records the flow as HAR 1.2 with keys and card numbers redacted, and it replays against a fresh sandbox', async () => {
    const har = env.proxy.har();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => e._paykitOperation)).toEqual(['createSingleUseToken', 'createTransaction', 'getTransaction']);
    const text = JSON.stringify(har);
    for (const secret of [env.secretKey, env.publishableKey, '4111111111111111', Buffer.from(`${env.secretKey}:`).toString('base64')]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('************1111');

    const fresh = await startPaymentsSandbox();
    try {
      const result = await replayHar(har, { target: fresh.url, secretKey: fresh.keys.secret[0]!, publishableKey: fresh.keys.publishable[0]! });
      expect(result.entries.map((e) => [e.operation, e.replayedStatus])).toEqual([
        ['createSingleUseToken', 200],
        ['createTransaction', har.log.entries[1]!.response.status],
        ['getTransaction', 200],
      ]);
      expect(result.mismatches).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('replaying against a sandbox that refuses the keys reports each difference', async () => {
    const fresh = await startPaymentsSandbox();
    try {
      const result = await replayHar(env.proxy.har(), { target: fresh.url, secretKey: 'sk_wrong', publishableKey: 'pk_wrong' });
      expect(result.entries.map((e) => e.replayedStatus)).toEqual([401, 401, 401]);
      expect(result.mismatches).toBe(3);
    } finally {
      await fresh.close();
    }
  });
});

type Mistake = {
  name: string;
  method: string;
  path: string;
  key: 'secret' | 'publishable';
  headers?: Record<string, string>;
  body?: (token: string) => unknown;
  rule: string;
  operation: string;
  location: string;
};

const json = { accept: 'application/json' };
const mistakes: Mistake[] = [
  {
    name: 'a payment without Idempotency-Key',
    method: 'POST',
    path: '/transactions',
    key: 'secret',
    headers: json,
    body: (token) => paymentRequest(token),
    rule: 'idempotency-key',
    operation: 'createTransaction',
    location: 'header.Idempotency-Key',
  },
  {
    name: 'the secret key where only the publishable key is taken',
    method: 'POST',
    path: '/single-use-tokens',
    key: 'secret',
    headers: { ...json, 'idempotency-key': 'mistake-2' },
    body: () => cardTokenRequest(),
    rule: 'key-type',
    operation: 'createSingleUseToken',
    location: 'header.Authorization',
  },
  {
    name: 'a secret-key operation from a browser page',
    method: 'GET',
    path: '/transactions',
    key: 'secret',
    headers: { ...json, origin: 'https://shop.example.com' },
    rule: 'secret-key-from-browser',
    operation: 'listTransactions',
    location: 'header.Origin',
  },
  {
    name: 'an amount with 3 decimal places',
    method: 'POST',
    path: '/transactions',
    key: 'secret',
    headers: { ...json, 'idempotency-key': 'mistake-4' },
    body: (token) => paymentRequest(token, 10.001),
    rule: 'decimal-places',
    operation: 'createTransaction',
    location: 'body.principalAmount',
  },
  {
    name: 'an Accept the operation cannot answer',
    method: 'GET',
    path: '/transactions',
    key: 'secret',
    headers: { accept: 'text/html' },
    rule: 'accept',
    operation: 'listTransactions',
    location: 'header.Accept',
  },
];

describe.each([false, true])('a merchant’s mistakes (strict: %s)', (strict) => {
  let env: ProxiedSandbox;
  let token = '';
  beforeAll(async () => {
    env = await proxiedSandbox({ strict });
    // The proxy learns the secret key's type from a call the service took with it.
    expect((await send(env.proxy.url, 'GET', '/transactions', { key: env.secretKey, headers: json })).status).toBe(200);
    const created = await send(env.sandbox.url, 'POST', '/single-use-tokens', {
      key: env.publishableKey,
      headers: { ...json, 'idempotency-key': 'setup-token' },
      body: cardTokenRequest(),
    });
    token = created.json.singleUseTokenId;
  }, slowStart);
  afterAll(() => env?.close());

  it.each(mistakes)('$name is named with its rule and location', async (mistake) => {
    const before = env.proxy.report().violations.length;
    const transactionsBefore = (await send(env.sandbox.url, 'GET', '/transactions', { key: env.secretKey, headers: json })).json;
    const answer = await send(env.proxy.url, mistake.method, mistake.path, {
      key: mistake.key === 'secret' ? env.secretKey : env.publishableKey,
      ...(mistake.headers ? { headers: mistake.headers } : {}),
      ...(mistake.body ? { body: mistake.body(token) } : {}),
    });
    const found = env.proxy.report().violations.slice(before);
    expect(found).toContainEqual(
      expect.objectContaining({ rule: mistake.rule, side: 'request', operation: mistake.operation, location: mistake.location }),
    );
    if (strict) {
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(answer.json.title).toContain(mistake.rule);
      expect(answer.json.violations).toContainEqual(expect.objectContaining({ rule: mistake.rule, location: mistake.location }));
      // Refused before it left: the service holds no new transaction.
      const transactionsAfter = (await send(env.sandbox.url, 'GET', '/transactions', { key: env.secretKey, headers: json })).json;
      expect(transactionsAfter).toEqual(transactionsBefore);
    } else {
      // Passed through untouched: the service's own answer.
      expect(answer.headers.get('content-type')).not.toBe('application/problem+json');
    }
  });
});

// The caller's callbacks run after the exchange is answered: one that throws loses only its own call.
describe('callbacks that throw', () => {
  let env: ProxiedSandbox;
  const calls = { onViolation: 0, onRecord: 0 };
  beforeAll(async () => {
    env = await proxiedSandbox({
      record: true,
      onViolation: () => {
        calls.onViolation += 1;
        throw new Error('the caller’s onViolation failed');
      },
      onRecord: () => {
        calls.onRecord += 1;
        throw new Error('the caller’s onRecord failed');
      },
    });
  }, slowStart);
  afterAll(() => env?.close());

  it('leave the answer, the report and the recording whole', async () => {
    // No Idempotency-Key: a violation, so both callbacks run.
    const answer = await send(env.proxy.url, 'POST', '/single-use-tokens', { key: env.publishableKey, headers: json, body: cardTokenRequest() });
    expect(answer.status).toBe(200);
    expect(answer.json.singleUseTokenId).toEqual(expect.any(String));
    expect(calls).toEqual({ onViolation: 1, onRecord: 1 });
    expect(env.proxy.report().violations).toEqual([expect.objectContaining({ rule: 'idempotency-key', operation: 'createSingleUseToken' })]);
    expect(env.proxy.har().log.entries.map((e) => [e._paykitOperation, e.response.status])).toEqual([['createSingleUseToken', 200]]);
    // The proxy still serves the next exchange.
    expect((await send(env.proxy.url, 'GET', '/transactions', { key: env.secretKey, headers: json })).status).toBe(200);
    expect(calls.onRecord).toBe(2);
  });
});
