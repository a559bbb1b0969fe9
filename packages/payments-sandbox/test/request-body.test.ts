import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { rules } from '../src/generated/rules.js';
import { internalsOf } from '../src/sandbox.js';
import { basic, call, cardToken, paymentRequest, phasesOf, sandboxPerTest } from './support.js';

// How the sandbox reads a request body: a body cut off by the client must not keep its request in flight (the
// reference's limit of requests in flight would then refuse every later request with 429).
const env = sandboxPerTest();

/**
 * Sends the head of a POST announcing `announced` bytes and `sent` of them, and closes the connection once the
 * sandbox is reading the body (held there until the close, so that the close comes while it reads).
 */
async function cutOff(announced: number, sent: number): Promise<void> {
  const { hostname, port, pathname } = new URL(env.sandbox.url);
  const hold = phasesOf(env.sandbox).hold('body');
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST ${pathname}/transactions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nContent-Type: application/json\r\n` +
      `Authorization: ${basic(env.secretKey)}\r\nContent-Length: ${announced}\r\n\r\n${'{'.padEnd(sent, ' ')}`,
  );
  await hold.untilArrived(1);
  socket.destroy();
  hold.release();
}

describe('payments sandbox: request bodies', () => {
  it('bodies cut off by the client, more of them than may be in flight, leave the sandbox answering', async () => {
    for (let i = 0; i < rules.concurrency.maxInFlight + 2; i++) await cutOff(100, 10);
    // Each cut-off request leaves the count of requests in flight (a leak would keep it above 0 for good).
    await vi.waitFor(() => expect(internalsOf(env.sandbox).inFlight.size).toBe(0), { timeout: 4_000, interval: 5 });
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
