import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The typed openapi-fetch client serves only the small exchanges (list, delete): an upload or a download must not
// pay for making it.
const made = vi.hoisted(() => ({ count: 0 }));
vi.mock('openapi-fetch', async (importOriginal) => {
  const actual = await importOriginal<typeof import('openapi-fetch')>();
  return {
    ...actual,
    default: (...args: Parameters<typeof actual.default>) => {
      made.count++;
      return actual.default(...args);
    },
  };
});
const { FileExchangeClient } = await import('../src/client.js');

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST') response.writeHead(202, { 'content-length': '0' }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('A.csv\nB.csv\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/messaging/rest`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the typed client of the small exchanges', () => {
  it('is made on the first list, once, and never for an upload', async () => {
    const client = await FileExchangeClient.create({ baseUrl, retry: false });
    try {
      await client.upload('A.csv', Buffer.from('a,b\n'));
      expect(made.count).toBe(0);
      expect(await client.list()).toEqual(['A.csv', 'B.csv']);
      expect(await client.list()).toEqual(['A.csv', 'B.csv']);
      expect(made.count).toBe(1);
    } finally {
      await client.close();
    }
  });
});
