import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPaymentsError, settleTransaction } from '@paykit/payments';
import { createWebhookReceiver, isAliasEventFor, type WebhookEvent } from '@paykit/payments/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { everyItem, browserProfile, cardTokenRequest, failureOf, paymentRequest, sandboxPerTest } from './support.js';

/** The merchant's integration, end to end through @paykit/payments against the sandbox. */
const env = sandboxPerTest({ settings: { aliasRegistrationDelayMs: 100 } });

type Transaction = { receiptNumber: string; status: string; voidable: boolean; refundable: boolean };

describe('payments sandbox end to end: card payments', () => {
  it('token (publishable key) → 3D Secure → payment → refund, and token → 3D Secure → payment → void', async () => {
    const tokenThenPay = async (amount: number) => {
      const token = await env.publishable.singleUseTokens.create({ ...cardTokenRequest('4111111111111111'), threeDS2: true, browserProfile } as never);
      const { singleUseTokenId, creditCard } = token.data as { singleUseTokenId: string; creditCard: { threeDS2AuthRequired: boolean } };
      expect(creditCard.threeDS2AuthRequired).toBe(true);
      const outcome = await env.secret.singleUseTokens.authenticateThreeDS2(singleUseTokenId, {
        messageCategory: '01',
        threeDSRequestorAuthenticationInd: '01',
        currency: 'AUD',
        principalAmount: amount.toFixed(2),
        billAddrLine1: '1 Example Street',
        billAddrCity: 'Sydney',
      } as never);
      expect(outcome.data).toEqual({ transStatus: 'Y' });
      const settled = await settleTransaction(env.secret.transactions, paymentRequest(singleUseTokenId, amount) as never);
      expect(settled.outcome).toBe('approved');
      return settled.transaction as unknown as Transaction;
    };

    const refunded = await tokenThenPay(50);
    const refund = await env.secret.transactions.create({ transactionType: 'REFUND', originalReceiptNumber: refunded.receiptNumber, principalAmount: 20, entryMode: 'STORED_CREDENTIAL' } as never);
    expect(refund.data).toMatchObject({ transactionType: 'REFUND', status: 'Approved' });
    expect((await env.secret.transactions.get(refunded.receiptNumber)).data).toMatchObject({ refundable: true, voidable: false });

    const voided = await tokenThenPay(30);
    expect((await env.secret.transactions.void(voided.receiptNumber)).data).toMatchObject({ status: 'Voided', voidable: false, refundable: false });
    expect((await env.secret.transactions.list()).items.map((t) => (t as Transaction).receiptNumber)).toEqual([
      voided.receiptNumber,
      (refund.data as Transaction).receiptNumber,
      refunded.receiptNumber,
    ]);
  });

  it('a token used once is refused the second time, and an unused one after its lifetime', async () => {
    const { data } = await env.publishable.singleUseTokens.create(cardTokenRequest() as never);
    const token = (data as { singleUseTokenId: string }).singleUseTokenId;
    await env.secret.transactions.create(paymentRequest(token) as never);
    const reused = await failureOf(env.secret.transactions.create(paymentRequest(token) as never));
    expect(isPaymentsError(reused) && reused.kind).toBe('validation');

    const { data: fresh } = await env.publishable.singleUseTokens.create(cardTokenRequest() as never);
    await env.sandbox.control.advanceClock({ ms: rules.singleUseTokens.lifetimeMs });
    const expired = await failureOf(env.secret.transactions.create(paymentRequest((fresh as { singleUseTokenId: string }).singleUseTokenId) as never));
    expect(expired).toMatchObject({ kind: 'validation', status: 422, fieldErrors: [{ fieldName: 'singleUseTokenId', messages: ['the token is expired'] }] });
  });
});

describe('payments sandbox end to end: alias payments with webhooks', () => {
  let server: Server;
  let endpoint: string;
  const events: WebhookEvent[] = [];
  let next: (() => void) | undefined;
  const nextEvent = () => new Promise<void>((resolve) => (next = resolve));

  beforeAll(async () => {
    const receive = createWebhookReceiver({
      secret: 'whsec_flow',
      onEvent: (event) => {
        events.push(event);
        next?.();
      },
    });
    server = createServer((req, res) => void receive(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments/webhooks`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('register → signed alias.registered to createWebhookReceiver → the payer pays → signed alias.payment.received', async () => {
    await env.sandbox.control.createWebhookSubscription({ url: endpoint, secret: 'whsec_flow', eventTypes: ['alias.registered', 'alias.payment.received'] });
    const registered = nextEvent();
    const { data } = await env.secret.aliases.register({ aliasAddress: 'invoice-1001@pay.example.com', type: 'SINGLE', supplierBusinessCode: 'TEST_BUSINESS', paymentAmount: '25.50' } as never);
    const alias = data as { id: string; status: string };
    expect(alias.status).toBe('PENDING');
    await registered; // after the registration delay, in real time
    expect(events[0]!.eventType).toBe('alias.registered');
    expect(isAliasEventFor(events[0]!, alias.id)).toBe(true);

    const paid = nextEvent();
    const payment = await env.sandbox.control.payAlias(alias.id, { amount: 25.5 });
    await paid;
    const event = events[1]!;
    expect(event.eventType).toBe('alias.payment.received');
    expect(isAliasEventFor(event, alias.id)).toBe(true);
    expect(event.data).toMatchObject({ receiptNumber: payment.transaction!.receiptNumber, status: 'Approved', source: 'ALIAS' });
    expect((await env.secret.aliases.get(alias.id)).data).toMatchObject({ status: 'DEREGISTERED' });
    expect((await everyItem((q) => env.sandbox.control.listWebhookDeliveries(q))).every((d) => d.delivered && d.attempts.length === 1)).toBe(true);
  });
});
