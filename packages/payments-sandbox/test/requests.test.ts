import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadPaymentsContract } from '../src/contract/contract.js';
import { operationHandlers } from '../src/resources/operations.js';
import { startPaymentsSandbox, type PaymentsSandbox } from '../src/index.js';
import { basic, business, call, cardTokenRequest, sandboxPerTest } from './support.js';

const env = sandboxPerTest();

describe('payments sandbox: routes and requests from the contract', () => {
  it('has a handler for every operation of the bundled contract, and none for anything else', () => {
    const operations = [...loadPaymentsContract().operations.keys()].sort();
    expect(operations.length).toBeGreaterThan(60);
    expect(Object.keys(operationHandlers).sort()).toEqual(operations);
  });

  it('serves the contract under the base path of its server URL', () => {
    expect(env.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest\/v1$/);
  });

  it.each<{ rule: string; method: string; path: string; status: number; body?: unknown; raw?: string; headers?: Record<string, string>; allow?: string; field?: string }>([
    { rule: 'an unknown path gets 404', method: 'GET', path: '/no-such-resource', status: 404 },
    { rule: 'an unsupported verb gets 405 with the verbs it has', method: 'DELETE', path: '/transactions', status: 405, allow: 'GET, POST' },
    { rule: 'a query on POST gets 400', method: 'POST', path: '/customers?x=1', body: { customerNumber: 'C1', customerName: 'A' }, status: 400 },
    { rule: 'a query on PUT gets 400', method: 'PUT', path: '/customers/1?x=1', body: {}, status: 400 },
    { rule: 'a query on PATCH gets 400', method: 'PATCH', path: '/aliases/1?x=1', body: { status: 'DEREGISTERED' }, status: 400 },
    { rule: 'Accept other than JSON gets 406', method: 'GET', path: '/transactions/1', headers: { accept: 'text/html' }, status: 406 },
    { rule: 'a missing Accept gets 406 (the reference requires it)', method: 'GET', path: '/', headers: { accept: '' }, status: 406 },
    {
      rule: 'a body that is not JSON by its type gets 415',
      method: 'POST',
      path: '/customers',
      raw: 'customerNumber=C1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      status: 415,
    },
    { rule: 'a body that is not valid JSON gets 400', method: 'POST', path: '/customers', raw: '{"customerNumber":', headers: { 'content-type': 'application/json' }, status: 400 },
    { rule: 'a body the schema refuses gets 422 naming the field', method: 'POST', path: '/customers', body: { customerName: 'A' }, status: 422, field: 'customerNumber' },
    { rule: 'a missing required body gets 422', method: 'POST', path: '/customers', status: 422 },
    { rule: 'a query value its schema refuses gets 400', method: 'GET', path: '/customers/1/aliases?status=NOT_A_STATUS', status: 400, field: 'status' },
    { rule: 'a path value its schema refuses addresses nothing (404)', method: 'GET', path: `/transactions/${'9'.repeat(256)}`, status: 404 },
  ])('$rule', async ({ method, path, body, raw, headers, status, allow, field }) => {
    const response = await call(env.sandbox, method, path, { body, raw, headers });
    expect(response.status, response.text).toBe(status);
    expect(response.json).toMatchObject({ status: String(status), requestMethod: method, requestUrl: expect.stringContaining(path.split('?')[0]!.slice(0, 40)) });
    expect(response.json.customerMessage).toEqual(expect.any(String));
    expect(response.json.developerMessage).toEqual(expect.any(String));
    if (allow) expect(response.headers.get('allow')).toBe(allow);
    if (field) expect(response.json.errors.map((e: { fieldName: string }) => e.fieldName)).toContain(field);
  });

  it('answers 404 outside the base path', async () => {
    const response = await call(env.sandbox, 'GET', `${env.sandbox.origin}/rest/v2/transactions`);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ status: '404', requestUrl: `${env.sandbox.origin}/rest/v2/transactions` });
  });

  it('takes the CSV report where the contract offers it, by Accept', async () => {
    const response = await call(env.sandbox, 'GET', '/transactions', { headers: { accept: 'text/csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv');
  });

  it('names the body field at fault inside a discriminated union (the token request)', async () => {
    const response = await call(env.sandbox, 'POST', '/single-use-tokens', {
      key: env.sandbox.keys.publishable[0],
      body: { ...cardTokenRequest(), cardNumber: undefined, expiryDateMonth: '1' },
    });
    expect(response.status).toBe(422);
    expect(response.json.errors.map((e: { fieldName: string }) => e.fieldName).sort()).toEqual(['cardNumber', 'expiryDateMonth']);
  });

  it('never echoes a card number in full in a field error', async () => {
    const response = await call(env.sandbox, 'POST', '/single-use-tokens', {
      key: env.sandbox.keys.publishable[0],
      body: { ...cardTokenRequest('9999888877776666'), supplierBusinessCode: business },
    });
    expect(response.status).toBe(422);
    expect(response.text).not.toContain('9999888877776666');
    expect(response.text).toContain('6666');
  });
});

