import { createServer as createTlsServer } from 'node:https';
import { EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startConnectProxy } from '@paykit/test-support';
import { isPaymentsError } from '../../src/index.js';
import { json, listenOnLoopback, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { failure, paymentRequest, secretClient } from '../support/fixtures.js';
import { selfSignedCertificate } from '../support/self-signed.js';

// Fault row "a proxy refuses the request", through a real proxy on loopback: the client reaches the service through
// an undici dispatcher given as `dispatcher` (the package has no proxy code of its own). A refusal (407: credentials
// missing or wrong; 403: the proxy forbids the target) is a `proxyRefused` error carrying the proxy's status, and
// nothing is resent: the same request would be refused again, and the service never saw it.

const approved = { receiptNumber: '1000000001', status: 'Approved' };
const credentials = { user: 'merchant', password: 'proxy-secret-1' };
const proxyToken = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;

let server: LoopbackServer | undefined;
let proxy: Awaited<ReturnType<typeof startConnectProxy>> | undefined;
let agent: Dispatcher | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await agent?.close();
  await proxy?.close();
  await server?.close();
  agent = proxy = server = undefined;
});

describe('a proxy that refuses', () => {
  it.each([
    { label: 'the tunnel without credentials (407)', proxyOptions: { credentials }, tunnel: true, status: 407 },
    { label: 'the tunnel to a forbidden target (403)', proxyOptions: { forbid: true }, tunnel: true, status: 403 },
    { label: 'a forwarded request without credentials (407)', proxyOptions: { credentials }, tunnel: false, status: 407 },
  ] as const)('$label is a proxyRefused error, sent once and never resent', async ({ proxyOptions, tunnel, status }) => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    proxy = await startConnectProxy(proxyOptions);
    agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: tunnel });
    const client = secretClient(server.url, { dispatcher: agent, retry: { delayMs: 1, maxRetries: 3 } });
    const error = await failure(client.transactions.create(paymentRequest));
    expect(error.kind).toBe('proxyRefused');
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(1);
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toMatch(new RegExp(`proxy refused it \\(HTTP ${status}\\)`));
    expect(proxy.received).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it('lets the call through once the credentials are given: the proxy tunnels to the service', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    proxy = await startConnectProxy({ credentials });
    agent = new ProxyAgent({ uri: proxy.url, token: proxyToken });
    const result = await secretClient(server.url, { dispatcher: agent }).transactions.create(paymentRequest);
    expect(result.status).toBe(201);
    expect(proxy.received).toEqual([`CONNECT ${new URL(server.url).host}`]);
    expect(server.requests[0]!.headers['idempotency-key']).toBe(result.idempotencyKey);
  });

  it('keeps the proxy credentials out of the error', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    proxy = await startConnectProxy({ forbid: true });
    agent = new ProxyAgent({ uri: proxy.url, token: proxyToken });
    const error = await failure(secretClient(server.url, { dispatcher: agent }).transactions.get('1'));
    expect(error.kind).toBe('proxyRefused');
    expect(JSON.stringify(error) + String(error) + error.stack).not.toContain(credentials.password);
  });
});

describe('the proxy named by the environment, when the caller asks for it', () => {
  // Node's fetch ignores HTTP(S)_PROXY; undici's EnvHttpProxyAgent reads them (and NO_PROXY) when it is made.
  it('goes through the proxy of HTTP_PROXY / HTTPS_PROXY with dispatcher: new EnvHttpProxyAgent()', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    proxy = await startConnectProxy();
    vi.stubEnv('NO_PROXY', '');
    vi.stubEnv('no_proxy', '');
    vi.stubEnv('HTTP_PROXY', proxy.url);
    vi.stubEnv('HTTPS_PROXY', proxy.url);
    agent = new EnvHttpProxyAgent();
    const result = await secretClient(server.url, { dispatcher: agent }).transactions.create(paymentRequest);
    expect(result.status).toBe(201);
    expect(proxy.received).toEqual([`CONNECT ${new URL(server.url).host}`]);
  });

  it('refuses through that proxy the same way (proxyRefused, sent once)', async () => {
    server = await startLoopbackServer((_request, res) => json(res, 201, approved));
    proxy = await startConnectProxy({ credentials });
    vi.stubEnv('NO_PROXY', '');
    vi.stubEnv('no_proxy', '');
    vi.stubEnv('HTTP_PROXY', proxy.url);
    agent = new EnvHttpProxyAgent();
    const error = await failure(secretClient(server.url, { dispatcher: agent }).transactions.create(paymentRequest));
    expect([error.kind, error.status, error.attempts]).toEqual(['proxyRefused', 407, 1]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("the README's corporate proxy: credentials, and TLS inspection that re-signs with the company's own CA", () => {
  it.each([
    { label: 'trusted through requestTls.ca: the call goes through the tunnel', trusted: true },
    { label: 'not trusted without it: a network error whose cause is the certificate', trusted: false },
  ])('the service certificate made by that CA is $label', async ({ trusted }) => {
    const { key, cert: ca } = selfSignedCertificate();
    const service = createTlsServer({ key, cert: ca }, (_request, res) => json(res, 201, approved));
    const { port, close } = await listenOnLoopback(service);
    try {
      proxy = await startConnectProxy({ credentials });
      agent = new ProxyAgent({
        uri: proxy.url,
        token: proxyToken,
        ...(trusted ? { requestTls: { ca } } : {}),
      });
      const call = secretClient(`https://127.0.0.1:${port}/rest/v1`, { dispatcher: agent, retry: { maxRetries: 0 } }).transactions.create(paymentRequest);
      if (trusted) expect((await call).status).toBe(201);
      else {
        const error = await failure(call);
        expect(isPaymentsError(error) && error.kind).toBe('network');
        expect(String((error.cause as Error)?.cause ?? error.cause)).toMatch(/certificate/i);
      }
      expect(proxy.received).toEqual([`CONNECT 127.0.0.1:${port}`]);
    } finally {
      await close();
    }
  });
});
