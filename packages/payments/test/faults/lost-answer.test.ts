import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';
import { inProcessClient, useFakeClock, type Answer } from '../support/in-process-fetch.js';
import { createRawClient } from '../../src/raw.js';

// Fault row "answer lost after the work": the request may have reached the service and been carried out (a payment
// taken), and its answer never arrived: the connection dropped once the retries were spent, the deadline passed
// while waiting, or the caller aborted in flight. That is an unknown outcome, not a failure: `mustQueryState`, the
// Idempotency-Key to resend with and until when the service replays it (`resendUntil`), and a message that says not to
// take the payment again before knowing. A request that never left (refused connection, aborted before sending) or
// only reads is no such thing.

let server: LoopbackServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const lifetimeMs = 22 * 3_600_000;
const dropped: Answer = () => Promise.reject(new TypeError('fetch failed', { cause: new Error('other side closed') }));
const never: Answer = () => new Promise<Response>(() => undefined);
const unknownAdvice = /outcome is unknown: do not take the payment again before you know; query the resource for its state, or resend with the same Idempotency-Key \(order-42\/attempt-1\)/;

describe('a POST whose answer is lost', () => {
  it.each([
    { fault: 'every attempt dropped (retries spent)', answer: dropped, kind: 'network', attempts: 3, timeoutMs: 60_000 },
    { fault: 'no answer before the deadline', answer: never, kind: 'timeout', attempts: 1, timeoutMs: 5_000 },
    {
      fault: 'the first attempt dropped, the resends answered 503',
      answer: ((_request, index) => (index === 0 ? dropped(_request, index) : Response.json({}, { status: 503 }))) as Answer,
      kind: 'server',
      attempts: 3,
      timeoutMs: 60_000,
    },
  ] as const)('$fault: $kind, an unknown outcome naming the key to resend with', async ({ answer, kind, attempts, timeoutMs }) => {
    useFakeClock();
    const startedAt = Date.now();
    const { client, requests } = inProcessClient(answer, { retry: { delayMs: 1_000 }, timeoutMs });
    const call = failure(client.transactions.create(paymentRequest, { idempotencyKey: 'order-42/attempt-1' }));
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    expect(error).toMatchObject({ kind, attempts, mustQueryState: true, idempotencyKey: 'order-42/attempt-1' });
    expect(error.resendUntil).toBe(new Date(startedAt + lifetimeMs).toISOString());
    expect(error.message).toMatch(unknownAdvice);
    expect(error.toJSON()).toMatchObject({ mustQueryState: true, resendUntil: error.resendUntil });
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(Array(attempts).fill('order-42/attempt-1'));
  });

  it('the caller aborts in flight: aborted, an unknown outcome', async () => {
    const controller = new AbortController();
    const { client } = inProcessClient(() => (controller.abort(), never(undefined as never, 0)));
    const error = await failure(client.transactions.create(paymentRequest, { idempotencyKey: 'order-42/attempt-1', signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1, mustQueryState: true });
  });

  it('through the raw client: the thrown PaymentsError is an unknown outcome too', async () => {
    const { client } = inProcessClient(dropped, { retry: { maxRetries: 0 } });
    const error = await failure(createRawClient(client).POST('/transactions', { body: paymentRequest as never, params: { header: { 'Idempotency-Key': 'order-42/attempt-1' } } }));
    expect(error).toMatchObject({ kind: 'network', mustQueryState: true, idempotencyKey: 'order-42/attempt-1' });
    expect(error.message).toMatch(unknownAdvice);
  });

  it('over a real connection the service drops after reading the request: unknown, resent with the same key', async () => {
    server = await startLoopbackServer((_request, res) => void res.socket?.destroy());
    const error = await failure(secretClient(server.url, { retry: { delayMs: 1, maxRetries: 1 } }).transactions.create(paymentRequest));
    expect(error).toMatchObject({ kind: 'network', attempts: 2, mustQueryState: true });
    expect(server.requests).toHaveLength(2);
    expect(new Set(server.requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set([error.idempotencyKey]));
  });
});

describe('what is not an unknown outcome', () => {
  it('a request aborted before it was sent', async () => {
    const { client, requests } = inProcessClient(dropped);
    const error = await failure(client.transactions.create(paymentRequest, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', attempts: 0, mustQueryState: false, resendUntil: undefined });
    expect(requests).toHaveLength(0);
  });

  it('a GET whose answers were lost: reading changes nothing', async () => {
    const { client, requests } = inProcessClient(dropped, { retry: { maxRetries: 1, delayMs: 0 } });
    const error = await failure(client.transactions.get('1000000001'));
    expect(error).toMatchObject({ kind: 'network', attempts: 2, mustQueryState: false });
    expect(requests).toHaveLength(2);
  });

  it('a connection refused: the request never left', async () => {
    // A port that was free a moment ago and is closed again: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const error = await failure(secretClient(`http://127.0.0.1:${port}/rest/v1`, { retry: { maxRetries: 0 } }).transactions.create(paymentRequest));
    expect(String((error.cause as Error).cause)).toMatch(/ECONNREFUSED/);
    expect(error).toMatchObject({ kind: 'network', mustQueryState: false });
  });
});

describe('a PATCH (it carries no Idempotency-Key) whose answer is lost', () => {
  it.each([
    { call: 'aliases.deregister', run: (c: ReturnType<typeof inProcessClient>['client']) => c.aliases.deregister('alias-1', { status: 'DEREGISTERED' }) },
    { call: 'raw PATCH', run: (c: ReturnType<typeof inProcessClient>['client']) => createRawClient(c).PATCH('/aliases/{id}', { params: { path: { id: 'alias-1' } }, body: { status: 'DEREGISTERED' } as never }) },
  ])('$call: not resent (the change may have been made), an unknown outcome', async ({ run }) => {
    const { client, requests } = inProcessClient(dropped, { retry: { delayMs: 0 } });
    const error = await failure(run(client) as Promise<unknown>);
    expect(error).toMatchObject({ kind: 'network', attempts: 1, mustQueryState: true, idempotencyKey: undefined, resendUntil: undefined });
    expect(error.message).toMatch(/outcome is unknown: do not take the payment again before you know; query the resource for its state\.$/);
    expect(requests).toHaveLength(1);
  });

  it('a 503 to a PATCH is still resent: the service did not do the work', async () => {
    const { client, requests } = inProcessClient((_r, index) => (index === 0 ? Response.json({}, { status: 503 }) : new Response(null, { status: 204 })), {
      retry: { delayMs: 0 },
    });
    expect((await client.aliases.deregister('alias-1', { status: 'DEREGISTERED' })).status).toBe(204);
    expect(requests).toHaveLength(2);
  });
});
