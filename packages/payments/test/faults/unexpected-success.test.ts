import { afterEach, describe, expect, it } from 'vitest';
import { paymentRequest, secretClient } from '../support/fixtures.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';

// A hostile or broken peer answers a success whose body is not JSON (an HTML page from a gateway, a body cut short
// but framed as complete). The methods and the raw client read it the same way: JSON when it parses, else its text.
// Nothing throws, nothing is resent (the success may have taken a payment), and the caller sees the status.

let service: LoopbackServer | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const bodies = [
  { label: 'an HTML page', contentType: 'text/html', body: '<html><body>Gateway says hello</body></html>' },
  { label: 'JSON cut short, framed as complete', contentType: 'application/json', body: '{"receiptNumber":"77","stat' },
  { label: 'a lone quote', contentType: 'application/json', body: '"' },
];

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

type Framing = 'content-length' | 'chunked';
const framed = bodies.flatMap((row) => (['content-length', 'chunked'] as const).map((framing) => ({ ...row, framing })));

describe('a success whose body is not JSON', () => {
  it.each(framed)('$label ($framing): the methods give its text as data, sent once', async ({ contentType, body, framing }) => {
    const url = await answering(201, contentType, body, framing);
    const result = await secretClient(url).transactions.create(paymentRequest);
    expect(result.status).toBe(201);
    expect(result.data).toBe(body);
    expect(result.idempotencyKey).toMatch(/\S/);
    expect(service!.requests).toHaveLength(1);
  });

  it.each(framed)('$label ($framing): the raw client gives its text as data, no SyntaxError, sent once', async ({ contentType, body, framing }) => {
    const url = await answering(201, contentType, body, framing);
    const { data, error, response } = await secretClient(url).raw.POST('/transactions', { body: paymentRequest as never });
    expect(response.status).toBe(201);
    expect(error).toBeUndefined();
    expect(data).toBe(body);
    expect(service!.requests).toHaveLength(1);
  });

  it.each(['content-length', 'chunked'] as const)('the raw client still parses a success that is JSON (%s)', async (framing) => {
    const url = await answering(200, 'application/json', '{"receiptNumber":"77","status":"Approved"}', framing);
    const { data } = await secretClient(url).raw.GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '77' } } });
    expect(data).toEqual({ receiptNumber: '77', status: 'Approved' });
  });
});
