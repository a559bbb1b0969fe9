import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  constructWebhookEvent,
  createWebhookReceiver,
  isAliasEventFor,
  parseSignatureHeader,
  signTestPayload,
  verifySignature,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookReceiverOptions,
} from '../src/webhooks/index.js';

const secret = 'whsec_test_secret';
const now = 1_700_000_000_000;
const knownBody = '{"id":"evt_1","eventType":"alias.registered"}';
// Computed outside this code: printf '%s' '1700000000000.<body>' | openssl dgst -sha256 -hmac whsec_test_secret
const knownSignature = '851dbb289906d3a99a2b21bcba983a80f7e74d1a00ac3cbb7dac44aecc32ed66';

const registered = {
  id: 'evt_1',
  timestamp: '2026-03-02T10:15:30Z',
  eventType: 'alias.registered',
  data: { id: 'alias-1', aliasAddress: 'invoice-1@pay.example.com', type: 'STATIC', status: 'REGISTERED' },
};
const paymentReceived = {
  id: 'evt_2',
  timestamp: '2026-03-02T10:15:30Z',
  eventType: 'alias.payment.received',
  data: { receiptNumber: '1', status: 'Approved', aliasAccount: { accountType: 'ALIAS', id: 'alias-1' } },
};

function failureReason(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('signature verification (assumed scheme: HMAC-SHA256 over t.body)', () => {
  it('accepts the known answer, as a string or as bytes', () => {
    const header = `t=${now},v1=${knownSignature}`;
    expect(verifySignature(knownBody, header, { secret, now }).timestamp).toBe(String(now));
    expect(verifySignature(Buffer.from(knownBody), header, { secret, now }).signatures).toEqual([knownSignature]);
  });

  it('signs test payloads the same way', () => {
    expect(signTestPayload(knownBody, { secret, timestamp: now }).header).toBe(`t=${now},v1=${knownSignature}`);
  });

  it.each([
    { label: 'several v1 values, one right', header: `t=${now},v1=${'00'.repeat(32)},v1=${knownSignature}`, reason: undefined },
    { label: 'unknown keys and spaces', header: ` t=${now} , v0=abc, scheme=x,v1=${knownSignature}`, reason: undefined },
    { label: 'upper-case hex', header: `t=${now},v1=${knownSignature.toUpperCase()}`, reason: undefined },
    { label: 'no header', header: undefined, reason: 'missing-signature' },
    { label: 'no t', header: `v1=${knownSignature}`, reason: 'malformed-signature' },
    { label: 'two t', header: `t=${now},t=${now},v1=${knownSignature}`, reason: 'malformed-signature' },
    { label: 'no v1', header: `t=${now},v0=${knownSignature}`, reason: 'malformed-signature' },
    { label: 'seconds, not milliseconds', header: `t=${now / 1000},v1=${knownSignature}`, reason: 'timestamp-outside-tolerance' },
    { label: 'a wrong signature', header: `t=${now},v1=${knownSignature.replace(/^8/, '9')}`, reason: 'signature-mismatch' },
    { label: 'a truncated signature', header: `t=${now},v1=${knownSignature.slice(0, 62)}`, reason: 'signature-mismatch' },
    { label: 'another timestamp', header: `t=${now + 1},v1=${knownSignature}`, reason: 'signature-mismatch' },
  ])('$label: $reason', ({ header, reason }) => {
    expect(failureReason(() => verifySignature(knownBody, header, { secret, now }))).toBe(reason);
  });

  it.each([
    { skew: 5 * 60 * 1000, reason: undefined },
    { skew: 5 * 60 * 1000 + 1, reason: 'timestamp-outside-tolerance' },
    { skew: -(5 * 60 * 1000 + 1), reason: 'timestamp-outside-tolerance' },
  ])('tolerates a clock skew of 5 minutes by default (skew $skew ms: $reason)', ({ skew, reason }) => {
    const { body, header } = signTestPayload(registered, { secret, timestamp: now });
    expect(failureReason(() => verifySignature(body, header, { secret, now: now + skew }))).toBe(reason);
  });

  it('refuses an already-parsed body and says the raw body is needed', () => {
    const { header } = signTestPayload(registered, { secret, timestamp: now });
    let error: unknown;
    try {
      verifySignature(registered as never, header, { secret, now });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('parsed-body');
    expect((error as Error).message).toMatch(/raw request body/);
  });

  it('uses a replacement scheme when given one', () => {
    const scheme = (key: string, t: string) => Buffer.from(`${key}|${t}`).toString('hex');
    const { body, header } = signTestPayload(registered, { secret, timestamp: now, scheme });
    expect(constructWebhookEvent(body, header, { secret, now, scheme }).eventType).toBe('alias.registered');
    expect(failureReason(() => verifySignature(body, header, { secret, now }))).toBe('signature-mismatch');
  });
});

describe('options that would let forged notifications through are refused with a WebhookConfigurationError', () => {
  const yearMs = 365 * 24 * 3_600_000;
  /** A header a forger can make when the secret is empty: HMAC keyed with nothing. */
  const forged = (body: string, key: string, timestamp: number) =>
    `t=${timestamp},v1=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;

  /** The configuration error an action throws; anything else (or nothing) fails the test. */
  function configurationError(action: () => unknown): WebhookConfigurationError {
    try {
      action();
    } catch (error) {
      if (error instanceof WebhookConfigurationError) return error;
      throw error;
    }
    throw new Error('expected a WebhookConfigurationError, the action passed');
  }

  const cases = [
    { label: 'an empty secret', options: { secret: '' }, signedAt: now, option: 'secret' },
    { label: 'a blank secret', options: { secret: '   ' }, signedAt: now, option: 'secret' },
    { label: 'an unset secret', options: { secret: undefined }, signedAt: now, option: 'secret' },
    { label: 'a NaN tolerance', options: { secret, toleranceMs: Number.NaN }, signedAt: now - yearMs, option: 'toleranceMs' },
    { label: 'an infinite tolerance', options: { secret, toleranceMs: Infinity }, signedAt: now - yearMs, option: 'toleranceMs' },
    { label: 'a negative tolerance', options: { secret, toleranceMs: -1 }, signedAt: now, option: 'toleranceMs' },
    { label: 'an empty tolerance (an unset variable)', options: { secret, toleranceMs: '' }, signedAt: now, option: 'toleranceMs' },
    { label: '-Infinity as tolerance', options: { secret, toleranceMs: -Infinity }, signedAt: now, option: 'toleranceMs' },
    { label: 'a NaN clock', options: { secret, now: Number.NaN }, signedAt: now - yearMs, option: 'now' },
  ] as const;

  it.each(cases)('verifySignature refuses $label', ({ options, signedAt, option }) => {
    const header = forged(knownBody, options.secret ?? '', signedAt);
    const error = configurationError(() => verifySignature(knownBody, header, { now, ...options } as never));
    expect(error.option).toBe(option);
    expect(error.message).toMatch(option);
  });

  it.each(cases)('createWebhookReceiver refuses $label when it is made', ({ options, option }) => {
    expect(configurationError(() => createWebhookReceiver({ ...options, onEvent: () => undefined } as never)).option).toBe(option);
  });

  it.each([
    { label: 'an unset password', basicAuth: { username: 'merchant', password: undefined }, option: 'basicAuth.password' },
    { label: 'an empty password', basicAuth: { username: 'merchant', password: '' }, option: 'basicAuth.password' },
    { label: 'an empty user name', basicAuth: { username: '', password: 's3cret' }, option: 'basicAuth.username' },
    { label: 'a user name with a colon', basicAuth: { username: 'a:b', password: 's3cret' }, option: 'basicAuth.username' },
  ])('createWebhookReceiver refuses Basic credentials with $label', ({ basicAuth, option }) => {
    const error = configurationError(() => createWebhookReceiver({ secret, basicAuth, onEvent: () => undefined } as never));
    expect(error.option).toBe(option);
    expect(error.message).not.toContain('s3cret');
  });

  it('signTestPayload refuses an empty secret too', () => {
    expect(configurationError(() => signTestPayload(registered, { secret: '' })).option).toBe('secret');
  });
});

describe('properties over malformed input (fast-check)', () => {
  const verify = (body: string, header: string | undefined) => () => verifySignature(body, header, { secret, now });

  it('any header string: only WebhookVerificationError, and never an accept', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        expect(failureReason(verify(knownBody, header))).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('structured headers with random parts: only typed errors, never an accept', () => {
    const part = fc.oneof(
      fc.constant(`t=${now}`),
      fc.integer().map((n) => `t=${n}`),
      fc.stringMatching(/^[0-9a-f]{0,70}$/).map((hex) => `v1=${hex}`),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), fc.constantFrom(',', ', ', ';'), (parts, separator) => {
        expect(failureReason(verify(knownBody, parts.join(separator)))).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('any change to a signed body is refused', () => {
    const header = `t=${now},v1=${knownSignature}`;
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.nat(), (insert, at) => {
        const position = at % (knownBody.length + 1);
        const tampered = knownBody.slice(0, position) + insert + knownBody.slice(position);
        expect(failureReason(verify(tampered, header))).toBe('signature-mismatch');
      }),
      { numRuns: 300 },
    );
  });
});

describe('typed events', () => {
  it.each([
    { event: registered, aliasId: 'alias-1', matches: true },
    { event: registered, aliasId: 'alias-2', matches: false },
    { event: { ...registered, data: { ...registered.data, status: 'REJECTED' } }, aliasId: 'alias-1', matches: false },
    { event: paymentReceived, aliasId: 'alias-1', matches: true },
    { event: { ...paymentReceived, data: { ...paymentReceived.data, status: 'Declined' } }, aliasId: 'alias-1', matches: false },
  ])('checks $event.eventType for alias $aliasId: $matches', ({ event, aliasId, matches }) => {
    const { body, header } = signTestPayload(event, { secret, timestamp: now });
    expect(isAliasEventFor(constructWebhookEvent(body, header, { secret, now }), aliasId)).toBe(matches);
  });

  it.each([
    { body: 'not json', reason: 'malformed-body' },
    { body: '{"id":"x"}', reason: 'malformed-body' },
    { body: '{"eventType":"mandate.agreement.changed"}', reason: 'unknown-event-type' },
  ])('refuses $body with $reason', ({ body, reason }) => {
    const { header } = signTestPayload(body, { secret, timestamp: now });
    expect(failureReason(() => constructWebhookEvent(body, header, { secret, now }))).toBe(reason);
  });

  it('parses headers on their own', () => {
    expect(parseSignatureHeader(`t=1,v1=ab,v1=CD`)).toEqual({ timestamp: '1', signatures: ['ab', 'cd'] });
  });
});

/** POSTs a body to a local server; resolves to the answer's status once the answer has been read. */
function post(port: number, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/hooks', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let server: Server | undefined;

/** A receiver on a real HTTP server, recording what it hands over and in which order it answers and hands over. */
async function startReceiver(options: Partial<WebhookReceiverOptions>) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const order: string[] = [];
  // What each call of the receiver returned: it settles once the event has been handed over, or refused.
  const handling: Promise<void>[] = [];
  const receive = createWebhookReceiver({
    secret,
    onEvent: (event) => {
      order.push('handled');
      events.push(event);
    },
    onError: (error) => errors.push(error),
    ...options,
  });
  server = createServer((req, res) => {
    res.on('finish', () => order.push(`answered ${res.statusCode}`));
    handling.push(receive(req, res));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** Posts a notification, then waits until the receiver is done with it. */
  const deliver = async (body: string, headers: Record<string, string>) => {
    const status = await post(port, body, headers);
    await Promise.all(handling);
    return status;
  };
  return { events, errors, order, deliver };
}

describe('receiver on a real HTTP server', () => {
  afterEach(async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  });

  it('answers 200 before handing over the verified event', async () => {
    const receiver = await startReceiver({});
    const { body, header } = signTestPayload(paymentReceived, { secret });
    expect(await receiver.deliver(body, { 'X-Webhook-Signature': header })).toBe(200);
    expect(receiver.order).toEqual(['answered 200', 'handled']);
    expect(receiver.events[0]?.eventType).toBe('alias.payment.received');
  });

  it.each([
    { label: 'a bad signature', sign: false, auth: 'merchant:s3cret', status: 400 },
    { label: 'missing Basic credentials', sign: true, auth: undefined, status: 401 },
    { label: 'wrong Basic credentials', sign: true, auth: 'merchant:wrong', status: 401 },
    { label: 'right Basic credentials', sign: true, auth: 'merchant:s3cret', status: 200 },
  ])('answers $status to $label when Basic auth protects the endpoint', async ({ sign, auth, status }) => {
    const receiver = await startReceiver({ basicAuth: { username: 'merchant', password: 's3cret' } });
    const signed = signTestPayload(registered, { secret });
    const headers: Record<string, string> = { 'X-Webhook-Signature': sign ? signed.header : 't=1,v1=00' };
    if (auth) headers.Authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
    expect(await receiver.deliver(signed.body, headers)).toBe(status);
    expect(receiver.events).toHaveLength(status === 200 ? 1 : 0);
  });

  it('refuses a body an Express-style parser already turned into an object', async () => {
    const receive = createWebhookReceiver({ secret, onEvent: () => undefined });
    const signed = signTestPayload(registered, { secret });
    let status = 0;
    let text = '';
    const response = {
      writeHead: (code: number) => ((status = code), response),
      end: (message?: string) => ((text = message ?? ''), response),
    };
    await receive({ headers: { 'x-webhook-signature': signed.header }, body: registered } as never, response as never);
    expect(status).toBe(400);
    expect(text).toMatch(/raw request body/);
  });
});
