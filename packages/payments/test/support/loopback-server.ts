import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Decides the answer to the n-th request (0-based); it may write, delay, or destroy the socket. */
export type Script = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface LoopbackServer {
  /** Base address ending in `/rest/v1`, as the client is configured. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a free port that records every request and answers by script. */
export async function startLoopbackServer(script: Script): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      const index = requests.push(recorded) - 1;
      Promise.resolve(script(recorded, res, index)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : undefined);
      });
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/rest/v1`, requests, close };
}

/**
 * Starts `server` on 127.0.0.1 and a free port. `close` ends its connections, and `sockets` it no longer tracks
 * (tunnels), before closing it.
 */
export async function listenOnLoopback(server: Server, sockets: Iterable<Socket> = []): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export function errorBody(status: number, developerMessage = `failure ${status}`) {
  return {
    status: String(status),
    requestMethod: 'POST',
    requestUrl: '/rest/v1/transactions',
    customerMessage: 'The request could not be completed.',
    developerMessage,
    links: [],
  };
}
