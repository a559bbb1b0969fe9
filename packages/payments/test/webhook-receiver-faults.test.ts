import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createWebhookReceiver, signTestPayload, verifySignature, WebhookVerificationError, type WebhookReceiverOptions } from '../src/webhooks/index.js';

// What the receiver does when the merchant's callbacks fail, or the peer cuts or stalls the body. The 200 goes out
// before the event is handed over (the reference's first receiver rule), so a failure after it cannot become a 500
// and the service will not deliver the event again: it must reach the merchant, never vanish or stop the server.

const secret = 'whsec_test_secret';
const event = { id: 'evt_9', eventType: 'alias.registered', data: { id: 'alias-9', status: 'REGISTERED' } };
const unknownEvent = { id: 'evt_10', eventType: 'mandate.agreement.created', data: {} };

let logged: MockInstance<typeof console.error>;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  vi.restoreAllMocks();
});

/** Delivers a signed notification to the receiver in process; resolves to the status it answered with. */
async function deliver(options: Omit<WebhookReceiverOptions, 'secret'>, payload: unknown = event): Promise<number> {
  const receive = createWebhookReceiver({ secret, ...options });
  const { body, header } = signTestPayload(payload, { secret });
  let status = 0;
  const response = {
    writeHead: (code: number) => ((status = code), response),
    end: (...args: unknown[]) => {
      const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      callback?.();
      return response;
    },
  };
  await receive({ headers: { 'x-webhook-signature': header }, body } as never, response as never);
  // Two turns of the event loop: long enough for any unhandled rejection to be reported.
  await nextTurn();
  await nextTurn();
  return status;
}

const failure = new Error('database down');

describe("the merchant's callbacks fail after the 200", () => {
  it.each([
    { label: 'onEvent throws', options: { onEvent: () => { throw failure; } } },
    { label: 'onEvent rejects', options: { onEvent: () => Promise.reject(failure) } },
    { label: 'onUnknownEvent throws', options: { onEvent: () => undefined, onUnknownEvent: () => { throw failure; } }, payload: unknownEvent },
  ])('$label without onError: logged with console.error, nothing unhandled', async ({ options, payload }) => {
    expect(await deliver(options, payload)).toBe(200);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0]).toContain(failure);
    expect(String(logged.mock.calls[0]![0])).toMatch(/not handled.*onError/);
    expect(unhandled).toEqual([]);
  });

  it('onEvent throws with onError: onError gets it, nothing is logged', async () => {
    const errors: unknown[] = [];
    expect(await deliver({ onEvent: () => Promise.reject(failure), onError: (error) => void errors.push(error) })).toBe(200);
    expect(errors).toEqual([failure]);
    expect(logged).not.toHaveBeenCalled();
  });

  it.each([
    { label: 'throws', onError: () => { throw new Error('logger down'); } },
    { label: 'rejects', onError: () => Promise.reject(new Error('logger down')) as never },
  ])('onError itself $label: logged with console.error, nothing unhandled', async ({ onError }) => {
    expect(await deliver({ onEvent: () => { throw failure; }, onError })).toBe(200);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![1])).toMatch(/logger down/);
    expect(unhandled).toEqual([]);
  });

  it('a refused notification without onError is answered, not logged (a forger could fill the logs)', async () => {
    const receive = createWebhookReceiver({ secret, onEvent: () => undefined });
    let status = 0;
    const response = { writeHead: (code: number) => ((status = code), response), end: () => response };
    await receive({ headers: { 'x-webhook-signature': 't=1,v1=00' }, body: '{}' } as never, response as never);
    expect(status).toBe(400);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe("the merchant's signature scheme throws", () => {
  const scheme = () => {
    throw new Error('scheme bug');
  };

  it('verifySignature lets the error through as it is: it is no verdict on the notification', () => {
    const { body, header } = signTestPayload(event, { secret });
    expect(() => verifySignature(body, header, { secret, scheme })).toThrow('scheme bug');
  });

  it('the receiver answers 400 and gives the error to onError; no event is handed over', async () => {
    const errors: unknown[] = [];
    const events: unknown[] = [];
    const status = await deliver({ scheme, onEvent: (e) => void events.push(e), onError: (e) => void errors.push(e) });
    expect(status).toBe(400);
    expect(String(errors[0])).toMatch(/scheme bug/);
    expect(events).toEqual([]);
  });
});

describe('the peer cuts or stalls the body (real HTTP server)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** A receiver behind Node's server with a short request timeout; resolves once the receiver is done. */
  async function receiverServer() {
    const events: unknown[] = [];
    const errors: unknown[] = [];
    // Settles once Node has handed a request to the receiver, with the receiver's own promise: the test cuts the
    // body only then, so a slow machine cannot make the cut land before there is a request to cut.
    let handedOver!: (done: Promise<void>) => void;
    const received = new Promise<Promise<void>>((resolve) => (handedOver = resolve));
    const receive = createWebhookReceiver({ secret, onEvent: (e) => void events.push(e), onError: (e) => void errors.push(e) });
    // real-time: the one real stall of the receiver, ended by Node's own request timeout (which no fake clock moves):
    // however late it fires, the verdict is the same, and the test waits for the receiver to finish, not for a time.
    server = createServer({ requestTimeout: 300, connectionsCheckingInterval: 50 }, (req, res) => {
      handedOver(receive(req, res));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { port, events, errors, received };
  }

  it.each([
    { label: 'cut off mid-body', stall: false },
    { label: 'stalled mid-body (ended by the server request timeout)', stall: true },
  ])('$label: no event is handed over, onError is told', async ({ stall }) => {
    const receiver = await receiverServer();
    const { body, header } = signTestPayload(event, { secret });
    const request = httpRequest({
      host: '127.0.0.1',
      port: receiver.port,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-webhook-signature': header },
    });
    request.on('error', () => undefined);
    request.write(body.slice(0, 10));
    const done = await receiver.received;
    if (!stall) request.destroy();
    await done;
    request.destroy();
    expect(receiver.errors).toHaveLength(1);
    expect(receiver.events).toEqual([]);
    expect(receiver.errors[0]).not.toBeInstanceOf(WebhookVerificationError);
  });
});
