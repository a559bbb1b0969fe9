import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy received it from the client (before any rewrite). */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/rest/v1/customers?customerNumber=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A response as the upstream mock sent it, or as the proxy delivers it after a mutation. */
export interface ProxiedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxyExchange {
  received: ProxiedRequest;
  forwarded: ProxiedRequest;
  upstream: ProxiedResponse;
  delivered: ProxiedResponse;
}

/** What the proxy does to the next exchanges; replace it between test cases. */
export interface ProxyPlan {
  /** Sent upstream as `Prefer` (Prism's way to choose a status and an example). */
  prefer?: string;
  /** Rewrites the request before it goes upstream (to strip what the upstream must not see). */
  rewriteRequest?: (request: ProxiedRequest) => ProxiedRequest;
  /** Rewrites the upstream answer before the client gets it. */
  mutateResponse?: (response: ProxiedResponse, request: ProxiedRequest) => ProxiedResponse;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name.toLowerCase())));
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * An HTTP proxy (node:http, port 0 on 127.0.0.1) between a client and a mock: it forwards every request to the
 * upstream origin, applies the current plan to the request and the answer, and records each exchange. Bodies are
 * buffered whole, which suits the small example messages of the contract tests.
 */
export class MutatingProxy {
  plan: ProxyPlan = {};
  readonly exchanges: ProxyExchange[] = [];
  private readonly server: Server;
  private readonly upstream: URL;
  private failures: unknown[] = [];

  private constructor(upstreamOrigin: string) {
    this.upstream = new URL(upstreamOrigin);
    this.server = createServer((req, res) => {
      this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, req)
        .then((delivered) => {
          res.writeHead(delivered.status, { ...endToEndHeaders(delivered.headers), 'content-length': String(delivered.body.length) });
          res.end(delivered.body);
        })
        .catch((error: unknown) => {
          // Kept for the test to see: a broken proxy must fail the test, not pass as a client error.
          this.failures.push(error);
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(`contract-test proxy failure: ${String(error)}`);
        });
    });
  }

  static async start(upstreamOrigin: string): Promise<MutatingProxy> {
    const proxy = new MutatingProxy(upstreamOrigin);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** `http://127.0.0.1:<port>`: put it where the client expects the mock's origin. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Forgets the recorded exchanges and sets the plan for the next ones. */
  reset(plan: ProxyPlan = {}): void {
    this.plan = plan;
    this.exchanges.length = 0;
    this.failures = [];
  }

  /** Throws what went wrong inside the proxy since the last reset (a mutation that threw, an upstream error). */
  assertHealthy(): void {
    if (this.failures.length > 0) throw this.failures[0] instanceof Error ? this.failures[0] : new Error(String(this.failures[0]));
  }

  last(): ProxyExchange {
    const exchange = this.exchanges.at(-1);
    if (!exchange) throw new Error('No request reached the proxy');
    return exchange;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(method: string, url: string, headers: IncomingHttpHeaders, body: AsyncIterable<Buffer>): Promise<ProxiedResponse> {
    const plan = this.plan;
    const received: ProxiedRequest = { method, url, headers, body: await readAll(body) };
    let forwarded = plan.rewriteRequest ? plan.rewriteRequest(received) : received;
    if (plan.prefer) forwarded = { ...forwarded, headers: { ...forwarded.headers, prefer: plan.prefer } };
    const upstream = await this.forward(forwarded);
    const delivered = plan.mutateResponse ? plan.mutateResponse(upstream, received) : upstream;
    this.exchanges.push({ received, forwarded, upstream, delivered });
    return delivered;
  }

  private forward(request: ProxiedRequest): Promise<ProxiedResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: this.upstream.hostname,
          port: this.upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...endToEndHeaders(request.headers), 'content-length': String(request.body.length) },
        },
        (response) => {
          readAll(response)
            .then((responseBody) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: responseBody }))
            .catch(reject);
        },
      );
      outgoing.once('error', reject);
      outgoing.end(request.body);
    });
  }
}
