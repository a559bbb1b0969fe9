import { inputError } from '../errors/payments-error.js';

/**
 * What the transport tells the logging hooks. Headers are copies with the credentials (`authorization`, `cookie`,
 * `x-api-key`, `proxy-authorization` and the caller's `secretHeaders`) replaced by `[redacted]`.
 */
export interface RequestLog {
  method: string;
  url: string;
  attempt: number;
  idempotencyKey: string | undefined;
  headers: Record<string, string>;
}
export interface ResponseLog extends RequestLog {
  status: number;
  durationMs: number;
}

export interface RetryPolicy {
  /** Resends after the first attempt on 429, 503 and transient network errors. Default 2 (the spec's retry rule). */
  maxRetries?: number;
  /**
   * Wait before each resend, in milliseconds. Default 20 000, as the reference's client rules ask. A 429 or 503 whose
   * `Retry-After` (seconds or an HTTP date) asks for longer is waited for that long instead; when that wait would
   * outlast the call's timeout, the call fails at once with the 429 (`rateLimit`) or 503 (`server`) rather than
   * sleep until it times out.
   */
  delayMs?: number;
}

export interface ClientOptions {
  /** The API key: secret for the secret client, publishable for the publishable one. */
  apiKey: string;
  /**
   * Base address ending in `/rest/v1`. Defaults to the `PAYKIT_PAYMENTS_BASE_URL` environment variable. The
   * reference names its environments without publishing their addresses, so there is no built-in default.
   * `http://` is refused except on loopback (tests and local mocks).
   */
  baseUrl?: string;
  /**
   * Maximum time of one call in milliseconds, retries, waits and the body included. Default 60 000. `0` or
   * `Infinity` turn the deadline off: only the caller's `signal` can stop a call then, and a call without one hands
   * fetch no signal at all, the cheapest way to send (see the package's benchmark).
   */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /**
   * A fetch to use instead of the global one. Like openapi-fetch's, it gets a `Request` (and `{ dispatcher }` as
   * second argument when a dispatcher is configured).
   */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** An undici Dispatcher (Agent, ProxyAgent, mTLS...) handed to fetch as `dispatcher`. */
  dispatcher?: unknown;
  onRequest?: (request: RequestLog) => void;
  onResponse?: (response: ResponseLog) => void;
  /** Names of headers you send whose values are secret (your own tokens): the hooks see them as `[redacted]`. */
  secretHeaders?: readonly string[];
}

export const baseUrlVariable = 'PAYKIT_PAYMENTS_BASE_URL';

function environmentBaseUrl(): string | undefined {
  // Browsers have no `process`; the publishable entry must not require one.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[baseUrlVariable] || undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The base address to call, validated: absolute, HTTPS unless loopback, no query or fragment, no trailing slash. */
export function resolveBaseUrl(explicit: string | undefined): string {
  const raw = explicit ?? environmentBaseUrl();
  if (!raw) {
    throw inputError(`No base address: pass \`baseUrl\` or set ${baseUrlVariable} to your environment's address.`);
  }
  // The value is never echoed while it is not a usable address: it may be a key passed in the wrong option.
  const from = explicit === undefined ? baseUrlVariable : 'baseUrl';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw inputError(`The base address (${from}) is not an absolute URL: it must look like https://<host>/rest/v1.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    const got = url.protocol === 'http:' ? `, got ${url.origin}` : '';
    throw inputError(`The base address (${from}) must use https:// (http:// is accepted only on loopback)${got}.`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw inputError('The base address must not carry credentials, a query or a fragment.');
  }
  return url.href.replace(/\/+$/, '');
}

/** `Basic base64(key + ":")`, checked without ever echoing the key. */
export function basicAuthorization(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey) || apiKey.includes(':')) {
    throw inputError('The API key must be a non-empty string of printable ASCII characters without ":" or spaces.');
  }
  return `Basic ${btoa(`${apiKey}:`)}`;
}
