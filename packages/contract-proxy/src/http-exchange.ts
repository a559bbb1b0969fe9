import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, type AgentOptions } from 'node:https';

/** A message read whole: the proxy buffers bodies, which suits API messages (no streaming endpoints in the contract). */
export interface Answer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

// Hop-by-hop headers (RFC 9110 7.6.1) and the length, which node:http sets for the body it is given.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length', 'host']);

/** The end-to-end headers of a message, the ones a proxy passes on. */
export function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !hopByHop.has(name)) kept[name] = value;
  return kept;
}

export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** TLS settings towards an HTTPS upstream: the client certificate to present and the authorities to trust. */
export type UpstreamTls = Pick<AgentOptions, 'pfx' | 'passphrase' | 'cert' | 'key' | 'ca'>;

// Connections to Prism and to a plain-HTTP service are kept open between exchanges (Node 20's global agent closes them).
const keepAlive = new Agent({ keepAlive: true });

/** Sends one request and reads the whole answer; rejects on a network error or when `signal` aborts. */
export function exchange(
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Buffer,
  tls: UpstreamTls | undefined,
  signal?: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers: { ...headers, 'content-length': String(body.length) }, signal };
    const callback = (response: import('node:http').IncomingMessage) => {
      readAll(response)
        .then((buffer) => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: response.headers, body: buffer }))
        .catch(reject);
    };
    const outgoing = url.protocol === 'https:' ? httpsRequest(url, { ...options, ...tls }, callback) : httpRequest(url, { ...options, agent: keepAlive }, callback);
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
