// end-to-end: the contract proxy's validator is a real Prism process (proxy mode) in front of this file's sandbox.
import { prismValidator, startContractProxy, startPaymentsSandbox, type ContractProxy, type PaymentsSandbox, type Violation } from '@paykit/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MutatingProxy, type ProxiedResponse } from '../src/mutating-proxy.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

const edit =
  (change: (body: Record<string, unknown>) => void) =>
  (response: ProxiedResponse): ProxiedResponse => {
    const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    change(body);
    return { ...response, body: Buffer.from(JSON.stringify(body)) };
  };

type Drift = { name: string; mutate: (response: ProxiedResponse) => ProxiedResponse; rule: string; location: string };
const drifts: Drift[] = [
  {
    name: 'a required field removed',
    mutate: edit((token) => delete token.accountType),
    rule: 'openapi:required',
    location: 'body',
  },
  {
    name: 'a new enum value',
    mutate: edit((token) => (token.accountType = 'QUANTUM_WALLET')),
    rule: 'openapi:enum',
    location: 'body.accountType',
  },
  {
    name: 'a 500 without the error body',
    mutate: () => ({ status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(0) }),
    rule: 'error-body',
    location: 'body',
  },
];

describe('the validating proxy in front of a drifting service', () => {
  let sandbox: PaymentsSandbox;
  let drifting: MutatingProxy;
  let proxy: ContractProxy;
  const seen: Violation[] = [];
  beforeAll(async () => {
    sandbox = await startPaymentsSandbox();
    drifting = await MutatingProxy.start(sandbox.origin);
    proxy = await startContractProxy({
      upstream: drifting.origin + new URL(sandbox.url).pathname,
      validator: prismValidator('payments'),
      onViolation: (violation) => seen.push(violation),
    });
    // Prism's start: about a second idle, several on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await drifting?.close();
    await sandbox?.close();
  });

  it.each(drifts)('$name is named with its rule and location', async ({ mutate, rule, location }) => {
    drifting.reset({ mutateResponse: mutate });
    seen.length = 0;
    const response = await fetch(`${proxy.url}/single-use-tokens`, {
      method: 'POST',
      headers: {
        authorization: basic(sandbox.keys.publishable[0]!),
        accept: 'application/json',
        'content-type': 'application/json',
        'idempotency-key': `drift-${rule}-${location}`,
      },
      body: JSON.stringify({
        supplierBusinessCode: 'TEST_BUSINESS',
        accountType: 'CREDIT_CARD',
        cardholderName: 'Test Cardholder',
        cardNumber: '4111111111111111',
        expiryDateMonth: '12',
        expiryDateYear: String(new Date().getUTCFullYear() + 3),
      }),
    });
    // Passed through untouched: the merchant gets the drifted answer as the service sent it.
    expect(Buffer.from(await response.arrayBuffer())).toEqual(drifting.last().delivered.body);
    drifting.assertHealthy();
    expect(seen.filter((v) => v.side === 'request')).toEqual([]);
    const answers = seen.filter((v) => v.side === 'answer');
    expect(answers, JSON.stringify(answers)).toContainEqual(
      expect.objectContaining({ rule, operation: 'createSingleUseToken', location }),
    );
  });
});
