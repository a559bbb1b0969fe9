import { afterEach, describe, expect, it } from 'vitest';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { createRawClient } from '../../src/raw.js';
import { createPublishableClient } from '../../src/publishable.js';
import { publishableKey } from '../support/fixtures.js';

// Fault rows "a 2xx that is not what the operation returns" and "a reused Idempotency-Key replays another call": a
// maintenance page from a gateway, an empty body, JSON cut short but framed as complete, an object where a list
// belongs, or the answer of another operation given back because the key was used before (the service compares only
// the key). Read as the operation's answer, each would say that a payment exists or that none does. Each is a
// `protocol` error, sent once; a request that may have changed something is an unknown outcome (`mustQueryState`).

let service: LoopbackServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

type Framing = 'content-length' | 'chunked';

/** Answers every request with `body`, framed by a Content-Length or chunked (openapi-fetch reads the two apart). */
async function answering(status: number, contentType: string, body: string, framing: Framing = 'content-length'): Promise<string> {
  service = await startLoopbackServer((_request, res) => {
    if (framing === 'chunked') {
      res.writeHead(status, { 'content-type': contentType });
      res.write(body);
      res.end();
    } else {
      res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) }).end(body);
    }
  });
  return service.url;
}

const customer = { customerId: '1000000042', customerNumber: 'ORDER-42', customerName: 'Ada' };
const bodies = [
  { label: 'an HTML maintenance page', contentType: 'text/html', body: '<html><body>Down for maintenance</body></html>', missing: 'a JSON object' },
  { label: 'an empty body', contentType: 'application/json', body: '', missing: 'a JSON object' },
  { label: 'JSON cut short, framed as complete', contentType: 'application/json', body: '{"receiptNumber":"77","stat', missing: 'a JSON object' },
  { label: 'a lone quote', contentType: 'application/json', body: '"', missing: 'a JSON object' },
  { label: 'an empty object', contentType: 'application/json', body: '{}', missing: 'receiptNumber' },
  { label: 'a list', contentType: 'application/json', body: '[{"receiptNumber":"77"}]', missing: 'a JSON object' },
  { label: "another operation's answer (a customer, replayed under a reused key)", contentType: 'application/json', body: JSON.stringify(customer), missing: 'receiptNumber' },
];
const framed = bodies.flatMap((row) => (['content-length', 'chunked'] as const).map((framing) => ({ ...row, framing })));

describe('a success that is not a transaction, to transactions.create', () => {
  it.each(framed)('$label ($framing): the methods throw a protocol error naming a possible key reuse, sent once', async ({ contentType, body, framing, missing }) => {
    const url = await answering(201, contentType, body, framing);
    const error = await failure(secretClient(url).transactions.create(paymentRequest, { idempotencyKey: 'order-42' }));
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: true, idempotencyKey: 'order-42', method: 'POST' });
    expect(error.message).toContain(`201 without ${missing}`);
    expect(error.message).toMatch(/the answer to another request \(a reused Idempotency-Key order-42: use one per attempt/);
    expect(service!.requests).toHaveLength(1);
  });

  it.each(framed)('$label ($framing): the raw client throws the same protocol error, no SyntaxError, sent once', async ({ contentType, body, framing, missing }) => {
    const url = await answering(201, contentType, body, framing);
    const error = await failure(createRawClient(secretClient(url)).POST('/transactions', { body: paymentRequest as never }));
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: true, method: 'POST' });
    expect(error.message).toContain(`201 without ${missing}`);
    // The key the transport made for the POST is named, though the raw Request never showed it.
    expect(error.idempotencyKey).toBe(service!.requests[0]!.headers['idempotency-key']);
    expect(service!.requests).toHaveLength(1);
  });
});

