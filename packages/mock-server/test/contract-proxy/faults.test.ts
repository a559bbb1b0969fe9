import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startContractProxy, type ContractProxy, type ValidatorStarter } from '@paykit/contract-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prismValidator } from '../../src/index.js';
import { allStarted, basic, slowStart } from './support.js';

// Fault classes of startContractProxy that the other files do not provoke: an upstream that is not there, one that
// cuts its answer off, and a second proxy on a port already taken.
// Starting Prism takes seconds on a loaded machine: the proxies start once, together, in beforeAll.
const servers: Server[] = [];

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => (server.once('error', reject), server.listen(port, '127.0.0.1', () => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A port that listens until the file ends. */
async function listening(handler: Parameters<typeof createServer>[1], port = 0): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  return listen(server, port);
}

/** A port that listened a moment ago and no longer does. */
async function notListening(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const payment = (proxy: ContractProxy) =>
  fetch(`${proxy.url}/transactions`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: basic('sk_fault'), 'idempotency-key': 'fault-1' },
    body: JSON.stringify({ transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 1, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' }),
  });

const upstreams = {
  'nothing listens upstream': async () => `http://127.0.0.1:${await notListening()}/rest/v1`,
  'the upstream cuts its answer off': async () =>
    `http://127.0.0.1:${await listening((_req, res) => (res.writeHead(200, { 'content-length': '100' }), res.write('{"part'), res.destroy()))}/rest/v1`,
};
type Fault = keyof typeof upstreams;

describe('faults around the proxy', () => {
  const proxies = new Map<Fault, ContractProxy>();
  beforeAll(async () => {
    await allStarted(
      Object.entries(upstreams).map(async ([fault, upstream]) => {
        proxies.set(fault as Fault, await startContractProxy({ upstream: await upstream(), validator: prismValidator('payments') }));
      }),
    );
  }, slowStart);
  afterAll(async () => {
    await Promise.allSettled([...proxies.values()].map((p) => p.close()));
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.close(resolve), server.closeAllConnections()))));
  });

  it.each(Object.keys(upstreams) as Fault[])('%s: the client gets 502, and an immediate resend of the key is named retry-wait', async (fault) => {
    const proxy = proxies.get(fault)!;
    const first = await payment(proxy);
    expect(first.status).toBe(502);
    expect(((await first.json()) as { title: string }).title).toBe('The contract proxy could not reach the service');
    expect(proxy.report().totals.answer).toBe(0);
    await (await payment(proxy)).arrayBuffer();
    expect(proxy.report().violations).toContainEqual(expect.objectContaining({ rule: 'retry-wait', location: 'header.Idempotency-Key' }));
  });

  it('a second proxy on a port already taken fails at once with the port named, without starting Prism', async () => {
    const taken = await listening(() => {});
    const started: string[] = [];
    const validator: ValidatorStarter = (options) => (started.push(options.upstream), prismValidator('payments')(options));
    await expect(startContractProxy({ upstream: 'http://127.0.0.1:1/rest/v1', validator, port: taken })).rejects.toThrow(
      `The contract proxy cannot listen on 127.0.0.1:${taken}: listen EADDRINUSE`,
    );
    expect(started).toEqual([]);
  });

  it('while Prism starts, a request is answered 503; when Prism fails to start, the port is given back', async () => {
    const port = await notListening();
    let fail!: (error: Error) => void;
    let called!: () => void;
    const validatorCalled = new Promise<void>((resolve) => (called = resolve));
    const starting = startContractProxy({
      upstream: 'http://127.0.0.1:1/rest/v1',
      // Called once the merchant's port listens; it never succeeds here, as when Prism cannot start.
      validator: () => (called(), new Promise((_resolve, reject) => (fail = reject))),
      port,
    });
    await validatorCalled;
    const early = await fetch(`http://127.0.0.1:${port}/rest/v1/transactions`, { headers: { accept: 'application/json' } });
    expect(early.status).toBe(503);
    expect(((await early.json()) as { title: string }).title).toBe('The contract proxy is still starting');
    fail(new Error('Prism exited (code 1) before listening'));
    await expect(starting).rejects.toThrow('Prism exited (code 1) before listening');
    expect(await listening(() => {}, port)).toBe(port);
  });
});
