import { TlsConfigurationError } from './errors.js';
import { redactUrl } from './redact-url.js';

/** Checks the proxy address (`http://[user:pass@]host:port`); errors never show its credentials. */
export function parseProxyUrl(proxy: string): URL {
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    throw new TlsConfigurationError('invalid-proxy', 'The proxy must be an address such as http://host:port (with optional user:password@).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TlsConfigurationError('invalid-proxy', `The proxy ${url.host ? redactUrl(proxy) : 'address'} must use http:// or https://.`);
  }
  return url;
}
