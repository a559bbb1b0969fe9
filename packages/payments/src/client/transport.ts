import { inputError, PaymentsError } from '../errors/payments-error.js';
import { rules } from '../generated/rules.js';
import { basicAuthorization, type ClientOptions, type RequestLog, type ResponseLog } from './config.js';
import { CallStop, longestTimerMs, resolveTimeout } from './call-stop.js';
import { checkIdempotencyKey, idempotencyHeader, newIdempotencyKey } from './idempotency.js';

/** A request as the client builds it: plain values, cheaper than a `Request` and resendable as they are. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: BodyInit;
  signal?: AbortSignal | undefined;
}

/** Reads the final answer's body; it runs under the call's timeout and signal. */
export type BodyReader<T> = (response: Response) => Promise<T>;

export interface Exchange<T> {
  response: Response;
  /** The body, as the reader returned it. */
  data: T;
  attempts: number;
  /** The `Idempotency-Key` sent on every attempt (POST only). */
  idempotencyKey: string | undefined;
}

/** Sends one call (with its retries) under the reference's client rules, then reads the answer's body. */
export type Transport = <T>(request: OutgoingRequest, read: BodyReader<T>) => Promise<Exchange<T>>;

const retriedStatuses: ReadonlySet<number> = new Set(rules.retry.statuses);
const methodsWithoutQuery = new Set(['PUT', 'POST', 'PATCH']);
const idempotencyHeaderName = idempotencyHeader?.toLowerCase();

/** What a client's transport settles once, when the client is made. */
interface Settings {
  send(url: string, init: RequestInit): Promise<Response>;
  maxRetries: number;
  delayMs: number;
  onRequest: ((request: RequestLog) => void) | undefined;
  onResponse: ((response: ResponseLog) => void) | undefined;
}

/** One call on its way: what every attempt sends, and what stops it. */
interface Call {
  request: OutgoingRequest;
  init: RequestInit;
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  stop: CallStop | undefined;
}

function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = name === 'authorization' ? '[redacted]' : value;
  return copy;
}

/** Lower-case names, so that a caller's `authorization` or `idempotency-key` replaces nothing and duplicates nothing. */
function outgoingHeaders(given: Record<string, string>, authorization: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const name in given) headers[name.toLowerCase()] = given[name]!;
  headers.authorization = authorization;
  return headers;
}

/** The key of a POST: the one in its headers (checked), else a new one, which is added to them. */
function idempotencyKeyOf(headers: Record<string, string>): string | undefined {
  if (!idempotencyHeaderName) return undefined;
  const given = headers[idempotencyHeaderName];
  const key = given === undefined ? newIdempotencyKey() : checkIdempotencyKey(given);
  headers[idempotencyHeaderName] = key;
  return key;
}

export function createTransport(options: ClientOptions): Transport {
  // The key lives only in this closure, as the header it becomes: nothing the client exposes can reach it.
  const authorization = basicAuthorization(options.apiKey);
  const timeoutMs = resolveTimeout(options.timeoutMs);
  const { dispatcher, fetch: custom } = options;
  const settings: Settings = {
    // The global fetch (looked up on every call) takes the URL and init as they are: a Request costs more to build.
    // A custom fetch gets a Request, like openapi-fetch's.
    send: custom
      ? (url, init) => custom(new Request(url, init), dispatcher ? ({ dispatcher } as RequestInit) : undefined)
      : (url, init) => globalThis.fetch(url, init),
    maxRetries: options.retry?.maxRetries ?? rules.retry.maxRetries,
    delayMs: options.retry?.delayMs ?? rules.retry.waitMs,
    onRequest: options.onRequest,
    onResponse: options.onResponse,
  };

  return async function send<T>(request: OutgoingRequest, read: BodyReader<T>): Promise<Exchange<T>> {
    const { method, url } = request;
    if (methodsWithoutQuery.has(method) && url.includes('?')) {
      throw inputError(`${method} requests must not carry query parameters (the service answers 400): ${url}`);
    }
    const headers = outgoingHeaders(request.headers, authorization);
    const idempotencyKey = method === 'POST' ? idempotencyKeyOf(headers) : undefined;
    // One stop for the whole call: the deadline and the caller's signal end it, retries, waits and body included.
    // A call that nothing can stop hands fetch no signal.
    const stop = timeoutMs !== Infinity || request.signal ? new CallStop(timeoutMs, request.signal) : undefined;
    // `signal: undefined` is no signal and `dispatcher: undefined` the global one, to fetch as to Request. Every init
    // has the same fields, in the same order: one object shape for fetch to read. No redirect is followed: fetch
    // would resend the body and the Idempotency-Key to whatever host a 307 names; a 3xx is the call's answer.
    const init = {
      method,
      headers,
      body: request.body,
      signal: stop?.signal,
      redirect: 'manual',
      dispatcher: custom ? undefined : dispatcher,
    } as RequestInit;
    try {
      return await sendWithRetries({ request, init, headers, idempotencyKey, stop }, settings, read);
    } finally {
      stop?.release();
    }
  };
}

