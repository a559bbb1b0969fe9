import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createPublishableClient, isPaymentsError } from '../src/index.js';
import { publishableRequestCheck } from '../src/validation/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { paymentRequest, publishableKey, secretClient } from './support/fixtures.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => json(res, 201, { id: 'alias-1', status: 'PENDING', receiptNumber: '1', accountType: 'CREDIT_CARD' }));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const alias = { aliasAddress: 'invoice-1001@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as const;
const card = {
  supplierBusinessCode: 'TEST_BUSINESS',
  accountType: 'CREDIT_CARD',
  cardNumber: '4111111111111111',
  expiryDateMonth: '12',
  expiryDateYear: '2029',
} as const;
const browserProfile = {
  browserJavaEnabled: false,
  browserLanguage: 'en-AU',
  browserScreenHeight: '1080',
  browserScreenWidth: '1920',
  browserColorDepth: '24',
  browserTZ: '-600',
} as const;

async function refusal(call: () => Promise<unknown>) {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(server.requests).toHaveLength(0);
  if (!isPaymentsError(error) || error.kind !== 'input') throw new Error(`expected an input error, got ${String(error)}`);
  return error;
}

describe('alias addresses (rules from the spec plus the caller’s domains)', () => {
  const client = () => secretClient(server.url, { aliasDomains: ['pay.example.com', '*.shop.example.com'] });

  it.each([
    { address: 'Invoice-1001@PAY.Example.com', sent: 'invoice-1001@pay.example.com' },
    { address: 'a@eu.shop.example.com', sent: 'a@eu.shop.example.com' },
    { address: 'a@shop.example.com', sent: 'a@shop.example.com' },
  ])('sends $address as $sent', async ({ address, sent }) => {
    await client().aliases.register({ ...alias, aliasAddress: address });
    expect(JSON.parse(server.requests[0]!.body).aliasAddress).toBe(sent);
  });

  it.each([
    { label: 'a domain outside the allow-list', address: 'a@evil.example.com', field: 'aliasAddress' },
    { label: 'whitespace', address: 'in voice@pay.example.com', field: 'aliasAddress' },
    { label: 'more than 255 characters', address: `${'a'.repeat(240)}@pay.example.com`, field: 'aliasAddress' },
    { label: 'no domain', address: 'invoice', field: 'aliasAddress' },
  ])('refuses $label', async ({ address, field }) => {
    const error = await refusal(() => client().aliases.register({ ...alias, aliasAddress: address }));
    expect(error.fieldErrors.map((f) => f.fieldName)).toContain(field);
  });

  it.each([
    { label: 'an unknown type', body: { ...alias, type: 'WEEKLY' }, field: 'type' },
    { label: 'an amount on a STATIC alias', body: { ...alias, paymentAmount: '10.00' }, field: 'paymentAmount' },
    { label: 'an amount that is not a decimal string', body: { ...alias, type: 'SINGLE', paymentAmount: '10' }, field: 'paymentAmount' },
    { label: 'a missing business', body: { aliasAddress: alias.aliasAddress, type: 'STATIC' }, field: 'supplierBusinessCode' },
  ])('refuses $label', async ({ body, field }) => {
    const error = await refusal(() => client().aliases.register(body as never));
    expect(error.fieldErrors.map((f) => f.fieldName)).toContain(field);
  });

  it('accepts an amount on a SINGLE alias', async () => {
    await client().aliases.register({ ...alias, type: 'SINGLE', paymentAmount: '10.00' });
    expect(server.requests).toHaveLength(1);
  });

  it('sends a field this client does not know (the service may add optional parameters within v1)', async () => {
    await client().aliases.register({ ...alias, newOptionalParameter: 'on' } as never);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ newOptionalParameter: 'on' });
  });
});

