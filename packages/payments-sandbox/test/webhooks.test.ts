import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookReceiver, isAliasEventFor, type WebhookEvent } from '@paykit/payments/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyItem, sandboxPerTest } from './support.js';

const env = sandboxPerTest({ settings: { aliasRegistrationDelayMs: 1_000, webhookRetryDelaysMs: [10_000, 60_000] } });

/** A merchant's webhook endpoint on loopback, answering what `respond` says for each notification. */
interface Endpoint {
  url: string;
  received: Array<{ headers: IncomingMessage['headers']; body: string }>;
  respond: (req: IncomingMessage, res: ServerResponse, body: string) => void;
}

let server: Server;
let endpoint: Endpoint;
beforeEach(async () => {
  endpoint = { url: '', received: [], respond: (_req, res) => res.writeHead(200).end() };
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    endpoint.received.push({ headers: req.headers, body });
    endpoint.respond(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function registeredAlias(): Promise<string> {
  const { data } = await env.secret.aliases.register({ aliasAddress: 'invoice-7@pay.example.com', type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS' } as never);
  const id = (data as { id: string }).id;
  await env.sandbox.control.advanceClock({ ms: 1_000 });
  await env.sandbox.webhooksIdle();
  return id;
}

describe('payments sandbox: webhook subscriptions (control interface; the reference does not publish their endpoints)', () => {
  it('keeps subscriptions without showing their secrets, and refuses bad ones', async () => {
    const made = await env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: 'whsec_1', basicAuth: { username: 'u', password: 'p' } });
    expect(made).toEqual({ id: expect.any(String), url: endpoint.url, eventTypes: ['alias.registered', 'alias.payment.received'], basicAuth: { username: 'u' } });
    expect(await env.sandbox.control.listWebhookSubscriptions()).toEqual([made]);
    await expect(env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: 's', eventTypes: ['alias.deleted'] })).rejects.toMatchObject({ status: 400 });
    await expect(env.sandbox.control.createWebhookSubscription({ url: 'not a url', secret: 's' })).rejects.toMatchObject({ status: 400 });
    await expect(env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: '' })).rejects.toMatchObject({ status: 400 });
    await env.sandbox.control.deleteWebhookSubscription(made.id);
    expect(await env.sandbox.control.listWebhookSubscriptions()).toEqual([]);
  });

  it('posts only the event types subscribed to', async () => {
    await env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: 'whsec_1', eventTypes: ['alias.payment.received'] });
    const alias = await registeredAlias();
    expect(endpoint.received).toEqual([]);
    await env.sandbox.control.payAlias(alias, { amount: 5 });
    await env.sandbox.webhooksIdle();
    expect(endpoint.received.map((r) => JSON.parse(r.body).eventType)).toEqual(['alias.payment.received']);
  });
});

describe('payments sandbox: webhook deliveries', () => {
  it('signs with the scheme of @paykit/payments/webhooks and sends the Basic credentials: the receiver accepts them', async () => {
    const events: WebhookEvent[] = [];
    const receive = createWebhookReceiver({ secret: 'whsec_1', basicAuth: { username: 'shop', password: 'pw' }, onEvent: (event) => void events.push(event) });
    endpoint.respond = (req, res, body) => void receive(Object.assign(req, { rawBody: Buffer.from(body) }), res);
    await env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: 'whsec_1', basicAuth: { username: 'shop', password: 'pw' } });
    const alias = await registeredAlias();
    expect(endpoint.received[0]!.headers['x-webhook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(endpoint.received[0]!.headers['content-type']).toBe('application/json');
    expect(events).toHaveLength(1);
    expect(isAliasEventFor(events[0]!, alias)).toBe(true);
    const [delivery] = await everyItem((q) => env.sandbox.control.listWebhookDeliveries(q));
    expect(delivery).toMatchObject({ eventType: 'alias.registered', delivered: true, attempts: [{ status: 200 }] });
    expect(delivery!.body).toMatchObject({ eventType: 'alias.registered', data: { id: alias, status: 'REGISTERED' } });
  });

  it('posts again on the sandbox clock until the endpoint answers 200, and shows every attempt', async () => {
    const answers = [500, 401, 204, 200];
    endpoint.respond = (_req, res) => res.writeHead(answers.shift() ?? 200).end();
    await env.sandbox.control.createWebhookSubscription({ url: endpoint.url, secret: 'whsec_1' });
    await registeredAlias();
    for (const wait of [10_000, 60_000, 60_000]) {
      await env.sandbox.control.advanceClock({ ms: wait });
      await env.sandbox.webhooksIdle();
    }
    const [delivery] = await everyItem((q) => env.sandbox.control.listWebhookDeliveries(q));
    expect(delivery!.attempts.map((a) => a.status)).toEqual([500, 401, 204, 200]);
    expect(delivery!.delivered).toBe(true);
    // The same notification every time: one event, one body.
    expect(new Set(endpoint.received.map((r) => r.body)).size).toBe(1);
    await env.sandbox.control.advanceClock({ ms: 600_000 });
    await env.sandbox.webhooksIdle();
    expect(endpoint.received).toHaveLength(4);
  });

  it('records an endpoint that cannot be reached, and stops when the subscription is removed', async () => {
    const subscription = await env.sandbox.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/nowhere', secret: 'whsec_1' });
    await registeredAlias();
    const [delivery] = await everyItem((q) => env.sandbox.control.listWebhookDeliveries(q));
    expect(delivery).toMatchObject({ delivered: false, attempts: [{ error: expect.any(String) }] });
    await env.sandbox.control.deleteWebhookSubscription(subscription.id);
    await env.sandbox.control.advanceClock({ ms: 600_000 });
    await env.sandbox.webhooksIdle();
    expect((await everyItem((q) => env.sandbox.control.listWebhookDeliveries(q)))[0]!.attempts).toHaveLength(1);
  });
});
