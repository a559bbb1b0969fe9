import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TestCertificates } from '@paykit/mock-server';

export type Behaviour = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A real client-certificate TLS server for peers the contract's mock never plays: one that stalls mid-body, stops
 * reading an upload, answers a list of a million names. Each request gets the next scripted behaviour, as soon as
 * its head arrived (before its body is read), or `fallback`. Serves REST (`restUrl`) and SOAP (`soapUrl`) alike.
 */
export async function startHostileServer(certificates: TestCertificates, fallback: Behaviour = (_, res) => res.writeHead(599).end()) {
  const script: Behaviour[] = [];
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const [key, cert] = await Promise.all([readFile(certificates.serverKeyPath), readFile(certificates.serverCertPath)]);
  const server: Server = createServer({ key, cert, ca: certificates.caCertPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    (script.shift() ?? fallback)(req, res);
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;
  return {
    origin,
    restUrl: `${origin}/services/messaging/rest`,
    soapUrl: `${origin}/services/messaging`,
    requests,
    next(...behaviours: Behaviour[]) {
      script.push(...behaviours);
    },
    /** Drops the behaviours no request used. */
    clear() {
      script.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with a head and the first bytes of a body announced much longer, then sends nothing more (and never ends). */
export const stallMidBody =
  (headers: Record<string, string>, first: string | Buffer): Behaviour =>
  (req, res) => {
    req.resume();
    res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(first) + 1_000_000) });
    res.write(first);
  };

/** Never reads the request body and never answers: an upload stalls once the socket buffers are full. */
export const stopReading: Behaviour = (req) => {
  req.pause();
};

/** Reads the request, then answers `status` with `body`. */
export const answer =
  (status: number, headers: Record<string, string> = {}, body: string | Buffer = ''): Behaviour =>
  (req, res) => {
    req.resume();
    req.once('end', () => res.writeHead(status, headers).end(body));
  };

/** A body of `bytes` bytes streamed from `piece` repeated, as fast as the client reads it. */
export const streamBody =
  (status: number, headers: Record<string, string>, parts: () => Iterable<string | Buffer>): Behaviour =>
  (req, res) => {
    req.resume();
    req.once('end', async () => {
      res.writeHead(status, headers);
      for (const part of parts()) {
        if (!res.write(part)) await once(res, 'drain');
        if (res.destroyed) return;
      }
      res.end();
    });
  };

/** An HTTP proxy that refuses every CONNECT with `status` (407: credentials wanted). */
export async function startRefusingProxy(status = 407) {
  const server = createHttpServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (_req, socket: Socket) => {
    socket.end(`HTTP/1.1 ${status} Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TLS server that answers every handshake with a `handshake_failure` alert: it offers only a cipher no client of
 * ours proposes, so the refusal is a real alert on the wire, not a closed connection.
 */
export async function startAlertingServer(certificates: TestCertificates) {
  const [key, cert] = await Promise.all([readFile(certificates.serverKeyPath), readFile(certificates.serverCertPath)]);
  const server = createServer({ key, cert, maxVersion: 'TLSv1.2', ciphers: 'CAMELLIA128-SHA' }, (_req, res) => res.end());
  server.on('tlsClientError', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    restUrl: `https://127.0.0.1:${port}/services/messaging/rest`,
    soapUrl: `https://127.0.0.1:${port}/services/messaging`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
