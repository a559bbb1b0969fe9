import { redactUrl } from './tls/redact-url.js';

/** Host names that reach this machine: the only ones a plain-http base address (a local mock) may name. */
const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Checks a base address and returns it without a trailing slash, ready for `${base}/${path}`. `http://` is accepted
 * only for a mock on this machine (no client certificate can travel over it). `invalid` makes the package's own error;
 * a value that is not a URL is never repeated in the message (it may be a key pasted into the wrong option).
 */
export function parseBaseUrl(baseUrl: unknown, example: string, invalid: (message: string) => Error): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw invalid(`baseUrl must be an absolute address such as ${example}; the value given is not a URL (not shown).`);
  }
  if (url.username || url.password) {
    throw invalid(`baseUrl must not carry credentials (${redactUrl(url.href)}): the client certificate authenticates.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback.test(url.hostname))) {
    const allowed = url.protocol === 'http:' ? 'https:// (http:// only for a mock on this machine)' : 'https://';
    throw invalid(`baseUrl must use ${allowed}, not ${url.protocol}//${url.host}: ${example}`);
  }
  if (url.search || url.hash) throw invalid(`baseUrl must not have a query or fragment: ${example}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
