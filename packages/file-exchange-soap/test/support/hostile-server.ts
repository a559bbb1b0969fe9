import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TestCertificates } from '@paykit/mock-server';
import { closeAll } from './close-all.js';

export type Behaviour = (request: IncomingMessage, response: ServerResponse) => void;

/** What a request saw of the server: its method and path, and whether it came over a connection used before. */
export interface SeenRequest {
  method: string;
  path: string;
  reusedConnection: boolean;
}

/** The behaviours scripted for one scope, in order; what its other requests get; the requests it saw. */
interface Scope {
  behaviours: Behaviour[];
  otherwise: Behaviour;
  requests: SeenRequest[];
  /** Only a request over a connection that already carried one takes a behaviour. */
  warmed: boolean;
}

/**
 * A real client-certificate TLS server for peers the contract's mock never plays: one that stalls mid-body, stops
 * reading an upload, answers a list of a million names. Each request gets the next scripted behaviour, as soon as
 * its head arrived (before its body is read), or `fallback`. Serves REST (`restUrl`) and SOAP (`soapUrl`) alike.
 *
 * `scope(token, otherwise)` gives addresses under `/<token>/` whose script binds each behaviour to the request meant
 * to take it: only a request of that scope, and only one over a connection that already carried a request (its TLS
 * handshake done). Every other request of the scope gets `otherwise`: the call that opens (warms) the connection, a
 * retry on a new connection, a request its client already gave up on (in a handshake slower than its stall timeout
 * on a loaded machine) that reaches the server late. Nothing of one test can take a behaviour meant for another.
 * With `{ warmed: false }` any request of the scope takes the next behaviour: for calls no client timeout can
 * abandon, where only the token has to keep tests apart (a retry on a new connection then takes its behaviour).
 */
export async function startHostileServer(certificates: TestCertificates, fallback: Behaviour = (_, res) => res.writeHead(599).end()) {
  const script: Behaviour[] = [];
  const scopes = new Map<string, Scope>();
  const used = new WeakSet<Socket>();
  const requests: string[] = [];
  const [key, cert] = await Promise.all([readFile(certificates.serverKeyPath), readFile(certificates.serverCertPath)]);
  const server: Server = createServer({ key, cert, ca: certificates.caCertPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const path = req.url ?? '';
    requests.push(`${req.method} ${path}`);
    const reusedConnection = used.has(req.socket);
    used.add(req.socket);
    const scope = scopes.get(path.split('/')[1] ?? '');
    if (!scope) {
      (script.shift() ?? fallback)(req, res);
      return;
    }
    scope.requests.push({ method: req.method ?? '', path, reusedConnection });
    ((reusedConnection || !scope.warmed ? scope.behaviours.shift() : undefined) ?? scope.otherwise)(req, res);
  });
  const close = closeAll(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;
  const urls = (prefix: string) => ({ restUrl: `${origin}${prefix}/services/messaging/rest`, soapUrl: `${origin}${prefix}/services/messaging` });
  return {
    origin,
    ...urls(''),
    requests,
    next(...behaviours: Behaviour[]) {
      script.push(...behaviours);
    },
    /** Addresses under `/<token>/` with a script of their own: see above. */
    scope(token: string, otherwise: Behaviour = fallback, { warmed = true }: { warmed?: boolean } = {}) {
      if (!/^[\w-]+$/.test(token) || scopes.has(token)) throw new Error(`scope token ${JSON.stringify(token)} must be a new word`);
      const scope: Scope = { behaviours: [], otherwise, requests: [], warmed };
      scopes.set(token, scope);
      return {
        ...urls(`/${token}`),
        requests: scope.requests,
        /** Behaviours for the next requests of the scope (over a connection that already carried one, unless `warmed: false`). */
        next(...behaviours: Behaviour[]) {
          scope.behaviours.push(...behaviours);
        },
      };
    },
    close,
  };
}

/**
 * Answers with a head and the first bytes of a body announced much longer, then sends nothing more (and never ends).
 * `onSent` is told once those bytes have left for the client (the client then reads its body: see `bodySent`).
 */
export const stallMidBody =
  (headers: Record<string, string>, first: string | Buffer, onSent?: () => void): Behaviour =>
  (req, res) => {
    req.resume();
    res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(first) + 1_000_000) });
    res.write(first, () => onSent?.());
  };

/**
 * Never reads the request body and never answers: an upload stalls once the socket buffers are full. With `onReached`,
 * told when the request's head arrived (its body is being sent).
 */
export const stopReading: Behaviour = (req) => {
  req.pause();
};
export const stopReadingThen =
  (onReached: () => void): Behaviour =>
  (req, res) => {
    stopReading(req, res);
    onReached();
  };

/**
 * A promise of the moment the client reads the body `stallMidBody` began: resolved two turns of the event loop after
 * its first bytes were sent (the server and the clients of these tests share one event loop: the first turn ends the
 * server's write, the next polls the client's socket, which then holds the bytes).
 */
export function bodySent(): { onSent: () => void; reached: Promise<void> } {
  let resolve!: () => void;
  const reached = new Promise<void>((done) => (resolve = done));
  return { onSent: () => setImmediate(() => setImmediate(resolve)), reached };
}

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

/**
 * Reads the request body in steps: `stepBytes`, then a pause until the test calls `resume()` (told by `paused`, the
 * number of pauses so far), for the first `slowBytes`; the rest at full speed. Then answers `status` with `body`. A
 * test moves the stall timeout's clock on during each pause (fake timers): a slow transfer whose bytes keep moving,
 * without a real delay anywhere.
 */
export function readInSteps(pace: { stepBytes: number; slowBytes: number }, status: number, headers: Record<string, string> = {}, body = '') {
  const steps = { paused: 0, done: false, resume: () => undefined as void };
  const behaviour: Behaviour = (req, res) => {
    let read = 0;
    let pauseAt = pace.stepBytes;
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read < pauseAt || read > pace.slowBytes) return;
      pauseAt = read + pace.stepBytes;
      req.pause();
      steps.resume = () => void req.resume();
      steps.paused++;
    });
    req.once('end', () => {
      steps.done = true;
      res.writeHead(status, headers).end(body);
    });
  };
  return { behaviour, steps };
}

/**
 * A TCP server that accepts connections and never says a word: a TLS handshake with it never completes. `accepted`
 * resolves at its next accepted connection (the client is then waiting in its handshake).
 */
export async function startSilentServer() {
  const { createServer: createTcpServer } = await import('node:net');
  const sockets = new Set<Socket>();
  let accept: (() => void) | undefined;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).once('close', () => sockets.delete(socket));
    accept?.();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    restUrl: `https://127.0.0.1:${port}/services/messaging/rest`,
    soapUrl: `https://127.0.0.1:${port}/services/messaging`,
    /** A promise of the next accepted connection. */
    nextConnection: () => new Promise<void>((resolve) => (accept = resolve)),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Reads an upload to its end without keeping it (its length checked against Content-Length, the bytes hashed), then
 * answers `status` with `body`: for uploads larger than the contract's mock can hold.
 */
export const discardUpload =
  (status: number, headers: Record<string, string>, body: string, received: { bytes: number; complete: boolean }): Behaviour =>
  (req, res) => {
    req.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    req.once('end', () => {
      received.complete = received.bytes === Number(req.headers['content-length']);
      res.writeHead(status, headers).end(body);
    });
  };