describe('transactions and parameters', () => {
  it.each([
    { label: 'an amount as a string', body: { ...paymentRequest, principalAmount: '100.00' }, field: 'principalAmount' },
    { label: 'a lower-case currency', body: { ...paymentRequest, currency: 'aud' }, field: 'currency' },
    { label: 'no entry mode', body: { ...paymentRequest, entryMode: undefined }, field: 'entryMode' },
  ])('refuses a payment with $label', async ({ body, field }) => {
    const error = await refusal(() => secretClient(server.url).transactions.create(body as never));
    expect(error.fieldErrors.map((f) => f.fieldName)).toContain(field);
    expect(error.message).toContain(field);
  });

  it.each([10.1, 0.07, 1234.56, 19.99, 0, 999_999_999.99, 12_345_678_901.23])('sends the amount %s as it is', async (amount) => {
    await secretClient(server.url).transactions.create({ ...paymentRequest, principalAmount: amount });
    expect(server.requests[0]!.body).toContain(`"principalAmount":${amount},`);
  });

  it.each([
    { label: '0.1 + 0.2', amount: 0.1 + 0.2, sent: '0.3' },
    { label: 'a thousand times 0.1, summed', amount: Array.from({ length: 1000 }, () => 0.1).reduce((a, b) => a + b), sent: '100' },
    { label: '1.15 * 3', amount: 1.15 * 3, sent: '3.45' },
    { label: '0.3 - 0.1 - 0.2', amount: 0.3 - 0.1 - 0.2, sent: '0' },
  ])('sends $label, off by floating-point error only, as the two-decimal amount $sent', async ({ amount, sent }) => {
    expect(String(amount)).not.toBe(sent);
    const request = { ...paymentRequest, principalAmount: amount };
    await secretClient(server.url).transactions.create(request);
    expect(server.requests[0]!.body).toContain(`"principalAmount":${sent},`);
    expect(request.principalAmount).toBe(amount);
  });

  it.each([
    { label: 'a tenth of a cent', amount: 10.001, message: 'must have at most 2 decimal places' },
    { label: 'a ten-thousandth of a cent', amount: 10.000001, message: 'must have at most 2 decimal places' },
    { label: 'NaN', amount: Number.NaN, message: 'must be a finite number' },
    { label: 'Infinity', amount: Infinity, message: 'must be a finite number' },
    { label: '-Infinity', amount: -Infinity, message: 'must be a finite number' },
  ])('refuses an amount of $label before sending', async ({ amount, message }) => {
    const error = await refusal(() => secretClient(server.url).transactions.create({ ...paymentRequest, principalAmount: amount }));
    expect(error.fieldErrors).toEqual([{ fieldName: 'principalAmount', messages: [expect.stringContaining(message)] }]);
  });

  it('refuses NaN in a field the spec does not describe, which JSON would turn into null', async () => {
    const error = await refusal(() =>
      secretClient(server.url).transactions.create({ ...paymentRequest, metadata: { basket: [{ price: Number.NaN }] } }),
    );
    expect(error.fieldErrors.map((f) => f.fieldName)).toEqual(['metadata.basket[0].price']);
  });

  it('refuses a path identifier over 255 characters', async () => {
    await refusal(() => secretClient(server.url).transactions.get('1'.repeat(256)));
  });

  it('can be turned off', async () => {
    await secretClient(server.url, { check: false }).transactions.create({ ...paymentRequest, currency: 'aud' });
    expect(server.requests).toHaveLength(1);
  });

  it('never copies a refused value into the error (it may be card data)', async () => {
    const error = await refusal(() =>
      secretClient(server.url).transactions.create({ ...paymentRequest, currency: '4111111111111111' }),
    );
    expect(JSON.stringify(error)).not.toContain('4111111111111111');
    expect(error.message).not.toContain('4111111111111111');
  });
});

describe('token requests on the publishable client, with the opt-in checks', () => {
  const client = () => createPublishableClient({ apiKey: publishableKey, baseUrl: server.url, check: publishableRequestCheck() });

  it('sends a valid card token request with a browser profile', async () => {
    await client().singleUseTokens.create({ ...card, threeDS2: true, browserProfile });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    { label: 'a browser language over 8 characters', body: { ...card, threeDS2: true, browserProfile: { ...browserProfile, browserLanguage: 'en-AU-x-long' } }, field: 'browserProfile.browserLanguage' },
    { label: 'a screen height over 6 digits', body: { ...card, threeDS2: true, browserProfile: { ...browserProfile, browserScreenHeight: '1234567' } }, field: 'browserProfile.browserScreenHeight' },
    { label: 'an unknown colour depth', body: { ...card, threeDS2: true, browserProfile: { ...browserProfile, browserColorDepth: '12' } }, field: 'browserProfile.browserColorDepth' },
    { label: 'a time zone over 5 characters', body: { ...card, threeDS2: true, browserProfile: { ...browserProfile, browserTZ: '-10000' } }, field: 'browserProfile.browserTZ' },
    { label: '3D Secure without a browser profile', body: { ...card, threeDS2: true }, field: 'browserProfile' },
    { label: 'an unknown account type', body: { ...card, accountType: 'CHEQUE' }, field: 'accountType' },
  ])('refuses $label', async ({ body, field }) => {
    const error = await refusal(() => client().singleUseTokens.create(body as never));
    expect(error.fieldErrors.map((f) => f.fieldName)).toContain(field);
  });

  it('sends anything when the checks are not turned on (the default keeps the browser bundle small)', async () => {
    await createPublishableClient({ apiKey: publishableKey, baseUrl: server.url }).singleUseTokens.create({ ...card, accountType: 'CHEQUE' } as never);
    expect(server.requests).toHaveLength(1);
  });
});

describe('3D Secure authentication fields', () => {
  it('refuses a billing address line over the spec’s limit', async () => {
    const error = await refusal(() =>
      secretClient(server.url).singleUseTokens.authenticateThreeDS2('token-1', {
        messageCategory: '01',
        threeDSRequestorAuthenticationInd: '01',
        currency: 'AUD',
        billAddrLine1: 'x'.repeat(51),
      } as never),
    );
    expect(error.fieldErrors.map((f) => f.fieldName)).toContain('billAddrLine1');
  });
});

it('reports every problem of a request at once', async () => {
  const error = await refusal(() =>
    secretClient(server.url).aliases.register({ aliasAddress: 'a@pay.example.com', type: 'WEEKLY', paymentAmount: 5 } as never),
  );
  expect(error.fieldErrors.map((f) => f.fieldName).sort()).toEqual(['paymentAmount', 'supplierBusinessCode', 'type']);
  expect(isPaymentsError(error)).toBe(true);
});
