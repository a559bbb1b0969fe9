// The shared proxy refuses as its options say and tunnels otherwise; each package's proxy tests rely on both.
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy, type ConnectProxy, type ConnectProxyOptions } from '../src/index.js';

let target: Server;
let targetHost: string;
beforeAll(async () => {
  target = createServer((_, response) => response.end('through'));
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

/** Asks the proxy for a tunnel to the target and, if it opens, a GET through it: the status line and the body. */
function throughProxy(proxy: ConnectProxy, authorization?: string): Promise<{ status: number; body?: string }> {
  return new Promise((resolve, reject) => {
    const connect = request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: targetHost, headers: authorization ? { 'proxy-authorization': authorization } : {} });
    connect.on('connect', (response, socket) => {
      if (response.statusCode !== 200) return void (socket.destroy(), resolve({ status: response.statusCode! }));
      const get = request({ createConnection: () => socket, path: '/', headers: { host: targetHost, connection: 'close' } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => resolve({ status: 200, body }));
      });
      get.on('error', reject).end();
    });
    connect.on('error', reject).end();
  });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('startConnectProxy', () => {
  const cases: Array<[string, ConnectProxyOptions, string | undefined, number]> = [
    ['tunnels with no credentials asked', {}, undefined, 200],
    ['tunnels with the right credentials', { credentials: { user: 'u', password: 'p' } }, basic('u', 'p'), 200],
    ['answers 407 to wrong credentials', { credentials: { user: 'u', password: 'p' } }, basic('u', 'wrong'), 407],
    ['answers 407 to none', { credentials: { user: 'u', password: 'p' } }, undefined, 407],
    ['answers 403 when it forbids the target', { forbid: true }, undefined, 403],
  ];

  it.each(cases)('%s', async (_, options, authorization, status) => {
    const proxy = await startConnectProxy(options);
    try {
      const answer = await throughProxy(proxy, authorization);
      expect(answer.status).toBe(status);
      if (status === 200) expect(answer.body).toBe('through');
      expect(proxy.received).toEqual([`CONNECT ${targetHost}`]);
      expect(proxy.tunnels).toEqual(status === 200 ? [targetHost] : []);
    } finally {
      await proxy.close();
    }
  });
});
