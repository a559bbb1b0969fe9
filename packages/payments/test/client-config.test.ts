import { inspect } from 'node:util';
import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseUrlVariable, createPublishableClient, createSecretClient, isPaymentsError, type RequestLog } from '../src/index.js';
import { errorBody, json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { paymentRequest, publishableKey, secretClient, secretKey } from './support/fixtures.js';
import { createRawClient } from '../src/raw.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

async function thrown(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

const ok = () => startLoopbackServer((_request, res) => json(res, 201, { receiptNumber: '1', status: 'Approved' }));

describe('headers the reference requires', () => {
  it('sends Basic auth of key plus colon, Accept JSON, and Content-Type only with a body', async () => {
    server = await ok();
    const client = secretClient(server.url);
    await client.transactions.create(paymentRequest);
    await client.transactions.get('1000000001');
    const [post, get] = server.requests;
    expect(post!.headers.authorization).toBe(`Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`);
    expect(post!.headers.accept).toBe('application/json');
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.url).toBe('/rest/v1/transactions');
    expect(get!.headers['content-type']).toBeUndefined();
    expect(get!.headers['idempotency-key']).toBeUndefined();
    expect(get!.url).toBe('/rest/v1/transactions/1000000001');
  });

  it('encodes path parameters and serialises query parameters', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 200, { links: [], data: [] }));
    const client = secretClient(server.url);
    await client.customers.search({ query: { customerNumber: 'C 1/2' } });
    await client.transactions.listRefunds('a/b c');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/rest/v1/customers?customerNumber=C+1%2F2',
      '/rest/v1/transactions/a%2Fb%20c/refunds',
    ]);
  });

  it('asks for the media type the caller picks among those the operation answers with', async () => {
    server = await startLoopbackServer((_request, res) => void res.writeHead(200, { 'Content-Type': 'text/csv' }).end('a,b\n1,2\n'));
    const result = await secretClient(server.url).transactions.list({ accept: 'text/csv' });
    expect(result.data).toBe('a,b\n1,2\n');
    expect(server.requests[0]!.headers.accept).toBe('text/csv');
  });
});

describe('bad input is refused before anything is sent', () => {
  it.each([
    { label: 'too long', key: 'k'.repeat(61) },
    { label: 'not ASCII', key: 'clé-1' },
    { label: 'empty', key: '' },
    { label: 'padded with spaces', key: ' key ' },
  ])('refuses an idempotency key that is $label', async ({ key }) => {
    server = await ok();
    const error = await thrown(() => secretClient(server!.url).transactions.create(paymentRequest, { idempotencyKey: key }));
    expect(isPaymentsError(error) && error.kind).toBe('input');
    expect(server.requests).toHaveLength(0);
  });

  it('accepts a 60-character key', async () => {
    server = await ok();
    await secretClient(server.url).transactions.create(paymentRequest, { idempotencyKey: 'k'.repeat(60) });
    expect(server.requests[0]!.headers['idempotency-key']).toBe('k'.repeat(60));
  });

  it.each(['POST', 'PUT', 'PATCH'] as const)('refuses query parameters on %s, even through the raw client', async (method) => {
    server = await ok();
    const raw = createRawClient(secretClient(server.url)) as unknown as {
      request(method: string, path: string, init: unknown): Promise<unknown>;
    };
    const error = await thrown(() => raw.request(method, '/customers/{customerId}', { params: { path: { customerId: 'c1' }, query: { force: 'yes' } }, body: {} }));
    expect(isPaymentsError(error) && error.kind).toBe('input');
    expect(String(error)).toMatch(/must not carry query parameters/);
    expect(server.requests).toHaveLength(0);
  });

  it.each([undefined, '', null])('refuses a missing path parameter (%s) instead of calling another resource', async (value) => {
    server = await ok();
    const error = await thrown(() => secretClient(server!.url).transactions.get(value as unknown as string));
    expect(isPaymentsError(error) && error.kind).toBe('input');
    expect(server.requests).toHaveLength(0);
  });
});

