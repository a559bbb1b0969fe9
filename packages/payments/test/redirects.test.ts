import { afterEach, describe, expect, it } from 'vitest';
import { errorBody, json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { failure, paymentRequest, secretClient } from './support/fixtures.js';
import { createRawClient } from '../src/raw.js';

// The client follows no redirect: fetch would resend a payment's body and its Idempotency-Key to any host a 307 or
// 308 names. The reference's 301 ("resource is at another address") is an error that names the new address.

let service: LoopbackServer | undefined;
let elsewhere: LoopbackServer | undefined;
afterEach(async () => {
  await Promise.all([service?.close(), elsewhere?.close()]);
  service = elsewhere = undefined;
});

/** The service answers every request with `status` and a Location on another origin (another loopback port). */
async function redirectingTo(status: number, path = '/rest/v1/moved') {
  elsewhere = await startLoopbackServer((_request, res) => json(res, 201, { receiptNumber: 'stolen', status: 'Approved' }));
  const target = new URL(path, elsewhere.url).href;
  service = await startLoopbackServer((_request, res) => json(res, status, errorBody(status), { Location: target }));
  return target;
}

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])('a POST answered %s goes nowhere else and fails naming the new address', async (status) => {
    const target = await redirectingTo(status);
    const error = await failure(secretClient(service!.url).transactions.create(paymentRequest));
    expect(elsewhere!.requests).toHaveLength(0);
    expect(service!.requests).toHaveLength(1);
    expect(error.kind).toBe('request');
    expect(error.status).toBe(status);
    expect(error.location).toBe(target);
    expect(error.message).toContain(target);
    expect(error.attempts).toBe(1);
  });

  it('a GET answered 301 fails too, with a relative Location resolved against the request', async () => {
    service = await startLoopbackServer((_request, res) => json(res, 301, errorBody(301), { Location: '../../v2/transactions/1' }));
    const error = await failure(secretClient(service.url).transactions.get('1'));
    expect(error.location).toBe(new URL('/rest/v2/transactions/1', service.url).href);
    expect(service.requests).toHaveLength(1);
  });

  it('a redirect on the same address is not followed either', async () => {
    service = await startLoopbackServer((_request, res) => json(res, 308, errorBody(308), { Location: '/rest/v1/transactions/2' }));
    const error = await failure(secretClient(service.url).transactions.get('1'));
    expect(error.status).toBe(308);
    expect(service.requests.map((r) => r.url)).toEqual(['/rest/v1/transactions/1']);
  });

  it('the raw client gets the 3xx answer as it is, and goes nowhere else', async () => {
    await redirectingTo(307);
    const { response, error } = await createRawClient(secretClient(service!.url)).POST('/transactions', { body: paymentRequest as never });
    expect(response.status).toBe(307);
    expect(error).toMatchObject({ status: '307' });
    expect(elsewhere!.requests).toHaveLength(0);
  });
});
