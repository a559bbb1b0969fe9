import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorLog } from '../../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';
import { createRawClient } from '../../src/raw.js';

// Fault row "an answer cut off mid-body": the status line and headers arrive, then the connection drops while the
// body is read. That is no answer (the one that came is incomplete): the call is resent under the same
// Idempotency-Key, like any network error, within the spec's retry rule, so that the service answers it with the
// original outcome. A cut-off 500 is the exception: the rule says not to resend after a 500.

const approved = { receiptNumber: '1000000001', status: 'Approved' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Writes the head and part of the body, then destroys the socket once the kernel has the part: the peer reads the
 * head and the part, then the end of the connection (TCP keeps that order). With a Content-Length, or chunked.
 */
function cutOff(res: ServerResponse, status: number, framing: 'length' | 'chunked') {
  const body = JSON.stringify(approved);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (framing === 'length') headers['Content-Length'] = String(body.length);
  res.writeHead(status, headers);
  res.write(body.slice(0, 10), () => res.socket?.destroy());
}

describe('an answer cut off mid-body', () => {
  it.each([
    { call: 'transactions.create', status: 201, framing: 'length' },
    { call: 'transactions.create', status: 201, framing: 'chunked' },
    { call: 'transactions.get', status: 200, framing: 'length' },
    { call: 'raw.POST', status: 201, framing: 'length' },
    { call: 'transactions.create', status: 422, framing: 'chunked' },
  ] as const)('of a $status to $call ($framing) is resent with the same key, and the whole answer is the outcome', async ({ call, status, framing }) => {
    server = await startLoopbackServer((_request, res, index) => (index === 0 ? cutOff(res, status, framing) : json(res, status, approved)));
    const errors: ErrorLog[] = [];
    const client = secretClient(server.url, { onError: (log) => void errors.push(log) });
    let outcome: { status: number; data: unknown };
    if (call === 'raw.POST') {
      const { response, data } = await createRawClient(client).POST('/transactions', { body: paymentRequest as never });
      outcome = { status: response.status, data };
    } else if (status === 422) {
      const error = await failure(client.transactions.create(paymentRequest));
      outcome = { status: error.status!, data: error.body };
    } else {
      const result = await (call === 'transactions.get' ? client.transactions.get('1000000001') : client.transactions.create(paymentRequest));
      outcome = { status: result.status, data: result.data };
    }
    expect(outcome).toEqual({ status, data: approved });
    expect(server.requests).toHaveLength(2);
    expect(new Set(server.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(errors.map((log) => [log.error.kind, log.willRetry])).toEqual([['network', true]]);
  });

  it('fails with kind network once the retries are spent, naming the incomplete answer', async () => {
    server = await startLoopbackServer((_request, res) => cutOff(res, 201, 'length'));
    const error = await failure(secretClient(server.url, { retry: { delayMs: 1, maxRetries: 2 } }).transactions.create(paymentRequest));
    expect([error.kind, error.attempts]).toEqual(['network', 3]);
    expect(error.message).toMatch(/no complete answer after 3 attempt/);
    expect(error.idempotencyKey).toBe(server.requests[0]!.headers['idempotency-key']);
    expect(server.requests).toHaveLength(3);
  });

  it('of a 500 is not resent: part of the work may have been done', async () => {
    server = await startLoopbackServer((_request, res) => cutOff(res, 500, 'length'));
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest));
    expect([error.kind, error.attempts]).toEqual(['network', 1]);
    expect(server.requests).toHaveLength(1);
  });
});
