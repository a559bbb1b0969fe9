import type { Agent, ProxyAgent } from 'undici';
import type { ClientTlsOptions } from './client-tls-options.js';
import { loadTlsMaterial } from './load-tls-material.js';
import { parseProxyUrl } from './proxy-url.js';

export interface TlsAgentTuning {
  /** Passed to undici; the defaults suit one file at a time. */
  connections?: number;
  /** Milliseconds without data before a request fails (undici's headers and body timeouts). */
  timeoutMs?: number;
}

/**
 * An undici dispatcher that presents the client certificate (TLS 1.2 or newer), trusts `ca` when given and tunnels
 * through `proxy` when given. The certificate is opened here, so a wrong password fails now, not at the first call.
 * undici is imported here, on first use: neither client loads it.
 *
 * @deprecated Both clients share `HttpsTransport` (node:https, one stall timer per request); this was the SOAP
 * client's transport until then, and stays for code built on it.
 */
export async function createTlsAgent(options: ClientTlsOptions, tuning: TlsAgentTuning = {}): Promise<Agent | ProxyAgent> {
  const material = await loadTlsMaterial(options);
  const proxy = options.proxy === undefined ? undefined : parseProxyUrl(options.proxy);
  const undici = await import('undici');
  const connect = { ...material, minVersion: 'TLSv1.2' as const };
  const timeouts = tuning.timeoutMs === undefined ? {} : { headersTimeout: tuning.timeoutMs, bodyTimeout: tuning.timeoutMs };
  const pool = tuning.connections === undefined ? {} : { connections: tuning.connections };
  if (proxy) return new undici.ProxyAgent({ uri: proxy.href, requestTls: connect, ...timeouts, ...pool });
  return new undici.Agent({ connect, ...timeouts, ...pool });
}
