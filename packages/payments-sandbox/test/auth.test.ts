import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { basic, call, cardTokenRequest, paymentRequest, sandboxPerTest } from './support.js';

const keys = {
  secret: 'sk_test_main',
  restricted: 'sk_test_only_test_business',
  allowListed: 'sk_test_from_10_0_0_1',
  loopbackListed: 'sk_test_from_loopback',
  expired: 'sk_test_expired',
  publishable: 'pk_test_main',
};
const twoYearsAgo = Date.now() - rules.secretKeys.lifetimeMs - 60_000;

const env = sandboxPerTest({
  businesses: [{ supplierBusinessCode: 'TEST_BUSINESS' }, { supplierBusinessCode: 'OTHER_BUSINESS' }],
  keys: {
    secret: [
      keys.secret,
      { key: keys.restricted, businesses: ['TEST_BUSINESS'] },
      { key: keys.allowListed, ipAllowList: ['10.0.0.1'] },
      { key: keys.loopbackListed, ipAllowList: ['127.0.0.1'] },
      { key: keys.expired, createdAt: twoYearsAgo },
    ],
    publishable: [keys.publishable],
  },
});

describe('payments sandbox: authentication', () => {
  it.each([
    { rule: 'no Authorization header', authorization: undefined, status: 401 },
    { rule: 'another scheme than Basic', authorization: `Bearer ${keys.secret}`, status: 401 },
    { rule: 'Basic without the colon', authorization: `Basic ${Buffer.from(keys.secret).toString('base64')}`, status: 401 },
    { rule: 'Basic with a password', authorization: `Basic ${Buffer.from(`${keys.secret}:secret`).toString('base64')}`, status: 401 },
    { rule: 'a badly formed header', authorization: 'Basic !!!', status: 401 },
    { rule: 'an unknown key', authorization: basic('sk_test_unknown'), status: 401 },
    { rule: 'an expired secret key', authorization: basic(keys.expired), status: 401 },
    { rule: 'a key used from an address outside its allow-list', authorization: basic(keys.allowListed), status: 401 },
    { rule: 'a key used from an address of its allow-list', authorization: basic(keys.loopbackListed), status: 200 },
    { rule: 'a valid secret key (key plus colon)', authorization: basic(keys.secret), status: 200 },
    { rule: 'a publishable key on a secret-key resource', authorization: basic(keys.publishable), status: 403 },
  ])('$rule: $status', async ({ authorization, status }) => {
    const response = await call(env.sandbox, 'GET', '/transactions', { key: null, headers: authorization ? { authorization } : {} });
    expect(response.status, response.text).toBe(status);
    if (status >= 400) expect(response.json).toMatchObject({ status: String(status), requestMethod: 'GET' });
  });

  it('a secret key on token creation: 401, as the token endpoint says', async () => {
    const response = await call(env.sandbox, 'POST', '/single-use-tokens', { key: keys.secret, body: cardTokenRequest() });
    expect(response.status).toBe(401);
  });

  it('a secret key on another publishable-key resource: 403', async () => {
    const response = await call(env.sandbox, 'GET', '/businesses/TEST_BUSINESS/accepted-cards', { key: keys.secret });
    expect(response.status).toBe(403);
  });

  it('a secret key expires after the lifetime of the contract rules, on the sandbox clock', async () => {
    expect((await call(env.sandbox, 'GET', '/', { key: keys.secret })).status).toBe(200);
    await env.sandbox.control.advanceClock({ ms: rules.secretKeys.lifetimeMs });
    expect((await call(env.sandbox, 'GET', '/', { key: keys.secret })).status).toBe(401);
    expect((await call(env.sandbox, 'GET', '/businesses/TEST_BUSINESS/accepted-cards', { key: keys.publishable })).status).toBe(200);
  });
});

describe('payments sandbox: a secret key restricted to businesses', () => {
  it('gets 404 for a business outside its list in the path', async () => {
    expect((await call(env.sandbox, 'GET', '/businesses/OTHER_BUSINESS', { key: keys.restricted })).status).toBe(404);
    expect((await call(env.sandbox, 'GET', '/businesses/TEST_BUSINESS', { key: keys.restricted })).status).toBe(200);
  });

  it('gets 422 for a business outside its list in the body', async () => {
    const response = await call(env.sandbox, 'POST', '/aliases', {
      key: keys.restricted,
      body: { aliasAddress: 'invoice-1@pay.example.com', type: 'STATIC', supplierBusinessCode: 'OTHER_BUSINESS' },
    });
    expect(response.status).toBe(422);
    expect(response.json.errors[0].fieldName).toBe('supplierBusinessCode');
  });

  it("gets 404 for another business's transaction, and lists only its own", async () => {
    const other = await call(env.sandbox, 'POST', '/single-use-tokens', { key: keys.publishable, body: cardTokenRequest(undefined, { supplierBusinessCode: 'OTHER_BUSINESS' }) });
    const paid = await call(env.sandbox, 'POST', '/transactions', { key: keys.secret, body: paymentRequest(other.json.singleUseTokenId, 10, { supplierBusinessCode: 'OTHER_BUSINESS' }) });
    expect(paid.status).toBe(201);
    const receipt = paid.json.receiptNumber;
    expect((await call(env.sandbox, 'GET', `/transactions/${receipt}`, { key: keys.secret })).status).toBe(200);
    expect((await call(env.sandbox, 'GET', `/transactions/${receipt}`, { key: keys.restricted })).status).toBe(404);
    expect((await call(env.sandbox, 'GET', '/transactions', { key: keys.restricted })).json.data).toEqual([]);
    const businesses = await call(env.sandbox, 'GET', '/businesses', { key: keys.restricted });
    expect(businesses.json.data.map((b: { supplierBusinessCode: string }) => b.supplierBusinessCode)).toEqual(['TEST_BUSINESS']);
  });
});
