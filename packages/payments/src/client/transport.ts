import { inputError, PaymentsError } from '../errors/payments-error.js';
import { basicAuthorization, type ClientOptions, type RequestLog } from './config.js';
import { checkIdempotencyKey, idempotencyHeader, newIdempotencyKey } from './idempotency.js';

/** A request as the client builds it: plain values, cheaper than a `Request` and resendable as they are. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: BodyInit;
  signal?: AbortSignal;
}

export interface Exchange {
  response: Response;
  attempts: number;
  /** The `Idempotency-Key` sent on every attempt (POST only). */
  idempotencyKey: string | undefined;
  /** Call once the body has been read: ends the call's timeout. */
  release(): void;
  /** Whether the deadline or the caller stopped the call (reading the body fails then). */
  stoppedBy(): 'timeout' | 'aborted' | undefined;
}

/** Sends one call (with its retries) under the reference's client rules. */
export type Transport = (request: OutgoingRequest) => Promise<Exchange>;

const defaultTimeoutMs = 60_000;
const defaultRetries = 2;
const defaultDelayMs = 20_000;
const retriedStatuses = new Set([429, 503]);
const methodsWithoutQuery = new Set(['PUT', 'POST', 'PATCH']);

/** Waits, unless the signal fires first (then rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = name === 'authorization' ? '[redacted]' : value;
  return copy;
}

export function createTransport(options: ClientOptions): Transport {
  // The key lives only in this closure, as the header it becomes: nothing the client exposes can reach it.
  const authorization = basicAuthorization(options.apiKey);
  const dispatcher = options.dispatcher;
  const custom = options.fetch;
  // The global fetch takes the URL and init as they are (a Request costs more to build); a custom fetch gets a Request.
  const fetchImpl = custom
    ? (url: string, init: RequestInit) => custom(new Request(url, init), dispatcher ? ({ dispatcher } as RequestInit) : undefined)
    : (url: string, init: RequestInit) => globalThis.fetch(url, init);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const maxRetries = options.retry?.maxRetries ?? defaultRetries;
  const delayMs = options.retry?.delayMs ?? defaultDelayMs;
  const { onRequest, onResponse } = options;

  return async function send(request: OutgoingRequest): Promise<Exchange> {
    const { method, url, body } = request;
    if (methodsWithoutQuery.has(method) && url.includes('?')) {
      throw inputError(`${method} requests must not carry query parameters (the service answers 400): ${url}`);
    }
    // Lower-case names, so that a caller's `authorization` or `idempotency-key` replaces nothing and duplicates nothing.
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const name of Object.keys(request.headers)) headers[name.toLowerCase()] = request.headers[name]!;
    headers.authorization = authorization;
    let idempotencyKey: string | undefined;
    if (method === 'POST' && idempotencyHeader) {
      const name = idempotencyHeader.toLowerCase();
      const given = headers[name];
      idempotencyKey = given === undefined ? newIdempotencyKey() : checkIdempotencyKey(given);
      headers[name] = idempotencyKey;
    }

    // One controller for the whole call: the caller's signal and the deadline both abort it, retries and waits included.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    const callerSignal = request.signal;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const release = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    };

    const fail = (kind: 'network' | 'timeout' | 'aborted', message: string, attempts: number, cause?: unknown) => {
      release();
      return new PaymentsError({ kind, message: `${method} ${url} ${message}`, method, url, idempotencyKey, attempts, cause });
    };
    const stopped = (attempts: number) =>
      timedOut
        ? fail('timeout', `timed out after ${timeoutMs} ms.`, attempts)
        : fail('aborted', 'was aborted by the caller.', attempts, callerSignal?.reason);
    const init = { method, headers, body, signal: controller.signal, ...(dispatcher ? { dispatcher } : {}) } as RequestInit;

    for (let attempt = 1; ; attempt++) {
      const log: RequestLog | undefined =
        onRequest || onResponse ? { method, url, attempt, idempotencyKey, headers: loggedHeaders(headers) } : undefined;
      if (log) onRequest?.(log);
      const started = log ? performance.now() : 0;
      let response: Response;
      try {
        response = await fetchImpl(url, init);
      } catch (cause) {
        if (controller.signal.aborted) throw stopped(attempt);
        // Anything fetch rejects with, short of our own abort, is a failure to get an answer: resent as transient.
        if (attempt > maxRetries) throw fail('network', `got no answer after ${attempt} attempt(s).`, attempt, cause);
        await sleep(delayMs, controller.signal).catch(() => Promise.reject(stopped(attempt)));
        continue;
      }
      if (log) onResponse?.({ ...log, status: response.status, durationMs: performance.now() - started });
      if (!retriedStatuses.has(response.status) || attempt > maxRetries) {
        const stoppedBy = () => (timedOut ? 'timeout' : controller.signal.aborted ? 'aborted' : undefined);
        return { response, attempts: attempt, idempotencyKey, release, stoppedBy };
      }
      await response.body?.cancel().catch(() => undefined);
      await sleep(delayMs, controller.signal).catch(() => Promise.reject(stopped(attempt)));
    }
  };
}

/**
 * The transport as a fetch for openapi-fetch (the raw client). The body is read here, under the call's timeout, so
 * that the timeout covers it as it does for the methods.
 */
export function transportAsFetch(transport: Transport): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? await request.arrayBuffer() : undefined;
    const exchange = await transport({ method: request.method, url: request.url, headers, body, signal: request.signal });
    try {
      const { response } = exchange;
      const content = await response.arrayBuffer();
      return new Response(content.byteLength ? content : null, { status: response.status, statusText: response.statusText, headers: response.headers });
    } finally {
      exchange.release();
    }
  };
}
