import { describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { defaultThreeDSOutcome, threeDSOutcomeByCard } from '../src/index.js';
import { browserProfile, call, cardToken, cardTokenRequest, failureOf, paymentRequest, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

const threeDSRequest = { messageCategory: '01', threeDSRequestorAuthenticationInd: '01', currency: 'AUD', principalAmount: '10.00' };
const pay = (token: string, amount = 10) => env.secret.transactions.create(paymentRequest(token, amount) as never);
const authenticate = (token: string) => env.secret.singleUseTokens.authenticateThreeDS2(token, threeDSRequest as never);
const withThreeDS = { threeDS2: true, browserProfile };

describe('payments sandbox: single-use token lifetime', () => {
  it('is consumed by a payment: a second use is refused with 422', async () => {
    const token = await cardToken(env);
    expect((await pay(token)).status).toBe(201);
    const reuse = await failureOf(pay(token));
    expect(reuse).toMatchObject({ kind: 'validation', status: 422 });
    expect(reuse.fieldErrors[0]).toMatchObject({ fieldName: 'singleUseTokenId', messages: ['the token is consumed'] });
  });

  it('is consumed by an account registration', async () => {
    const token = await cardToken(env);
    const account = await env.secret.accounts.register({ singleUseTokenId: token } as never);
    expect(account.status).toBe(201);
    expect((account.data as Record<string, unknown>).creditCard).toMatchObject({ cardScheme: 'VISA' });
    expect(await failureOf(pay(token))).toMatchObject({ status: 422 });
  });

  it('is not consumed by the 3D Secure call', async () => {
    const token = await cardToken(env, '4111111111111111', withThreeDS);
    expect((await authenticate(token)).data).toEqual({ transStatus: 'Y' });
    expect((await pay(token)).status).toBe(201);
  });

  it('expires after the lifetime of the contract rules, on the sandbox clock', async () => {
    const token = await cardToken(env, '4111111111111111', withThreeDS);
    await env.sandbox.control.advanceClock({ ms: rules.singleUseTokens.lifetimeMs / 2 });
    const stillUsable = await cardToken(env);
    await env.sandbox.control.advanceClock({ ms: rules.singleUseTokens.lifetimeMs / 2 });
    expect(await failureOf(authenticate(token))).toMatchObject({ kind: 'notFound', status: 404 });
    expect(await failureOf(pay(token))).toMatchObject({ status: 422, message: expect.stringContaining('expired') });
    expect((await pay(stillUsable)).status).toBe(201);
  });

  it('is refused with 429 beyond the quota of unused tokens, until tokens are used or expire', async () => {
    const quota = rules.singleUseTokens.unusedQuota;
    const tokens: string[] = [];
    // In small groups, below the concurrency limit.
    for (let made = 0; made < quota; made += 8) {
      const group = await Promise.all(Array.from({ length: Math.min(8, quota - made) }, () => call(env.sandbox, 'POST', '/single-use-tokens', { key: env.publishableKey, body: cardTokenRequest() })));
      for (const response of group) {
        expect(response.status).toBe(200);
        tokens.push(response.json.singleUseTokenId);
      }
    }
    expect(await failureOf(cardToken(env))).toMatchObject({ kind: 'rateLimit', status: 429 });
    expect((await pay(tokens[0]!)).status).toBe(201);
    await cardToken(env);
    expect(await failureOf(cardToken(env))).toMatchObject({ status: 429 });
    await env.sandbox.control.advanceClock({ ms: rules.singleUseTokens.lifetimeMs });
    await cardToken(env);
  }, 30_000); // a thousand token requests (half a second on a quiet machine): the budget follows the quota of the contract

  it('gives masked details by account type, and wallet tokens only the token', async () => {
    const bank = await env.publishable.singleUseTokens.create({
      supplierBusinessCode: 'TEST_BUSINESS',
      accountType: 'DIRECT_DEBIT',
      accountName: 'Holder',
      bsb: '123-456',
      accountNumber: '987654321',
    } as never);
    expect(bank.data).toMatchObject({ accountType: 'DIRECT_DEBIT', bankAccount: { accountName: 'Holder', bsb: 'xxx-456', accountNumber: 'xxxxxx321' } });
    const wallet = await env.publishable.singleUseTokens.create({
      supplierBusinessCode: 'TEST_BUSINESS',
      accountType: 'WALLET_B_PAY',
      displayAccountNumber: 'Visa 1111',
      walletBPayToken: 'opaque',
    } as never);
    expect(Object.keys(wallet.data as object).sort()).toEqual(['accountType', 'links', 'singleUseTokenId']);
    const card = await env.publishable.singleUseTokens.create(cardTokenRequest('5555555555554444') as never);
    expect((card.data as { creditCard: unknown }).creditCard).toMatchObject({
      cardNumber: '555555xxxxxxx444',
      maskedCardNumber4Digits: '555555xxxxxx4444',
      cardScheme: 'MASTERCARD',
      cardType: 'CREDIT',
      threeDS2AuthRequired: false,
    });
  });
});

describe('payments sandbox: 3D Secure outcomes (the sandbox cards)', () => {
  const cards = [
    ...Object.entries(threeDSOutcomeByCard).map(([card, outcome]) => ({ card, outcome })),
    { card: '4111111111111111', outcome: defaultThreeDSOutcome },
  ];

  it('covers every transStatus of the contract', () => {
    expect(cards.map((c) => c.outcome).sort()).toEqual(['A', 'C', 'N', 'R', 'U', 'Y']);
  });

  it.each(cards)('card $card answers transStatus $outcome, and a payment follows only after A or Y', async ({ card, outcome }) => {
    const token = await cardToken(env, card, withThreeDS);
    expect(await failureOf(pay(token)), 'before the 3D Secure call').toMatchObject({ status: 422 });
    expect((await authenticate(token)).data).toEqual({ transStatus: outcome });
    if (['A', 'Y'].includes(outcome)) expect((await pay(token)).status).toBe(201);
    else expect(await failureOf(pay(token))).toMatchObject({ status: 422, message: expect.stringContaining(`outcome is ${outcome}`) });
  });

  it('a challenge ends with the cardholder answer: the next call gives it, and the payment follows it', async () => {
    const passed = await cardToken(env, '4000000000003022', withThreeDS);
    expect((await authenticate(passed)).data).toEqual({ transStatus: 'C' });
    await env.sandbox.control.completeChallenge(passed, { transStatus: 'Y' });
    expect((await authenticate(passed)).data).toEqual({ transStatus: 'Y' });
    expect((await pay(passed)).status).toBe(201);

    const failed = await cardToken(env, '4000000000003022', withThreeDS);
    await authenticate(failed);
    await env.sandbox.control.completeChallenge(failed, { transStatus: 'N' });
    expect(await failureOf(pay(failed))).toMatchObject({ status: 422 });
    await expect(env.sandbox.control.completeChallenge(failed, { transStatus: 'Y' })).rejects.toMatchObject({ status: 422 });
  });

  it('a card token without 3D Secure asked needs no authentication', async () => {
    expect((await pay(await cardToken(env, '4000000000003030'))).status).toBe(201);
  });
});
