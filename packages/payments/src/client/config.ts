import { configurationError, type AnyPaymentsError } from '../errors/payments-error.js';
import { longestTimerMs } from './call-stop.js';

const defaultTimeoutMs = 60_000;

/**
 * What the transport tells the logging hooks about one attempt. Headers are copies with the credentials
 * (`authorization`, `cookie`, `x-api-key`, `proxy-authorization` and the caller's `secretHeaders`) replaced by
 * `[redacted]`: nothing a hook does to them reaches the request.
 */
export interface RequestLog {
  method: string;
  url: string;
  attempt: number;
  idempotencyKey: string | undefined;
  headers: Record<string, string>;
}
/** An attempt that got an answer (any status): its status line and headers; the body is the call's to read. */
export interface ResponseLog extends RequestLog {
  status: number;
  /** A copy of the answer's headers. */
  responseHeaders: Headers;
  durationMs: number;
}
/**
 * An attempt that got no usable answer: the connection failed or broke off mid-body (`network`), the proxy refused
 * the tunnel (`proxyRefused`), the deadline passed (`timeout`) or the caller's signal fired (`aborted`), in flight or
 * while waiting to resend (`attempt` is then the one it was waiting to send). `willRetry` says whether the client
 * sends the request again.
 */
export interface ErrorLog extends RequestLog {
  error: AnyPaymentsError;
  willRetry: boolean;
  durationMs: number;
}

/**
 * A logging hook. It may be async: the call does not wait for it, and whatever it throws or rejects with is reported
 * on the console and never changes the call's outcome.
 */
export type Hook<T> = (event: T) => void;

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
  /**
   * An undici Dispatcher handed to fetch as `dispatcher`: an `Agent` with your own CA or a client certificate, a
   * `ProxyAgent`, or an `EnvHttpProxyAgent` to honour HTTPS_PROXY (Node's fetch ignores it). A proxy's refusal (407,
   * 403) fails the call with a `proxyRefused` error, never resent. Node, Bun and Deno only: the build for a browser
   * or a worker (the `browser`, `worker` and `workerd` conditions) ignores it, as their fetch would.
   */
  dispatcher?: unknown;
  /** Before each attempt. */
  onRequest?: Hook<RequestLog>;
  /** When an attempt's answer arrives (its status and headers), before its body is read. */
  onResponse?: Hook<ResponseLog>;
  /** When an attempt gets no usable answer, or the call is stopped while it waits to resend. */
  onError?: Hook<ErrorLog>;
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
    throw configurationError('baseUrl', `be given, or ${baseUrlVariable} set to your environment's address`);
  }
  // The value is never echoed while it is not a usable address: it may be a key passed in the wrong option.
  const from = explicit === undefined ? baseUrlVariable : 'baseUrl';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw configurationError(from, 'be an absolute URL such as https://<host>/rest/v1');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    const got = url.protocol === 'http:' ? `, got ${url.origin}` : '';
    throw configurationError(from, `use https:// (http:// only on loopback)${got}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw configurationError(from, 'not carry credentials, a query or a fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/** `Basic base64(key + ":")`, checked without ever echoing the key. */
export function basicAuthorization(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey) || apiKey.includes(':')) {
    throw configurationError('apiKey', 'be a non-empty string of printable ASCII characters without ":" or spaces');
  }
  return `Basic ${btoa(`${apiKey}:`)}`;
}

/**
 * A count or a number of milliseconds given as an option, else its default. NaN (a `Number()` of an unset variable),
 * Infinity, fractions, negatives and values past what a timer holds are refused: each would resend without end, or
 * without waiting.
 */
export function numberOption(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > longestTimerMs) throw configurationError(option, `be a whole number from 0 to ${longestTimerMs}`);
  return value;
}

/** The deadline of one call in milliseconds: `Infinity` when the caller turned it off with 0 or `Infinity`. */
export function resolveTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return defaultTimeoutMs;
  if (typeof timeoutMs !== 'number' || !(Number.isInteger(timeoutMs) || timeoutMs === Infinity) || timeoutMs < 0) {
    throw configurationError('timeoutMs', 'be a whole number of milliseconds, 0 or Infinity for no timeout');
  }
  return timeoutMs === 0 || timeoutMs > longestTimerMs ? Infinity : timeoutMs;
}

/** The caller's secret header names: a list of non-empty strings. */
export function headerNamesOption(names: unknown): readonly string[] | undefined {
  if (names === undefined || (Array.isArray(names) && names.every((name) => typeof name === 'string' && name !== ''))) return names;
  throw configurationError('secretHeaders', 'be a list of header names');
}
