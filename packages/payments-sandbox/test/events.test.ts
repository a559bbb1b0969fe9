// GET /__sandbox/events: the dashboard's live stream. Tests wait for the events they mean on the stream (no sleep);
// the heartbeat is driven by calling it, not by waiting 15 seconds.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startPaymentsSandbox } from '../src/index.js';
import { internalsOf, storeOf } from '../src/sandbox.js';
import { cardToken, cardTokenRequest, paymentRequest, sandboxPerTest } from './support.js';
import { EventStreamReader } from './support/event-stream.js';

const env = sandboxPerTest({ settings: { pendingSettlesAfterMs: 3_000 } });
const open: EventStreamReader[] = [];
afterEach(() => {
  for (const reader of open.splice(0)) reader.close();
});

async function stream(headers: Record<string, string> = {}): Promise<EventStreamReader> {
  const reader = await EventStreamReader.open(`${env.sandbox.controlUrl}/events`, { authorization: `Bearer ${env.sandbox.controlToken}`, ...headers });
  open.push(reader);
  expect(reader.response.status).toBe(200);
  return reader;
}

const hasEvent = (kind: string, ref?: string) => (reader: EventStreamReader) => reader.data().some((e) => e.kind === kind && (ref === undefined || e.ref === ref));

/** Waits until `predicate` holds, looking again at each turn of the event loop; the bound only fails a test. */
async function waitFor(predicate: () => boolean, what: string, bound = 100_000): Promise<void> {
  for (let turn = 0; turn < bound; turn++) {
    if (predicate()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never: ${what}`);
}

describe('the event stream', () => {
  it('tells of each request, transaction change, clock move, fault change and delivery, small: ids and kinds', async () => {
    const reader = await stream();
    expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reader.response.headers.get('cache-control')).toBe('no-store');
    const token = await cardToken(env);
    const paid = await env.secret.transactions.create(paymentRequest(token, 10.52) as never);
    const receiptNumber = (paid.data as { receiptNumber: string }).receiptNumber;
    await reader.waitUntil(hasEvent('transaction', receiptNumber), 'the new transaction');
    await reader.waitUntil(hasEvent('request'), 'a request');
    await env.sandbox.control.advanceClock({ ms: 3_000 });
    await reader.waitUntil(hasEvent('clock'), 'the clock moving');
    // The pending payment settled as the clock moved: a second change of the same transaction.
    await reader.waitUntil((r) => r.data().filter((e) => e.kind === 'transaction' && e.ref === receiptNumber).length === 2, 'the settlement');
    await env.sandbox.control.injectFault({ fault: { status: 503 } });
    await reader.waitUntil(hasEvent('faults'), 'the fault injected');
    await env.sandbox.control.createWebhookSubscription({ url: 'http://127.0.0.1:9/nowhere', secret: 'whsec_events' });
    await reader.waitUntil(hasEvent('subscription'), 'the subscription');
    await env.sandbox.control.resetSandbox();
    await reader.waitUntil(hasEvent('reset'), 'the reset');
    for (const event of reader.data()) expect(Object.keys(event).sort()).toEqual(event.ref === undefined ? ['id', 'kind'] : ['id', 'kind', 'ref']);
    // The ids count up by one: nothing was skipped.
    const ids = reader.events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
  });

  it('gives a reconnecting reader what it missed (Last-Event-ID), or reload when that is no longer kept', async () => {
    const first = await stream();
    await env.sandbox.control.advanceClock({ ms: 1 });
    await first.waitUntil(hasEvent('clock'), 'a first event');
    const lastSeen = first.events.at(-1)!.id!;
    first.close();
    await env.sandbox.control.advanceClock({ ms: 1 });
    await env.sandbox.control.injectFault({ fault: { status: 503 } });
    const again = await stream({ 'last-event-id': lastSeen });
    await again.waitUntil(hasEvent('faults'), 'the missed events');
    expect(again.data().map((e) => e.kind)).toEqual(['clock', 'faults']);

    const { activity } = internalsOf(env.sandbox);
    for (let i = 0; i < activity.capacity + 1; i++) activity.emit('request', `req_x${i}`);
    const late = await stream({ 'last-event-id': lastSeen });
    await late.waitUntil(hasEvent('reload'), 'reload');
    expect(late.data()).toHaveLength(1);
    const unknown = await stream({ 'last-event-id': 'not-a-number' });
    await unknown.waitUntil(hasEvent('reload'), 'reload for an id never handed out');
  });

  it('sends a heartbeat comment to every reader when the timer fires', async () => {
    const reader = await stream();
    internalsOf(env.sandbox).streams.beat();
    await reader.waitUntil((r) => r.events.some((e) => e.comment === 'heartbeat'), 'a heartbeat');
  });

  it('takes the dashboard session cookie, as a browser EventSource sends it', async () => {
    const signedIn = await fetch(`${env.sandbox.origin}/__sandbox/ui/session`, {
      method: 'POST',
      headers: { origin: env.sandbox.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ token: env.sandbox.controlToken }),
    });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const reader = await EventStreamReader.open(`${env.sandbox.controlUrl}/events`, { cookie, 'sec-fetch-site': 'same-origin' });
    open.push(reader);
    expect(reader.response.status).toBe(200);
    await env.sandbox.control.advanceClock({ ms: 1 });
    await reader.waitUntil(hasEvent('clock'), 'an event');
  });

  it('drops a reader that does not read, once its backlog passes the bound, after telling it to reload; others go on', async () => {
    const { activity, streams } = internalsOf(env.sandbox);
    const steady = await stream();
    const url = new URL(env.sandbox.controlUrl);
    const slow: Socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => slow.once('connect', resolve));
    slow.write(`GET /__sandbox/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${env.sandbox.controlToken}\r\n\r\n`);
    slow.pause(); // reads nothing from now on
    await waitFor(() => streams.readers === 2, 'the slow reader connected');
    let sent = 0;
    // Events until the slow reader is let go (the kernel's socket buffers take some first), a few per turn of the
    // event loop so that the steady reader, in this process, reads between them; the bound fails the test.
    await waitFor(() => {
      for (let i = 0; i < 100; i++) activity.emit('request', `req_flood_${sent++}`);
      return streams.readers < 2;
    }, 'the slow reader dropped', 200_000);
    expect(sent).toBeGreaterThan(1_000);
    expect(streams.readers).toBe(1);
    expect(activity.followers).toBe(1);
    // What it is sent in the end: everything up to its bound, then reload; then the stream ends.
    let received = '';
    slow.on('data', (chunk: Buffer) => (received += chunk.toString()));
    slow.resume();
    await new Promise((resolve) => slow.once('end', resolve));
    const data = received.split('\n').filter((line) => line.startsWith('data: '));
    expect(data.length).toBeGreaterThan(100);
    expect(data.at(-1)).toMatch(/^data: \{"id":\d+,"kind":"reload"\}$/);
    slow.destroy();
    // The steady reader still gets events.
    await env.sandbox.control.advanceClock({ ms: 1 });
    await steady.waitUntil(hasEvent('clock'), 'an event after the flood');
  });

  it('costs nothing once the last reader has gone: no reader is followed', async () => {
    const { activity, streams } = internalsOf(env.sandbox);
    const reader = await stream();
    await waitFor(() => streams.readers === 1, 'the reader counted');
    expect(activity.followers).toBe(1);
    reader.close();
    await waitFor(() => streams.readers === 0, 'the reader gone');
    expect(activity.followers).toBe(0);
  });

  it('sends a flood of events between two flushes whole: more than the feed keeps, in order, without reload', async () => {
    const { activity } = internalsOf(env.sandbox);
    const reader = await stream();
    await env.sandbox.control.advanceClock({ ms: 1 });
    await reader.waitUntil(hasEvent('clock'), 'a first event');
    // In one turn of the event loop: the stream must send some before the feed's ring forgets them.
    const count = activity.capacity * 3;
    for (let i = 0; i < count; i++) activity.emit('request', `req_burst_${i}`);
    await reader.waitUntil(hasEvent('request', `req_burst_${count - 1}`), 'the last of the flood');
    const burst = reader.data().filter((e) => e.ref?.startsWith('req_burst_'));
    expect(burst.map((e) => e.ref)).toEqual(Array.from({ length: count }, (_, i) => `req_burst_${i}`));
    expect(reader.data().some((e) => e.kind === 'reload')).toBe(false);
  });
});

describe('a contract violation on the stream', () => {
  it('follows the request whose answer broke the contract, naming it', async () => {
    const sandbox = await startPaymentsSandbox({ checkResponses: true });
    const reader = await EventStreamReader.open(`${sandbox.controlUrl}/events`, { authorization: `Bearer ${sandbox.controlToken}` });
    try {
      expect(reader.response.status).toBe(200);
      const [secretKey] = sandbox.keys.secret;
      const [publishableKey] = sandbox.keys.publishable;
      const call = async (key: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(`${sandbox.url}${path}`, {
          method,
          headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      };
      const token = await call(publishableKey!, 'POST', '/single-use-tokens', cardTokenRequest());
      const paid = await call(secretKey!, 'POST', '/transactions', paymentRequest(token.body.singleUseTokenId!, 10.52));
      expect([201, 202]).toContain(paid.status);
      const receiptNumber = paid.body.receiptNumber!;
      // Until here the sandbox kept the contract: no violation yet (the check below cannot pass for another reason).
      expect(sandbox.violations()).toEqual([]);
      expect(reader.data().some((e) => e.kind === 'violation')).toBe(false);
      // A comment that is not a string, put in the record: the next answer that shows it breaks the contract.
      (storeOf(sandbox)!.state.transactions.get(receiptNumber) as unknown as { comment: unknown }).comment = 42;
      const read = await call(secretKey!, 'GET', `/transactions/${receiptNumber}`);
      expect(read.body.comment).toBe(42);
      await reader.waitUntil(hasEvent('violation'), 'the violation');
      const events = reader.data();
      const violation = events.find((e) => e.kind === 'violation')!;
      expect(violation.ref).toMatch(/^req_\d+$/);
      // Right after the request's own event, and the request it names is the GET, with the problem in it.
      expect(events[events.indexOf(violation) - 1]).toEqual({ id: violation.id - 1, kind: 'request', ref: violation.ref });
      const { items } = await sandbox.control.listRequests({});
      const request = items.find((r) => r.id === violation.ref)!;
      expect(request).toMatchObject({ method: 'GET', path: `${new URL(sandbox.url).pathname}/transactions/${receiptNumber}`, status: 200 });
      expect(request.violations.length).toBeGreaterThan(0);
      expect(sandbox.violations()).toEqual(request.violations);
    } finally {
      reader.close();
      await sandbox.close();
    }
  });
});
