import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLog } from '../../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';
import { createRawClient } from '../../src/raw.js';

// Fault row "abort before send": a signal already aborted when the call is made stops it before anything is sent.
// The error says so: kind `aborted`, 0 attempts (it said 1 before), the caller's reason as its cause.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a signal aborted before the call', () => {
  it.each([
    { call: 'transactions.create', timeoutMs: 60_000 },
    { call: 'transactions.get', timeoutMs: 60_000 },
    { call: 'transactions.create', timeoutMs: 0 },
  ] as const)('stops $call (timeoutMs $timeoutMs) with 0 attempts, nothing sent', async ({ call, timeoutMs }) => {
    server = await startLoopbackServer((_request, res) => json(res, 201, {}));
    const requests: RequestLog[] = [];
    const client = secretClient(server.url, { timeoutMs, onRequest: (log) => void requests.push(log) });
    const reason = new Error('the order was cancelled');
    const signal = AbortSignal.abort(reason);
    const error = await failure(
      call === 'transactions.create' ? client.transactions.create(paymentRequest, { signal }) : client.transactions.get('1', { signal }),
    );
    expect([error.kind, error.attempts, error.cause]).toEqual(['aborted', 0, reason]);
    expect(server.requests).toHaveLength(0);
    expect(requests).toHaveLength(0);
  });

  it('gives the raw client the same: the fetch it wraps rejects at once', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, {}));
    const error = await createRawClient(secretClient(server.url))
      .GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '1' } }, signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect((error as { kind?: string; attempts?: number }).kind).toBe('aborted');
    expect((error as { attempts?: number }).attempts).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});
