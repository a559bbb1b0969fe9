import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationContext } from '../src/json-mutations.js';
import { MutatingProxy } from '../src/mutating-proxy.js';
import { loadContract } from '../src/openapi-document.js';
import { createPaymentsClients } from '../src/payments-invoker.js';
import { allToleratedChanges, jsonRewrites, PaymentsScenario, type JsonRewrite } from '../src/payments-scenario.js';
import { sharedPrism } from './support/mocks.js';

const document = loadContract('payments');
const context = mutationContext(document);

const mock = sharedPrism('payments');
let proxy: MutatingProxy;
beforeAll(async () => {
  proxy = await MutatingProxy.start(mock.origin);
});
afterAll(async () => {
  await proxy?.close();
});

const isPath = (url: string, pattern: RegExp) => pattern.test(new URL(url, 'http://x').pathname);

/** The card needs 3D Secure: the spec's card token example says it does not, so the service's answer is set so. */
const cardNeedsThreeDS: JsonRewrite = (body, request) => {
  const token = body as { creditCard?: { threeDS2AuthRequired?: boolean } };
  if (request.method === 'POST' && isPath(request.url, /\/single-use-tokens$/) && token.creditCard) token.creditCard.threeDS2AuthRequired = true;
  return body;
};

/** The authentication outcome the service gives, for outcomes the spec has no example of. */
const authenticationOutcome =
  (transStatus: string): JsonRewrite =>
  (body, request) =>
    isPath(request.url, /three-ds2-authentication$/) ? { ...(body as object), transStatus } : body;

type Row = { outcome: string; prefer: string; rewrites: JsonRewrite[]; pays: boolean; paymentPrefer?: string };
const rows: Row[] = [
  { outcome: 'Y (frictionless)', prefer: 'code=200, example=frictionless', rewrites: [], pays: true },
  { outcome: 'A (frictionless, attempted)', prefer: 'code=200, example=frictionless', rewrites: [authenticationOutcome('A')], pays: true },
  { outcome: 'Y, then the payment is pending (202)', prefer: 'code=200, example=frictionless', rewrites: [], pays: true, paymentPrefer: 'code=202' },
  { outcome: 'Y under every tolerated change', prefer: 'code=200, example=frictionless', rewrites: [allToleratedChanges(context)], pays: true },
  { outcome: 'C (challenge)', prefer: 'code=200, example=challenge', rewrites: [], pays: false },
  ...['N', 'R', 'U'].map((code) => ({ outcome: `${code} (failed)`, prefer: 'code=200, example=frictionless', rewrites: [authenticationOutcome(code)], pays: false })),
];

describe('token to payment with 3D Secure, by operationId', () => {
  it.each(rows)('transStatus $outcome', async ({ prefer, rewrites, pays, paymentPrefer }) => {
    proxy.reset({ mutateResponse: jsonRewrites(cardNeedsThreeDS, ...rewrites) });
    const flow = new PaymentsScenario(document, createPaymentsClients(proxy.origin + new URL(mock.url).pathname));

    // The browser tokenises the card with the publishable key, asking for 3D Secure.
    const token = await flow.call<{ singleUseTokenId: string; creditCard: { threeDS2AuthRequired: boolean } }>('createSingleUseToken', {
      requestExample: 'creditCardWithThreeDS2',
    });
    expect(token.data.creditCard.threeDS2AuthRequired).toBe(true);
    const tokenId = token.data.singleUseTokenId;

    // The server authenticates with the secret key; the token is not consumed by it.
    const authentication = await flow.call<{ transStatus: string }>('authenticateSingleUseTokenThreeDS2', { path: { singleUseTokenId: tokenId }, prefer });
    const proceed = ['A', 'Y'].includes(authentication.data.transStatus);
    expect(proceed).toBe(pays);

    const paymentsBefore = proxy.exchanges.filter((e) => e.received.method === 'POST' && isPath(e.received.url, /\/transactions$/)).length;
    if (proceed) {
      const payment = await flow.call<{ receiptNumber: string; status: string }>('createTransaction', {
        body: { singleUseTokenId: tokenId },
        ...(paymentPrefer ? { prefer: paymentPrefer } : {}),
      });
      expect([201, 202]).toContain(payment.status);
      const sent = JSON.parse(proxy.exchanges.at(-1)!.received.body.toString('utf8')) as { singleUseTokenId: string };
      expect(sent.singleUseTokenId).toBe(tokenId);
      // Pending: the banking network is slow; the transaction is queried for its outcome.
      const settled = payment.status === 202 ? (await flow.call<{ status: string }>('getTransaction', { path: { receiptNumber: payment.data.receiptNumber } })).data : payment.data;
      expect(settled.status).toEqual(expect.any(String));
    }
    const paymentsAfter = proxy.exchanges.filter((e) => e.received.method === 'POST' && isPath(e.received.url, /\/transactions$/)).length;
    expect(paymentsAfter - paymentsBefore).toBe(pays ? 1 : 0);
    proxy.assertHealthy();
  });
});