describe('payments sandbox: no cross-origin access', () => {
  const crossOriginHeaders = (response: { headers: Headers }) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

  // The publishable endpoints are the ones a browser page would try; the control interface is the sandbox's own.
  it.each(['/transactions', '/single-use-tokens', '/businesses/TEST_BUSINESS/accepted-cards', '/__sandbox/reset'])(
    'answers a preflight OPTIONS to %s without any Access-Control-* header',
    async (path) => {
      const response = await call(env.sandbox, 'OPTIONS', path, {
        key: null,
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(crossOriginHeaders(response)).toEqual([]);
    },
  );

  it('answers a preflight to an API path with 405', async () => {
    const response = await call(env.sandbox, 'OPTIONS', '/single-use-tokens', { key: null, headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
    expect(response.status).toBe(405);
  });

  it.each([
    { what: 'a success', key: undefined, status: 200 },
    { what: 'a refusal', key: 'not-a-key', status: 401 },
  ])('sends no Access-Control-* header on $what to a request that carries an Origin', async ({ key, status }) => {
    const response = await call(env.sandbox, 'GET', '/', { ...(key ? { key } : {}), headers: { origin: 'https://shop.example.com' } });
    expect(response.status).toBe(status);
    expect(crossOriginHeaders(response)).toEqual([]);
  });
});

/** One request written as is on a connection, and everything the sandbox answers before it closes or answers. */
function rawExchange(head: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(env.sandbox.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const split = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? NaN);
      if (split >= 0 && Buffer.byteLength(text.slice(split + 4)) >= length) {
        socket.destroy();
        resolve({ status: Number(text.split(' ')[1]), body: JSON.parse(text.slice(split + 4)) });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a whole answer: ${JSON.stringify(text)}`)));
  });
}

describe('payments sandbox: request methods the API does not recognise (501, the reference\'s error table)', () => {
  it.each([
    { method: 'FOO', why: "a method Node's parser does not take" },
    { method: 'PROPFIND', why: 'a method of WebDAV, which Node parses' },
    { method: 'PURGE', why: 'a cache method' },
  ])('$method ($why) gets 501 with the error body', async ({ method }) => {
    const { pathname, host } = new URL(env.sandbox.url);
    const answer = await rawExchange(`${method} ${pathname}/transactions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic(env.secretKey)}\r\nAccept: application/json\r\n\r\n`);
    expect(answer.status).toBe(501);
    expect(answer.body).toMatchObject({ status: '501', requestMethod: method, requestUrl: `${env.sandbox.url}/transactions`, developerMessage: expect.stringContaining(method) });
  });

  it('a method HTTP defines that the resource lacks still gets 405', async () => {
    expect((await call(env.sandbox, 'PUT', '/transactions')).status).toBe(405);
  });
});

/** A customer created with the `Host` header given (fetch does not let a caller set it). */
function createWithHost(sandbox: PaymentsSandbox, host: string, body: unknown = { customerNumber: `H-${Math.random()}`, customerName: 'Host' }): Promise<{ status: number; location?: string; json: any }> {
  const { hostname, port, pathname } = new URL(sandbox.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: hostname, port, path: `${pathname}/customers`, method: 'POST', headers: { host, authorization: basic(sandbox.keys.secret[0]!), accept: 'application/json', 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (response) => {
        let answer = '';
        response.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, ...(response.headers.location ? { location: response.headers.location } : {}), json: JSON.parse(answer) }));
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

describe('payments sandbox: the links of an answer name the sandbox, whatever Host a client sends', () => {
  it.each([
    { host: 'attacker.example', why: 'a name that is not the sandbox' },
    { host: 'attacker.example:443', why: 'another name with a port' },
    { host: '127.0.0.1:1', why: 'the right host, another port' },
  ])('Host $host ($why): links and the Location under the sandbox\'s own address', async ({ host }) => {
    const created = await createWithHost(env.sandbox, host);
    expect(created.status).toBe(201);
    expect(created.location).toBe(`${env.sandbox.url}/customers/${created.json.customerId}`);
    expect(created.json.links[0].href.startsWith(env.sandbox.url)).toBe(true);
    const refused = await createWithHost(env.sandbox, host, {});
    expect(refused.json.requestUrl).toBe(`${env.sandbox.url}/customers`);
  });

  it("Host localhost with the sandbox's port: links under that name (one of its own)", async () => {
    const { port, pathname } = new URL(env.sandbox.url);
    const created = await createWithHost(env.sandbox, `localhost:${port}`);
    expect(created.location).toBe(`http://localhost:${port}${pathname}/customers/${created.json.customerId}`);
  });

  it('publicOrigins: a request that comes by a load balancer\'s name gets links under it; a bad origin is refused at start', async () => {
    const behind = await startPaymentsSandbox({ publicOrigins: ['https://sandbox.example.internal'] });
    try {
      const created = await createWithHost(behind, 'sandbox.example.internal');
      expect(created.location).toBe(`https://sandbox.example.internal${new URL(behind.url).pathname}/customers/${created.json.customerId}`);
      const other = await createWithHost(behind, 'elsewhere.example.internal');
      expect(other.location!.startsWith(behind.url)).toBe(true);
    } finally {
      await behind.close();
    }
    await expect(startPaymentsSandbox({ publicOrigins: ['https://sandbox.example.internal/rest'] })).rejects.toThrow(TypeError);
    await expect(startPaymentsSandbox({ publicOrigins: ['ftp://sandbox.example.internal'] })).rejects.toThrow(TypeError);
  });
});
