import { afterEach, describe, expect, it } from 'vitest';
import { isPaymentsError } from '../../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient, secretKey } from '../support/fixtures.js';

// Fault row "headers in another form than a record": a method's `headers` option takes what fetch takes (a record, a
// `Headers`, `[name, value]` pairs), and an Idempotency-Key in any of them is the call's key. Before, a `Headers` or
// an array was spread as an empty object: the key in it was dropped and a new one sent.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const forms = {
  record: (pairs: [string, string][]) => Object.fromEntries(pairs),
  Headers: (pairs: [string, string][]) => new Headers(pairs),
  'array of pairs': (pairs: [string, string][]) => pairs,
};

describe.each(Object.keys(forms) as (keyof typeof forms)[])('headers given as a %s', (form) => {
  const ok = () => startLoopbackServer((_request, res) => json(res, 201, { receiptNumber: '1', status: 'Approved' }));

  it('are sent, and the Idempotency-Key among them is the call’s key', async () => {
    server = await ok();
    const headers = forms[form]([
      ['Idempotency-Key', 'order-1001'],
      ['X-Trace', 't-1'],
    ]);
    const result = await secretClient(server.url).transactions.create(paymentRequest, { headers });
    expect(result.idempotencyKey).toBe('order-1001');
    expect(server.requests[0]!.headers['idempotency-key']).toBe('order-1001');
    expect(server.requests[0]!.headers['x-trace']).toBe('t-1');
  });

  it('cannot replace the Authorization or Accept the client sends', async () => {
    server = await ok();
    const headers = forms[form]([
      ['Authorization', 'Basic bm9wZTo='],
      ['ACCEPT', 'text/html'],
    ]);
    await secretClient(server.url).transactions.get('1', { headers });
    expect(server.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`);
    expect(server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('refuse, before sending, a key that differs from the idempotencyKey option', async () => {
    server = await ok();
    const headers = forms[form]([['idempotency-key', 'other']]);
    const error = await failure(secretClient(server.url).transactions.create(paymentRequest, { idempotencyKey: 'order-9', headers }));
    expect(isPaymentsError(error) && error.kind).toBe('input');
    expect(server.requests).toHaveLength(0);
  });
});

it('refuses two different keys in one array of pairs, before sending', async () => {
  server = await startLoopbackServer((_request, res) => json(res, 201, {}));
  const headers: [string, string][] = [
    ['Idempotency-Key', 'a'],
    ['idempotency-key', 'b'],
  ];
  const error = await failure(secretClient(server.url).transactions.create(paymentRequest, { headers }));
  expect(error.kind).toBe('input');
  expect(error.message).toMatch(/pass the key once/);
  expect(server.requests).toHaveLength(0);
});