describe('a success that is not a token, to the publishable client\'s singleUseTokens.create', () => {
  const card = { supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: '2029' } as const;
  it.each(framed)('$label ($framing): a protocol error, sent once, never the page as a token', async ({ contentType, body, framing }) => {
    const url = await answering(201, contentType, body, framing);
    const client = createPublishableClient({ apiKey: publishableKey, baseUrl: url });
    const error = await failure(client.singleUseTokens.create(card, { idempotencyKey: 'order-42/attempt-1' }));
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: true, idempotencyKey: 'order-42/attempt-1', method: 'POST', status: 201 });
    expect(error.message).toContain(`POST ${url}/single-use-tokens failed with HTTP 201 (protocol)`);
    expect(error.message).toContain('The outcome is unknown: do not take the payment again before you know');
    expect(JSON.stringify(error)).not.toContain('4111111111111111');
    expect(service!.requests).toHaveLength(1);
  });

  it('a token answer passes as it came', async () => {
    service = await startLoopbackServer((_request, res) => json(res, 201, { accountType: 'CREDIT_CARD', singleUseTokenId: 'tok-1' }));
    const client = createPublishableClient({ apiKey: publishableKey, baseUrl: service.url });
    expect((await client.singleUseTokens.create(card)).data).toEqual({ accountType: 'CREDIT_CARD', singleUseTokenId: 'tok-1' });
  });

  it('a list operation answered by a page: a protocol error, not read as the list', async () => {
    service = await startLoopbackServer((_request, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the Wi-Fi</html>'));
    const client = createPublishableClient({ apiKey: publishableKey, baseUrl: service.url });
    const error = await failure(client.businesses.listAcceptedCards('TEST_BUSINESS'));
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: false, method: 'GET' });
  });
});

describe('a success that is not a customer, to customers.create (a transaction replayed under the same key)', () => {
  it('is a protocol error too', async () => {
    service = await startLoopbackServer((_request, res) => json(res, 201, { receiptNumber: '1000000001', status: 'Approved' }));
    const error = await failure(secretClient(service.url).customers.create({ customerName: 'Ada', customerNumber: 'ORDER-42' }, { idempotencyKey: 'order-42' }));
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: true });
    expect(error.message).toContain('201 without customerId');
  });
});

describe('a success that is not a list, to a list operation', () => {
  it.each([
    { label: 'an empty object', body: {}, missing: 'a data list' },
    { label: 'an object where the list belongs', body: { data: { receiptNumber: '1' } }, missing: 'a data list' },
    { label: 'a string in data', body: { data: 'x' }, missing: 'a data list' },
    { label: 'null in data', body: { data: null }, missing: 'a data list' },
    { label: 'a text body', body: 'text', missing: 'a JSON object' },
  ])('$label: a protocol error, not an empty list (no "no payment exists" from a captive proxy)', async ({ body, missing }) => {
    service = await startLoopbackServer((_request, res) => json(res, 200, body));
    const error = await failure(secretClient(service.url).transactions.list());
    expect(error).toMatchObject({ kind: 'protocol', mustQueryState: false });
    expect(error.message).toContain(`200 without ${missing}`);
  });

  it('a next page that is no list stops the walk the same way, after the items already read', async () => {
    service = await startLoopbackServer((request, res) => {
      if (request.url.includes('page=2')) res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the Wi-Fi</html>');
      else json(res, 200, { links: [{ rel: 'next', href: '/rest/v1/transactions?page=2' }], data: [{ receiptNumber: '1' }] });
    });
    const seen: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const item of await secretClient(service!.url).transactions.list()) seen.push(item);
      })(),
    );
    expect(error.kind).toBe('protocol');
    expect(seen).toEqual([{ receiptNumber: '1' }]);
  });
});

describe('what still passes', () => {
  it.each(['content-length', 'chunked'] as const)('the raw client still parses a success that is JSON (%s)', async (framing) => {
    const url = await answering(200, 'application/json', '{"receiptNumber":"77","status":"Approved"}', framing);
    const { data } = await createRawClient(secretClient(url)).GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '77' } } });
    expect(data).toEqual({ receiptNumber: '77', status: 'Approved' });
  });

  it('a 204 without a body, where the operation answers 204', async () => {
    service = await startLoopbackServer((_request, res) => void res.writeHead(204).end());
    expect((await secretClient(service.url).aliases.deregister('alias-1', { status: 'DEREGISTERED' })).status).toBe(204);
  });

  it('a CSV report asked for as CSV', async () => {
    const url = await answering(200, 'text/csv', 'a,b\n1,2\n');
    expect((await secretClient(url).transactions.list({ accept: 'text/csv' })).data).toBe('a,b\n1,2\n');
  });
});
