import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startContractProxy, type ContractProxy } from '@paykit/contract-proxy';
import { afterAll, describe, expect, it } from 'vitest';
import { prismValidator } from '../../src/index.js';
import { basic } from './support.js';

// Fault classes of startContractProxy that the other files do not provoke: an upstream that is not there, one that
// cuts its answer off, and a second proxy on a port already taken.
const started: ContractProxy[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.allSettled(started.map((p) => p.close()));
  for (const server of servers) server.close();
});

async function listening(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

const payment = (proxy: ContractProxy) =>
  fetch(`${proxy.url}/transactions`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: basic('sk_fault'), 'idempotency-key': 'fault-1' },
    body: JSON.stringify({ transactionType: 'PAYMENT', singleUseTokenId: 't', supplierBusinessCode: 'B', principalAmount: 1, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' }),
  });

describe('faults around the proxy', () => {
  it.each([
    ['nothing listens upstream', async () => `http://127.0.0.1:${await listening(() => {}).then((port) => (servers.pop()!.close(), port))}/rest/v1`],
    ['the upstream cuts its answer off', async () => `http://127.0.0.1:${await listening((_req, res) => (res.writeHead(200, { 'content-length': '100' }), res.write('{"part'), res.destroy()))}/rest/v1`],
  ])('%s: the client gets 502, and an immediate resend of the key is named retry-wait', async (_name, upstream) => {
    const proxy = await startContractProxy({ upstream: await upstream(), validator: prismValidator('payments') });
    started.push(proxy);
    const first = await payment(proxy);
    expect(first.status).toBe(502);
    expect(((await first.json()) as { title: string }).title).toBe('The contract proxy could not reach the service');
    expect(proxy.report().totals.answer).toBe(0);
    await (await payment(proxy)).arrayBuffer();
    expect(proxy.report().violations).toContainEqual(expect.objectContaining({ rule: 'retry-wait', location: 'header.Idempotency-Key' }));
  });

  it('a second proxy on a port already taken fails to start with the port named', async () => {
    const taken = await listening(() => {});
    await expect(startContractProxy({ upstream: 'http://127.0.0.1:1/rest/v1', validator: prismValidator('payments'), port: taken })).rejects.toThrow(
      new RegExp(String(taken)),
    );
  });
});
