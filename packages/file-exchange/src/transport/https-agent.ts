import { request as httpRequest, type Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { TlsMaterial } from '../core/tls/load-tls-material.js';

/** Basic proxy credentials from the address, or nothing. */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/**
 * An https.Agent that reaches the server through an HTTP proxy with CONNECT, then runs the client-certificate TLS
 * handshake inside the tunnel (the proxy sees only the host name and port, never the content or the key).
 */
class TunnellingAgent extends HttpsAgent {
  constructor(
    options: AgentOptions,
    private readonly proxy: URL,
  ) {
    super(options);
  }

  override createConnection(options: ConnectionOptions, callback: (error: Error | null, socket?: Duplex) => void): undefined {
    const target = `${options.host}:${options.port}`;
    const request = (this.proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
      host: this.proxy.hostname,
      port: this.proxy.port || (this.proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...proxyAuthorization(this.proxy) },
      agent: false as unknown as HttpAgent,
    });
    request.once('connect', (response: IncomingMessage, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        callback(Object.assign(new Error(`Proxy refused the tunnel: ${response.statusCode} ${response.statusMessage ?? ''}`.trim()), { code: 'ERR_PROXY_TUNNEL' }));
        return;
      }
      const secure = tlsConnect({ ...options, socket, servername: options.servername ?? (isIp(String(options.host)) ? undefined : String(options.host)) } as ConnectionOptions);
      callback(null, secure);
    });
    request.once('error', (error) => callback(error));
    request.end();
    return undefined;
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** The node:https agent used for file bodies: keep-alive, TLS 1.2 or newer, the client certificate, the proxy. */
export function createHttpsAgent(material: TlsMaterial, proxy: URL | undefined): HttpsAgent {
  const options: AgentOptions = { ...material, keepAlive: true, maxSockets: 4, minVersion: 'TLSv1.2' };
  return proxy ? new TunnellingAgent(options, proxy) : new HttpsAgent(options);
}
