import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { rules } from '@paykit/payments/rules';
import { basic, call, cardToken, paymentRequest, sandboxPerTest } from './support.js';

// How the sandbox reads a request body: a body cut off by the client must not keep its request in flight (the
// reference's limit of requests in flight would then refuse every later request with 429).
const env = sandboxPerTest();

/** Sends the head of a POST announcing `announced` bytes and `sent` of them, then closes the connection. */
function cutOff(announced: number, sent: number): Promise<void> {
  const { hostname, port, pathname } = new URL(env.sandbox.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${pathname}/transactions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nContent-Type: application/json\r\n` +
          `Authorization: ${basic(env.secretKey)}\r\nContent-Length: ${announced}\r\n\r\n${'{'.padEnd(sent, ' ')}`,
        () => setTimeout(() => (socket.destroy(), resolve()), 20),
      );
    });
    socket.on('error', reject);
  });
}

describe('payments sandbox: request bodies', () => {
  it('bodies cut off by the client, more of them than may be in flight, leave the sandbox answering', async () => {
    for (let i = 0; i < rules.concurrency.maxInFlight + 2; i++) await cutOff(100, 10);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const response = await call(env.sandbox, 'POST', '/transactions', { body: paymentRequest(await cardToken(env), 10) });
    expect(response.status, response.text).toBe(201);
  });

  it.each([
    { label: 'a GET without a body', method: 'GET', path: '/transactions', status: 200 },
    { label: 'a POST without a body', method: 'POST', path: '/transactions', status: 422 },
    { label: 'a POST with an empty body (Content-Length: 0)', method: 'POST', path: '/transactions', raw: '', status: 422 },
  ])('$label: answered without waiting for a body ($status)', async ({ method, path, raw, status }) => {
    const response = await call(env.sandbox, method, path, raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } });
    expect(response.status, response.text).toBe(status);
  });

  it('a body in many chunks is read whole', async () => {
    const body = JSON.stringify({ ...paymentRequest(await cardToken(env), 10), metadata: { note: 'x'.repeat(256 * 1024) } });
    const response = await call(env.sandbox, 'POST', '/transactions', { raw: body, headers: { 'content-type': 'application/json' } });
    expect(response.status, response.text).toBe(201);
    expect(response.json.metadata.note).toHaveLength(256 * 1024);
  });
});
