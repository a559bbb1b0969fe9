import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions } from 'node:https';

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

/** Where requests go: a base address's origin, with kept-alive connections to it. */
export interface Upstream {
  readonly https: boolean;
  readonly hostname: string;
  readonly port: number;
  /** The `Host` header the service expects. */
  readonly host: string;
  readonly agent: Agent;
}

/** Connections to the service are kept open between exchanges (Node 20's global agent closes them). */
export function upstreamOf(base: URL, tls: UpstreamTls | undefined): Upstream {
  const https = base.protocol === 'https:';
  return {
    https,
    hostname: base.hostname.replace(/^\[|\]$/g, ''),
    port: Number(base.port || (https ? 443 : 80)),
    host: base.host,
    agent: https ? new HttpsAgent({ keepAlive: true, ...tls }) : new Agent({ keepAlive: true }),
  };
}

/** Sends one request and reads the whole answer; rejects on a network error or when `signal` aborts. */
export function exchange(upstream: Upstream, method: string, path: string, headers: OutgoingHttpHeaders, body: Buffer, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = {
      method,
      hostname: upstream.hostname,
      port: upstream.port,
      path,
      agent: upstream.agent,
      headers: { ...headers, host: upstream.host, 'content-length': String(body.length) },
      ...(signal ? { signal } : {}),
    };
    const callback = (response: IncomingMessage) => {
      readAll(response)
        .then((buffer) => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: response.headers, body: buffer }))
        .catch(reject);
    };
    const outgoing = upstream.https ? httpsRequest(options, callback) : httpRequest(options, callback);
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
