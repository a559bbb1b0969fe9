import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPaymentsSandbox } from '@paykit/mock-server';
import { stallHeader } from '../consumers/steps.mjs';

export interface SmokeSandbox {
  /** What a consumer's client is given (`PAYKIT_SMOKE`, as JSON), but for its own customer number. */
  client: { baseUrl: string; secretKey: string; publishableKey: string; timeoutMs: number };
  /** How many requests with this stall header value reached the front (each is held, never answered). */
  arrived(stall: string): number;
  /** How many of them the front still holds: their client has not given up on them yet. */
  held(stall: string): number;
  close(): Promise<void>;
}

/**
 * The payments sandbox of @paykit/mock-server behind a small front on another free port: requests pass through to
 * the sandbox, but one carrying the stall header is held without an answer, the slow server a deadline is for. The
 * header's value (each runtime sends its own) keeps the counts of runtimes run side by side apart.
 */
export async function startSmokeSandbox(timeoutMs: number): Promise<SmokeSandbox> {
  const sandbox = await startPaymentsSandbox();
  const target = new URL(sandbox.origin);
  const holding = new Map<string, Set<ServerResponse>>();
  const arrived = new Map<string, number>();
  const front = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const stall = incoming.headers[stallHeader];
    if (stall !== undefined) {
      const key = String(stall);
      arrived.set(key, (arrived.get(key) ?? 0) + 1);
      const held = holding.get(key) ?? new Set<ServerResponse>();
      holding.set(key, held.add(outgoing));
      outgoing.on('close', () => held.delete(outgoing));
      return;
    }
    const upstream = forward({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  const path = new URL(sandbox.url).pathname;
  return {
    client: { baseUrl: `http://127.0.0.1:${port}${path}`, secretKey: sandbox.keys.secret[0]!, publishableKey: sandbox.keys.publishable[0]!, timeoutMs },
    arrived: (stall) => arrived.get(stall) ?? 0,
    held: (stall) => holding.get(stall)?.size ?? 0,
    close: async () => {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await sandbox.close();
    },
  };
}
