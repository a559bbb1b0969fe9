import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, createWebhookReceiver, dedupeEvents, signTestPayload, type WebhookDeliveryOptions, type WebhookEvent } from '../../src/webhooks/index.js';

// Fault rows "a hostile sender posts a huge body" and "a body past the cap", for both receivers (Node's http and the
// Fetch API): the credentials and the signature header's form and timestamp are checked before a byte of the body is
// read, and no body is read past `maxBodyBytes`. One unauthenticated 256 MB POST used to be read whole first. Then
// Express's body parser meeting another Content-Type, a notification delivered twice, and answering after onEvent.

const secret = 'whsec_test_secret';
const basicAuth = { username: 'payments', password: 'hook-password' };
const authorization = `Basic ${Buffer.from('payments:hook-password').toString('base64')}`;
const event = { id: 'evt_9', eventType: 'alias.registered', data: { id: 'alias-9', status: 'REGISTERED' } };
const chunk = new Uint8Array(64 * 1024).fill(0x20);
const maxBodyBytes = 128 * 1024;

/** Headers of a signed notification for `body`, with the credentials unless told otherwise. */
function headersFor(body: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const { header } = signTestPayload(body, { secret });
  const all: Record<string, string | undefined> = { 'content-type': 'application/json', authorization, 'x-webhook-signature': header, ...overrides };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

const refusals = [
  { label: 'no credentials', overrides: { authorization: undefined }, status: 401 },
  { label: 'wrong credentials', overrides: { authorization: 'Basic d3Jvbmc6d3Jvbmc=' }, status: 401 },
  { label: 'no signature header', overrides: { 'x-webhook-signature': undefined }, status: 400 },
  { label: 'a signature header of another form', overrides: { 'x-webhook-signature': 'sha256=abc' }, status: 400 },
  { label: 'a timestamp an hour old', overrides: { 'x-webhook-signature': `t=${Date.now() - 3_600_000},v1=${'ab'.repeat(32)}` }, status: 400 },
  { label: 'a Content-Length past the cap', overrides: { 'content-length': String(256 * 1024 * 1024) }, status: 413 },
];

describe("Node's receiver, behind a real server, with a body that never ends", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function receiving(options: Partial<WebhookDeliveryOptions> = {}) {
    const events: WebhookEvent[] = [];
    const receive = createWebhookReceiver({ secret, basicAuth, maxBodyBytes, onEvent: (e) => void events.push(e), ...options });
    server = createServer((req, res) => void receive(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, events };
  }

  /**
   * Posts a chunked body that never ends: four chunks (past the cap), then nothing, the last chunk never sent. Only an
   * answer that did not wait for the body's end can come; resolves with it and whether the connection then closed.
   */
  async function postEndless(port: number, headers: Record<string, string>) {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', headers });
    request.on('error', () => undefined);
    for (let i = 0; i < 4; i++) request.write(chunk);
    const answer = await new Promise<IncomingMessage>((resolve) => request.on('response', resolve));
    answer.resume();
    const closed = new Promise<void>((resolve) => request.socket!.on('close', () => resolve()));
    return { status: answer.statusCode, closed };
  }

  it.each(refusals)('$label: $status without waiting for the body, and the connection goes', async ({ overrides, status }) => {
    const { port, events } = await receiving();
    // Chunked, or as long as the Content-Length announces (256 MB): either way it never arrives whole.
    const framing = 'content-length' in overrides ? {} : { 'transfer-encoding': 'chunked' };
    const answered = await postEndless(port, headersFor('{}', { ...framing, ...overrides }));
    expect(answered.status).toBe(status);
    await answered.closed;
    expect(events).toEqual([]);
  });

  it('an authentic sender whose body goes past the cap: 413 once the cap is passed, the rest unread', async () => {
    const { port, events } = await receiving();
    const answered = await postEndless(port, headersFor('{}', { 'transfer-encoding': 'chunked' }));
    expect(answered.status).toBe(413);
    await answered.closed;
    expect(events).toEqual([]);
  });

  it("Express's body parser met another Content-Type (req.body = {}, the body unread): the notification is read and accepted", async () => {
    const events: WebhookEvent[] = [];
    const receive = createWebhookReceiver({ secret, onEvent: (e) => void events.push(e) });
    server = createServer((req, res) => {
      // What express.json() does when the Content-Type is not JSON: an empty body object, the stream left alone.
      (req as IncomingMessage & { body?: unknown }).body = {};
      void receive(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const body = JSON.stringify(event);
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      headers: headersFor(body, { authorization: undefined, 'content-type': 'application/cloudevents+json' }),
      body,
    });
    expect(response.status).toBe(200);
    await expect.poll(() => events).toEqual([event]);
  });
});

describe('the Fetch API handler', () => {
  /** A body of `chunks` chunks that counts what the handler pulls from it. */
  function countedBody(chunks = Infinity) {
    let pulled = 0;
    let served = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (served++ >= chunks) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { stream, pulled: () => pulled };
  }

  const post = (headers: Record<string, string>, body: BodyInit) => new Request('https://merchant.example/webhooks', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

  it.each(refusals)('$label: $status, nothing of the body read (no more than the stream queued by itself)', async ({ overrides, status }) => {
    const events: unknown[] = [];
    const handle = createWebhookHandler({ secret, basicAuth, maxBodyBytes, onEvent: (e) => void events.push(e) });
    const body = countedBody();
    const response = await handle(post(headersFor('{}', overrides), body.stream));
    expect(response.status).toBe(status);
    // A stream pulls one chunk ahead when made (its queue); the handler pulled none itself.
    expect(body.pulled()).toBeLessThanOrEqual(chunk.length);
    expect(events).toEqual([]);
  });

  it('an authentic sender whose body goes past the cap: 413 after at most the cap and one chunk', async () => {
    const handle = createWebhookHandler({ secret, basicAuth, maxBodyBytes, onEvent: () => undefined });
    const body = countedBody();
    const response = await handle(post(headersFor('{}'), body.stream));
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(maxBodyBytes + 2 * chunk.length);
  });

  it('an authentic notification: 200 at once, the event handed over after, inside waitUntil', async () => {
    const order: string[] = [];
    let handOver!: () => void;
    const onEvent = () => new Promise<void>((resolve) => (handOver = () => (order.push('onEvent done'), resolve())));
    const handle = createWebhookHandler({ secret, basicAuth, onEvent: () => (order.push('onEvent'), onEvent()) });
    const body = JSON.stringify(event);
    const lent: Promise<unknown>[] = [];
    const response = await handle(post(headersFor(body), body), { waitUntil: (work) => void lent.push(work) });
    order.push(`answered ${response.status}`);
    expect(lent).toHaveLength(1);
    await expect.poll(() => order).toEqual(['answered 200', 'onEvent']);
    handOver();
    await lent[0];
    expect(order).toEqual(['answered 200', 'onEvent', 'onEvent done']);
  });

  it.each([
    { label: 'onEvent stores the event', fails: false, status: 200 },
    { label: 'onEvent fails', fails: true, status: 500 },
  ])("acknowledge 'after-event': $label: $status after onEvent", async ({ fails, status }) => {
    const order: string[] = [];
    const errors: unknown[] = [];
    const handle = createWebhookHandler({
      secret,
      acknowledge: 'after-event',
      onEvent: async () => {
        await Promise.resolve();
        order.push('stored');
        if (fails) throw new Error('database down');
      },
      onError: (error) => void errors.push(error),
    });
    const body = JSON.stringify(event);
    const response = await handle(post(headersFor(body, { authorization: undefined }), body));
    order.push(`answered ${response.status}`);
    expect(order).toEqual(['stored', `answered ${status}`]);
    expect(errors.map(String)).toEqual(fails ? ['Error: database down'] : []);
  });
});

describe('a notification delivered twice', () => {
  it('reaches a dedupeEvents handler once; a delivery after a failure is handled again', async () => {
    const handled: string[] = [];
    let failNext = true;
    const onEvent = dedupeEvents((e) => {
      if (failNext) {
        failNext = false;
        throw new Error('database down');
      }
      handled.push(e.id!);
    });
    const handle = createWebhookHandler({ secret, acknowledge: 'after-event', onEvent, onError: () => undefined });
    const body = JSON.stringify(event);
    const deliver = async () => (await handle(new Request('https://merchant.example/', { method: 'POST', headers: headersFor(body, { authorization: undefined }), body }))).status;
    expect(await deliver()).toBe(500);
    expect(await deliver()).toBe(200);
    expect(await deliver()).toBe(200);
    expect(handled).toEqual(['evt_9']);
  });
});