/** The attempts of one call: resent on the reference's retry statuses and on network errors, then the body read. */
async function sendWithRetries<T>(call: Call, settings: Settings, read: BodyReader<T>): Promise<Exchange<T>> {
  const { request, init, idempotencyKey, stop } = call;
  const { onRequest, onResponse, maxRetries } = settings;
  for (let attempt = 1; ; attempt++) {
    const log: RequestLog | undefined =
      onRequest || onResponse
        ? { method: request.method, url: request.url, attempt, idempotencyKey, headers: loggedHeaders(call.headers) }
        : undefined;
    if (log) onRequest?.(log);
    const started = log ? performance.now() : 0;
    let response: Response;
    try {
      response = await settings.send(request.url, init);
    } catch (cause) {
      if (stop?.stoppedBy()) throw callFailure('stopped', call, attempt);
      // Anything fetch rejects with, short of our own abort, is a failure to get an answer: resent as transient.
      if (!rules.retry.networkErrors || attempt > maxRetries) throw callFailure('network', call, attempt, cause);
      await waitBeforeRetry(settings.delayMs, call, attempt);
      continue;
    }
    if (log) onResponse?.({ ...log, status: response.status, durationMs: performance.now() - started });
    if (!retriedStatuses.has(response.status) || attempt > maxRetries) return finish(response, read, call, attempt);
    // The service may ask for a longer wait (Retry-After). When that wait would outlast the deadline (or a timer),
    // no resend can come in time: the answer is the call's, at once, rather than a sleep ending in a timeout.
    const waitMs = Math.max(settings.delayMs, retryAfterMs(response.headers.get('retry-after')) ?? 0);
    if (waitMs > settings.delayMs && waitMs > Math.min(stop?.remainingMs() ?? Infinity, longestTimerMs)) {
      return finish(response, read, call, attempt);
    }
    await response.body?.cancel().catch(() => undefined);
    await waitBeforeRetry(waitMs, call, attempt);
  }
}

/** The call's final answer, its body read under the call's deadline. */
async function finish<T>(response: Response, read: BodyReader<T>, call: Call, attempts: number): Promise<Exchange<T>> {
  let data: T;
  try {
    data = await read(response);
  } catch (error) {
    if (error instanceof PaymentsError) throw error;
    throw callFailure('unreadable', call, attempts, error);
  }
  return { response, data, attempts, idempotencyKey: call.idempotencyKey };
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The error of a call that got no usable answer: fetch failed (`network`), the deadline or the caller stopped it, or
 * its body could not be read. A module function, so that a call allocates nothing for errors it does not meet.
 */
function callFailure(reason: 'network' | 'stopped' | 'unreadable', call: Call, attempts: number, cause?: unknown): PaymentsError {
  const { request, idempotencyKey, stop } = call;
  const { method, url } = request;
  let kind: 'network' | 'timeout' | 'aborted';
  let message: string;
  if (reason === 'network') {
    kind = 'network';
    message = `${method} ${url} got no answer after ${attempts} attempt(s).`;
  } else if (reason === 'unreadable' && !stop?.stoppedBy()) {
    kind = 'network';
    message = `${method} ${url}: the answer could not be read.`;
  } else if (stop?.timedOut) {
    kind = 'timeout';
    message = `${method} ${url} timed out after ${stop.timeoutMs} ms.`;
    cause = undefined;
  } else {
    kind = 'aborted';
    message = `${method} ${url} was aborted by the caller.`;
    cause = request.signal?.reason;
  }
  return new PaymentsError({ kind, message, method, url, idempotencyKey, attempts, cause });
}

async function waitBeforeRetry(delayMs: number, call: Call, attempts: number): Promise<void> {
  const { stop } = call;
  if (!stop) return new Promise((resolve) => setTimeout(resolve, delayMs));
  try {
    await stop.sleep(delayMs);
  } catch {
    throw callFailure('stopped', call, attempts);
  }
}

/**
 * The transport as a fetch for openapi-fetch (the raw client). The body is read by the transport, under the call's
 * timeout, so that the timeout covers it as it does for the methods.
 */
export function transportAsFetch(transport: Transport): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? await request.arrayBuffer() : undefined;
    const { response, data } = await transport(
      { method: request.method, url: request.url, headers, body, signal: request.signal },
      (answer) => answer.arrayBuffer(),
    );
    return new Response(data.byteLength ? data : null, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
