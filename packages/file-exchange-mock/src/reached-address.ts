import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** 0.0.0.0 and :: listen on every interface: no client can call that address, so it cannot be advertised. */
export function isUnspecifiedAddress(host: string): boolean {
  return host === '0.0.0.0' || (isIPv6(host) && /^[0:]+$/.test(host));
}

/** A Host header that is a host name or IP address with an optional port, nothing else (no user, path or spaces). */
const hostHeader = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

/**
 * The origin by which the client of `req` reached this server: its Host header when it is a plain host[:port] (the
 * name the client used, which also works behind a port forward), else the local address the connection came in on.
 */
export function reachedOrigin(req: IncomingMessage, scheme: 'http' | 'https'): string {
  const host = req.headers.host;
  if (host !== undefined && hostHeader.test(host)) return `${scheme}://${host}`;
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return `${scheme}://${isIPv6(address) ? `[${address}]` : address}:${localPort}`;
}
