import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { AgentOptions } from 'node:https';
import { Pool, type Dispatcher } from 'undici';

/** A message read whole: the proxy buffers bodies, which suits API messages (no streaming endpoints in the contract). */
export interface Answer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

// Hop-by-hop headers (RFC 9110 7.6.1), the length (set for the body sent) and Expect (the proxy answered the
// client's 100-continue itself and sends the body whole).
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length', 'host', 'expect']);

/** The end-to-end headers of a message, the ones a proxy passes on. */
export function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !hopByHop.has(name)) kept[name] = value;
  }
  return kept;
}

/** Reads a message's body whole. */
export function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    stream.once('error', reject);
    stream.once('aborted', () => reject(new Error('the message was cut off')));
  });
}

/** TLS settings towards an HTTPS upstream: the client certificate to present and the authorities to trust. */
export type UpstreamTls = Pick<AgentOptions, 'pfx' | 'passphrase' | 'cert' | 'key' | 'ca'>;

/** Where requests go: a base address's origin, with a pool of kept-alive connections to it (undici). */
export interface Upstream {
  readonly pool: Pool;
  /** The `Host` header the service expects. */
  readonly host: string;
  close(): Promise<void>;
}

export function upstreamOf(base: URL, tls: UpstreamTls | undefined): Upstream {
  const pool = new Pool(base.origin, { pipelining: 1, ...(tls ? { connect: { ...tls } as never } : {}) });
  return { pool, host: base.host, close: () => pool.destroy() };
}

/** Writes a whole answer: head and body in one write (see `exchange`). */
export function writeAnswer(response: import('node:http').ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, answer.statusText, { ...endToEnd(answer.headers), 'content-length': String(answer.body.length) });
  if (answer.body.length === 0) response.end();
  else response.end(answer.body.toString('latin1'), 'latin1');
}

/** Sends one request and reads the whole answer; rejects on a network error or when `signal` aborts. */
export async function exchange(upstream: Upstream, method: string, path: string, headers: OutgoingHttpHeaders, body: Buffer, signal?: AbortSignal): Promise<Answer> {
  const answer = await upstream.pool.request({
    method: method as Dispatcher.HttpMethod,
    path,
    headers: headers as Record<string, string>,
    body: body.length === 0 ? null : body,
    ...(signal ? { signal } : {}),
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  return { status: answer.statusCode, statusText: '', headers: answer.headers as IncomingHttpHeaders, body: bytes };
}
