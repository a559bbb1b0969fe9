import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructWebhookEvent, createWebhookReceiver, isAliasEventFor, signTestPayload, type WebhookEvent } from '@paykit/payments/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationContext } from '../src/json-mutations.js';
import { MutatingProxy } from '../src/mutating-proxy.js';
import { loadContract } from '../src/openapi-document.js';
import { createPaymentsClients } from '../src/payments-invoker.js';
import { allToleratedChanges, jsonRewrites, PaymentsScenario, type JsonRewrite } from '../src/payments-scenario.js';
import { sharedPrism } from './support/mocks.js';

const document = loadContract('payments');
const context = mutationContext(document);
const webhookSecret = 'whsec_contract_test_only';

const mock = sharedPrism('payments');
let proxy: MutatingProxy;
let receiver: Server;
let receiverUrl: string;
const received: WebhookEvent[] = [];
beforeAll(async () => {
  proxy = await MutatingProxy.start(mock.origin);
  // The merchant's endpoint: the payments package's receiver on a real HTTP server.
  receiver = createServer(createWebhookReceiver({ secret: webhookSecret, onEvent: (event) => void received.push(event) }));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await proxy?.close();
});

/** Posts a notification signed as the service would, and waits for the receiver to hand it over. */
async function deliver(notification: unknown): Promise<WebhookEvent> {
  const before = received.length;
  const { body, header } = signTestPayload(notification, { secret: webhookSecret });
  const response = await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': header }, body });
  expect(response.status).toBe(200);
  await expect.poll(() => received.length).toBe(before + 1);
  return received[before]!;
}

const noCustomerYet: JsonRewrite = (body, request) =>
  request.method === 'GET' && /\/customers\?/.test(request.url) && body && typeof body === 'object' ? { ...(body as object), data: [], links: [] } : body;

describe.each([
  { changes: 'as specified', customer: 'found by number', rewrites: [] as JsonRewrite[] },
  { changes: 'as specified', customer: 'created', rewrites: [noCustomerYet] },
  { changes: 'under every tolerated change', customer: 'found by number', rewrites: [allToleratedChanges(context)] },
  { changes: 'under every tolerated change', customer: 'created', rewrites: [noCustomerYet, allToleratedChanges(context)] },
])('alias flow ($changes, customer $customer)', ({ rewrites, customer }) => {
  it('looks up or creates the customer, registers an alias, receives both events, and deregisters it', async () => {
    proxy.reset({ mutateResponse: jsonRewrites(...rewrites) });
    const flow = new PaymentsScenario(document, createPaymentsClients(proxy.origin + new URL(mock.url).pathname));
    const customerNumber = String((flow.request('createCustomer').body as { customerNumber: string }).customerNumber);

    const found = await flow.call<{ customerId: string }>('searchCustomers', { query: { customerNumber } });
    let customerId = found.items[0]?.customerId;
    if (customer === 'created') {
      expect(customerId).toBeUndefined();
      const created = await flow.call<{ customerId: string }>('createCustomer', { body: { customerNumber } });
      expect(created.status).toBe(201);
      customerId = created.data.customerId;
    }
    expect(customerId).toEqual(expect.any(String));

    const alias = await flow.call<{ id: string; status: string; customerId: string }>('registerAliasForCustomer', { path: { customerId: customerId! } });
    expect(alias.status).toBe(201);
    expect(alias.data.status).toBe('PENDING');

    // alias.registered: the spec's example notification, about our alias, signed and posted to the receiver.
    const registration = flow.webhookExample('alias.registered');
    (registration.data as Record<string, unknown>).id = alias.data.id;
    const registeredEvent = await deliver(registration);
    expect(registeredEvent.eventType).toBe('alias.registered');
    expect(isAliasEventFor(registeredEvent, alias.data.id)).toBe(true);
    expect(isAliasEventFor(registeredEvent, `${alias.data.id}-other`)).toBe(false);

    const current = await flow.call<{ id: string }>('getAlias', { path: { id: alias.data.id }, prefer: 'code=200' });
    expect(current.data.id).toEqual(expect.any(String));

    // alias.payment.received: the transaction is then looked up by its receipt number.
    const payment = flow.webhookExample('alias.payment.received');
    const paymentData = payment.data as { receiptNumber: string; aliasAccount: { id: string } };
    paymentData.aliasAccount.id = alias.data.id;
    const paymentEvent = await deliver(payment);
    expect(isAliasEventFor(paymentEvent, alias.data.id)).toBe(true);
    const transaction = await flow.call<{ receiptNumber: string }>('getTransaction', { path: { receiptNumber: paymentData.receiptNumber } });
    expect(transaction.data.receiptNumber).toEqual(expect.any(String));

    const deregistered = await flow.call('deregisterAlias', { path: { id: alias.data.id } });
    expect(deregistered.status).toBe(204);
    proxy.assertHealthy();

    // The ids the flow carried were the ones the (possibly mutated) answers gave: the proxy saw them in the paths.
    const paths = proxy.exchanges.map((e) => decodeURIComponent(e.received.url));
    expect(paths.some((p) => p.includes(`/customers/${customerId}/aliases`))).toBe(true);
    expect(paths.some((p) => p.endsWith(`/aliases/${alias.data.id}`))).toBe(true);
  });
});

describe('alias notifications that must be refused', () => {
  it('a notification signed with another secret fails verification', () => {
    const flow = new PaymentsScenario(document, createPaymentsClients('http://127.0.0.1:9/rest/v1'));
    const { body, header } = signTestPayload(flow.webhookExample('alias.registered'), { secret: 'another-secret' });
    expect(() => constructWebhookEvent(body, header, { secret: webhookSecret })).toThrow();
  });
});
