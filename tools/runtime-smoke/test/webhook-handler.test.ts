// end-to-end: starts the Bun, Deno and workerd runtimes and a Node process as webhook endpoints (about a second each
// on a loaded 2-core machine), and the payments sandbox that posts them a real signed notification.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSecretClient } from '@paykit/payments';
import { signTestPayload } from '@paykit/payments/webhooks';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { receiverRuntimes, type ReceiverConfig, type RunningReceiver } from '../src/webhook-receivers.js';

// The Fetch API webhook handler (createWebhookHandler) of the package as built, in each runtime a merchant may serve
// it from: the payments sandbox posts it a real notification, signed with the subscription's secret and carrying its
// Basic credentials, which it hands to onEvent; and what a stranger sends is refused before the body is read (401
// without the credentials, 400 without a well-formed, fresh signature header) or once the body passes the cap (413).

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const config: ReceiverConfig = { secret: 'whsec_runtime_smoke', username: 'payments', password: 'hook-password', maxBodyBytes: 64 * 1024 };
const authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
/** A runtime that has not printed its port by then does not start. */
const startLimitMs = 30_000;

let sandbox: PaymentsSandbox;
beforeAll(async () => {
  sandbox = await startPaymentsSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

/**
 * Posts a chunked body that never ends (four 64 KiB chunks, then nothing) with `headers`: only an answer that did not
 * wait for the body's end can come. Resolves with its status.
 */
async function postEndless(url: string, headers: Record<string, string>): Promise<number | undefined> {
  const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers } });
  request.on('error', () => undefined);
  for (let i = 0; i < 4; i++) request.write(Buffer.alloc(64 * 1024, 0x20));
  const answer = await new Promise<IncomingMessage>((resolve) => request.on('response', resolve));
  answer.resume();
  request.destroy();
  return answer.statusCode;
}

describe.each(receiverRuntimes)('createWebhookHandler in $name', (runtime) => {
  let receiver: RunningReceiver;
  let closed = false;
  beforeAll(async () => {
    receiver = await runtime.start(config, startLimitMs);
  });
  afterAll(async () => {
    if (!closed) await receiver?.close();
  });

  it('receives a notification the sandbox signed, and hands its event to onEvent', async () => {
    const subscription = await sandbox.control.createWebhookSubscription({
      url: receiver.url,
      eventTypes: ['alias.registered'],
      secret: config.secret,
      basicAuth: { username: config.username, password: config.password },
    });
    try {
      const payments = createSecretClient({ baseUrl: sandbox.url, apiKey: sandbox.keys.secret[0]! });
      const local = `smoke-${runtime.name.replace(/\W+/g, '-').toLowerCase()}`;
      const alias = await payments.aliases.register({ aliasAddress: `${local}@pay.example.com`, type: 'STATIC', supplierBusinessCode: 'TEST_BUSINESS', registrationPriority: 'ATTENDED' });
      // The registration completes on the sandbox's clock; its notification goes out then.
      await sandbox.control.advanceClock({ ms: 1_000 });
      await sandbox.webhooksIdle();
      const deliveries = (await sandbox.control.listWebhookDeliveries({ limit: 1000 })).items.filter((d) => d.subscriptionId === subscription.id);
      expect(deliveries.map((d) => [d.eventType, d.delivered])).toEqual([['alias.registered', true]]);
      // Every attempt was answered 200 (the sandbox may make a second while the first is in flight).
      expect(new Set(deliveries[0]!.attempts.map((a) => a.status))).toEqual(new Set([200]));
      await expect
        .poll(async () => (await fetch(`${receiver.url}events`)).json())
        .toEqual([{ id: deliveries[0]!.eventId, eventType: 'alias.registered', aliasId: alias.data.id }]);
    } finally {
      await sandbox.control.deleteWebhookSubscription(subscription.id);
    }
  });

  it.each([
    { label: 'without the Basic credentials', headers: () => ({ 'x-webhook-signature': signTestPayload('{}', { secret: config.secret }).header }), status: 401 },
    { label: 'without a signature header', headers: () => ({ authorization }), status: 400 },
    { label: 'with a signature an hour old', headers: () => ({ authorization, 'x-webhook-signature': signTestPayload('{}', { secret: config.secret, timestamp: Date.now() - 3_600_000 }).header }), status: 400 },
    { label: 'authentic, with a body past the cap', headers: () => ({ authorization, 'x-webhook-signature': signTestPayload('{}', { secret: config.secret }).header }), status: 413 },
  ])('refuses a POST $label with $status, without waiting for a body that never ends', async ({ headers, status }) => {
    expect(await postEndless(receiver.url, headers())).toBe(status);
  });

  // Last of the block: closing stops the runtime itself, not only its launcher (deno's in node_modules/.bin is a
  // Node script whose child outlived a kill of the launcher alone, listening after the suite).
  it('leaves nothing listening once closed', async () => {
    const port = Number(new URL(receiver.url).port);
    expect(await accepts(port), 'listening before close').toBe(true);
    await receiver.close();
    closed = true;
    // The runtime dies with its launcher's group; its socket goes a moment after the launcher's exit is seen.
    await vi.waitFor(async () => expect(await accepts(port), 'listening after close').toBe(false), { timeout: 3_000 });
  });
});

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
