import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as it reached the witness: what the service would have received. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The request's body as it arrived, and the answer's as the service sent it (set once it is answered). */
  body: string;
  answer?: { status: number; headers: IncomingHttpHeaders; body: string };
}

export interface Witness {
  /** The service's base address through the witness (same base path). */
  url: string;
  /** Every request that reached the witness, in order. */
  seen: Seen[];
  /** Requests carrying `x-test-row: row`. */
  seenFor(row: string): Seen[];
  /** The next request is answered `status` (a JSON error body) by the witness instead of the service. */
  failNext(status: number): void;
  /** Requests are held until released; resolves when `count` are held. */
  hold(count: number): Promise<{ release(): void }>;
  close(): Promise<void>;
}

/**
 * What the service received: a pass-through in front of the real sandbox that notes every request, can answer one
 * itself with a fault status, and can hold requests (to keep them in flight). A negative check ("the service never
 * received it") reads `seen`.
 */
export async function startWitness(upstream: string | { basePath: string; later: () => string }): Promise<Witness> {
  // `later`: the service starts after the witness, so that it can be told the witness's address as its public one.
  const targetOf = () => new URL(typeof upstream === 'string' ? upstream : upstream.later());
  const basePath = typeof upstream === 'string' ? new URL(upstream).pathname : upstream.basePath;
  const seen: Seen[] = [];
  const faults: number[] = [];
  let holding: { count: number; held: (() => void)[]; reached: () => void } | undefined;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const noted: Seen = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(noted);
      const forward = () => {
        const fault = faults.shift();
        if (fault !== undefined) {
          const body = JSON.stringify({ status: fault, title: 'fault injected by the test' });
          outgoing.writeHead(fault, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          return void outgoing.end(body);
        }
        const body = Buffer.concat(chunks);
        // Transparent: the service sees the Host the client sent (its links name the address it was called at).
        const { connection: _connection, ...headers } = incoming.headers;
        const target = targetOf();
        const relayed = request(
          { hostname: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...headers, 'content-length': String(body.length) } },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => parts.push(chunk));
            answer.on('end', () => {
              const answered = Buffer.concat(parts);
              noted.answer = { status: answer.statusCode ?? 502, headers: answer.headers, body: answered.toString('utf8') };
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              outgoing.end(answered);
            });
          },
        );
        relayed.once('error', () => outgoing.destroy());
        relayed.end(body);
      };
      if (holding) {
        holding.held.push(forward);
        if (holding.held.length === holding.count) holding.reached();
      } else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`;
  return {
    url,
    seen,
    seenFor: (row) => seen.filter((request) => request.headers['x-test-row'] === row),
    failNext: (status) => void faults.push(status),
    hold: (count) =>
      new Promise((resolve) => {
        const state = { count, held: [] as (() => void)[], reached: () => {} };
        state.reached = () =>
          resolve({
            release: () => {
              holding = undefined;
              for (const forward of state.held) forward();
            },
          });
        holding = state;
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
