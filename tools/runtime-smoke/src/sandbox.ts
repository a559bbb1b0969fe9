import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPaymentsSandbox } from '@paykit/mock-server';
import { stallHeader } from '../consumers/steps.mjs';

export interface SmokeSandbox {
  /** What a consumer's client is given (`PAYKIT_SMOKE`, as JSON), but for its own customer number. */
  client: { baseUrl: string; secretKey: string; publishableKey: string; timeoutMs: number };
  /** Requests the front holds, never answered, until their client gives up on them. */
  held(): number;
  close(): Promise<void>;
}

/**
 * The payments sandbox of @paykit/mock-server behind a small front on another free port: requests pass through to
 * the sandbox, but one carrying the stall header is held without an answer, the slow server a deadline is for.
 */
export async function startSmokeSandbox(timeoutMs: number): Promise<SmokeSandbox> {
  const sandbox = await startPaymentsSandbox();
  const target = new URL(sandbox.origin);
  const holding = new Set<ServerResponse>();
  const front = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (incoming.headers[stallHeader] !== undefined) {
      holding.add(outgoing);
      outgoing.on('close', () => holding.delete(outgoing));
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
    held: () => holding.size,
    close: async () => {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await sandbox.close();
    },
  };
}