describe('base address', () => {
  it.each([
    { url: 'http://api.example.com/rest/v1', problem: /https/ },
    { url: 'ftp://127.0.0.1/rest/v1', problem: /https/ },
    { url: 'rest/v1', problem: /absolute/ },
    { url: 'https://user:pw@api.example.com/rest/v1', problem: /credentials/ },
  ])('refuses $url', ({ url, problem }) => {
    expect(() => createSecretClient({ apiKey: secretKey, baseUrl: url })).toThrow(problem);
  });

  it.each([
    { label: 'a key passed as baseUrl', baseUrl: secretKey, env: undefined },
    { label: 'a key with a scheme-like prefix', baseUrl: `key:${secretKey}`, env: undefined },
    { label: `a key in ${baseUrlVariable}`, baseUrl: undefined, env: publishableKey },
  ])('never echoes the value it refuses: $label', ({ baseUrl, env }) => {
    if (env !== undefined) vi.stubEnv(baseUrlVariable, env);
    let message = '';
    try {
      createSecretClient({ apiKey: 'sk_other', baseUrl });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(baseUrl === undefined ? baseUrlVariable : 'baseUrl');
    expect(message).not.toContain(secretKey);
    expect(message).not.toContain(publishableKey);
  });

  it.each(['https://api.example.com/rest/v1/', 'http://127.0.0.1:4010/rest/v1', 'http://localhost/rest/v1', 'http://[::1]:8080/rest/v1'])(
    'accepts %s',
    (url) => {
      expect(String(createSecretClient({ apiKey: secretKey, baseUrl: url }))).toBe(`PaymentsClient(${url.replace(/\/$/, '')})`);
    },
  );

  it('reads the environment variable when no address is given, and says which one when neither is there', async () => {
    server = await ok();
    vi.stubEnv(baseUrlVariable, server.url);
    await createSecretClient({ apiKey: secretKey }).transactions.get('1');
    expect(server.requests).toHaveLength(1);
    vi.stubEnv(baseUrlVariable, '');
    expect(() => createSecretClient({ apiKey: secretKey })).toThrow(baseUrlVariable);
  });
});

describe('transport options', () => {
  it('uses a custom fetch', async () => {
    const calls: string[] = [];
    const client = createSecretClient({
      apiKey: secretKey,
      baseUrl: 'https://api.example.test/rest/v1',
      fetch: async (request) => {
        calls.push(`${request.method} ${request.url}`);
        return new Response(JSON.stringify({ receiptNumber: '1' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    });
    const result = await client.transactions.get('1');
    expect(result.data).toEqual({ receiptNumber: '1' });
    expect(calls).toEqual(['GET https://api.example.test/rest/v1/transactions/1']);
  });

  it('sends through an undici dispatcher', async () => {
    server = await ok();
    const dispatched: string[] = [];
    const agent = new Agent().compose((dispatch) => (options, handler) => {
      dispatched.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    try {
      await secretClient(server.url, { dispatcher: agent }).transactions.get('1');
    } finally {
      await agent.close();
    }
    expect(dispatched).toEqual(['GET /rest/v1/transactions/1']);
  });

  it('calls the logging hooks once per attempt', async () => {
    server = await startLoopbackServer((_request, res, index) => json(res, index === 0 ? 503 : 201, index === 0 ? errorBody(503) : { receiptNumber: '1' }));
    const requests: RequestLog[] = [];
    const statuses: number[] = [];
    const client = secretClient(server.url, { onRequest: (r) => requests.push(r), onResponse: (r) => statuses.push(r.status) });
    const result = await client.transactions.create(paymentRequest);
    expect(requests.map((r) => r.attempt)).toEqual([1, 2]);
    expect(requests.every((r) => r.idempotencyKey === result.idempotencyKey)).toBe(true);
    expect(requests[0]!.headers.authorization).toBe('[redacted]');
    expect(statuses).toEqual([503, 201]);
  });

  it('gives raw POSTs an idempotency key too, and keeps one given in the header', async () => {
    server = await ok();
    const raw = createRawClient(secretClient(server.url));
    await raw.POST('/transactions', { body: paymentRequest });
    await raw.POST('/transactions', { body: paymentRequest, params: { header: { 'Idempotency-Key': 'raw-key-1' } } });
    expect(server.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.requests[1]!.headers['idempotency-key']).toBe('raw-key-1');
    expect(server.requests[1]!.body).toBe(JSON.stringify(paymentRequest));
  });

  it('keeps openapi-fetch’s { data, error } style on the raw client', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 404, errorBody(404, 'No such transaction')));
    const { data, error, response } = await createRawClient(secretClient(server.url)).GET('/transactions/{receiptNumber}', {
      params: { path: { receiptNumber: 'missing' } },
    });
    expect(data).toBeUndefined();
    expect(error?.developerMessage).toBe('No such transaction');
    expect(response.status).toBe(404);
    expect(server.requests[0]!.headers.authorization).toMatch(/^Basic /);
  });

  it('makes a raw client only from a secret client: the publishable key split cannot be bypassed', async () => {
    const publishable = createPublishableClient({ apiKey: publishableKey, baseUrl: 'https://api.example.test/rest/v1' });
    for (const notSecret of [publishable, {}]) {
      const error = await thrown(() => createRawClient(notSecret as never));
      expect(isPaymentsError(error) && error.kind === 'configuration' && error.option).toBe('client');
    }
    // The precondition: a secret client does make one.
    expect(typeof createRawClient(secretClient('https://api.example.test/rest/v1')).GET).toBe('function');
  });
});

describe('the key never leaks', () => {
  const encoded = Buffer.from(`${secretKey}:`).toString('base64');
  const leaks = (text: string) => text.includes(secretKey) || text.includes(encoded) || text.includes(publishableKey);
  const everyView = (value: unknown) => [
    String(value),
    JSON.stringify(value) ?? '',
    inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    (value as Error)?.stack ?? '',
  ];

  it('is absent from clients, hook arguments and every kind of error', async () => {
    server = await startLoopbackServer((request, res, index) => {
      if (index === 0) return json(res, 401, errorBody(401, 'Invalid key'));
      if (index === 1) return void res.socket?.destroy();
      // Later requests get no answer: the client's deadline ends them.
    });
    const seen: unknown[] = [];
    const options = { retry: { maxRetries: 0 }, onRequest: (r: unknown) => seen.push(r), onResponse: (r: unknown) => seen.push(r) };
    const client = secretClient(server.url, options);
    const publishable = createPublishableClient({ apiKey: publishableKey, baseUrl: server.url });
    seen.push(client, publishable);
    seen.push(await thrown(() => client.transactions.get('1')));
    seen.push(await thrown(() => client.transactions.get('1')));
    seen.push(await thrown(() => secretClient(server!.url, { timeoutMs: 100 }).transactions.get('1')));
    seen.push(await thrown(() => client.transactions.create(paymentRequest, { idempotencyKey: 'x'.repeat(70) })));
    seen.push(await thrown(() => createSecretClient({ apiKey: `${secretKey} `, baseUrl: server!.url })));
    expect(seen.filter(isPaymentsError).map((e) => e.kind)).toEqual(['authentication', 'network', 'timeout', 'input', 'configuration']);
    for (const value of seen) for (const view of everyView(value)) expect(leaks(view)).toBe(false);
  });
});

describe('caller headers', () => {
  type KeyOptions = { idempotencyKey?: string; headers: Record<string, string> };

  it('cannot replace or duplicate the Authorization header, whatever its case', async () => {
    server = await ok();
    await secretClient(server.url).transactions.create(paymentRequest, {
      headers: { authorization: 'Basic bm9wZTo=', AUTHORIZATION: 'Basic bm9wZTo=', 'X-Trace': 't-1' },
    });
    const sent = server.requests[0]!.headers;
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`);
    expect(sent['x-trace']).toBe('t-1');
  });

  it.each<{ label: string; options: KeyOptions }>([
    { label: 'an Idempotency-Key header', options: { headers: { 'Idempotency-Key': 'order-7' } } },
    { label: 'the header in another case', options: { headers: { 'IDEMPOTENCY-KEY': 'order-7' } } },
    { label: 'the header and the option, the same', options: { idempotencyKey: 'order-7', headers: { 'idempotency-key': 'order-7' } } },
  ])("keeps the caller's key given as $label", async ({ options }) => {
    server = await ok();
    const result = await secretClient(server.url).transactions.create(paymentRequest, options);
    expect(result.idempotencyKey).toBe('order-7');
    expect(server.requests[0]!.headers['idempotency-key']).toBe('order-7');
  });

  it.each<{ label: string; options: KeyOptions; problem: RegExp }>([
    { label: 'the header and the option differ', options: { idempotencyKey: 'order-9', headers: { 'Idempotency-Key': 'other' } }, problem: /pass the key once/ },
    { label: 'two headers differ', options: { headers: { 'Idempotency-Key': 'a', 'idempotency-key': 'b' } }, problem: /pass the key once/ },
    { label: 'the header key is too long', options: { headers: { 'Idempotency-Key': 'k'.repeat(61) } }, problem: /1 to 60 printable ASCII characters/ },
  ])('refuses the call, before sending, when $label', async ({ options, problem }) => {
    server = await ok();
    const error = await thrown(() => secretClient(server!.url).transactions.create(paymentRequest, options));
    expect(isPaymentsError(error) && error.kind).toBe('input');
    expect(String(error)).toMatch(problem);
    expect(server.requests).toHaveLength(0);
  });
});
