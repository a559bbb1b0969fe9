import { inputError, PaymentsError } from '../errors/payments-error.js';
import { basicAuthorization, type ClientOptions, type RequestLog } from './config.js';
import { CallStop, resolveTimeout, type StopMode } from './call-stop.js';
import { DeadlineQueue } from './deadlines.js';
import { globalDispatcher, type Dispatcher, type HandlerWrapper } from './stoppable-dispatch.js';
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

const defaultRetries = 2;
const defaultDelayMs = 20_000;
const retriedStatuses = new Set([429, 503]);
const methodsWithoutQuery = new Set(['PUT', 'POST', 'PATCH']);
const idempotencyHeaderName = idempotencyHeader?.toLowerCase();
/** Node's fetch is undici, whose requests can be stopped through their dispatcher; elsewhere signals do it. */
const onNode = typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';

// Which global fetch was seen to send a request through the dispatcher it was given, and which was seen not to (a
// mocking library's, say): calls on the first hand fetch no AbortSignal, calls on the second rely on one, and a fetch
// not seen yet gets both. Kept per process: it is a fact about the fetch function, whichever client calls it.
let honouring: unknown;
let ignoring: unknown;

/** What a call's fetch showed: a request through the dispatcher proves it honoured; an answer without one, ignored. */
function noteDispatcherUse(fetch: unknown, stop: CallStop, answered: boolean): void {
  if (stop.dispatched) honouring = fetch;
  else if (answered) {
    ignoring = fetch;
    if (honouring === fetch) honouring = undefined;
  }
}

function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = name === 'authorization' ? '[redacted]' : value;
  return copy;
}

/**
 * `wrapHandler` lets calls on Node's fetch keep their deadline through the request's dispatcher rather than an
 * AbortSignal; without it (the browser entry) calls always use signals.
 */
export function createTransport(options: ClientOptions, wrapHandler?: HandlerWrapper): Transport {
  // The key lives only in this closure, as the header it becomes: nothing the client exposes can reach it.
  const authorization = basicAuthorization(options.apiKey);
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  const custom = options.fetch;
  const timeoutMs = resolveTimeout(options.timeoutMs);
  const deadlines = timeoutMs === Infinity ? undefined : new DeadlineQueue(timeoutMs);
  const maxRetries = options.retry?.maxRetries ?? defaultRetries;
  const delayMs = options.retry?.delayMs ?? defaultDelayMs;
  const { onRequest, onResponse } = options;

  // The global fetch takes the URL and init as they are (a Request costs more to build); a custom fetch gets a Request.
  function fetchOnce(url: string, init: RequestInit): Promise<Response> {
    if (!custom) return globalThis.fetch(url, init);
    return custom(new Request(url, init), dispatcher ? ({ dispatcher } as RequestInit) : undefined);
  }

  return async function send<T>(request: OutgoingRequest, read: BodyReader<T>): Promise<Exchange<T>> {
    const { method, url, body } = request;
    if (methodsWithoutQuery.has(method) && url.includes('?')) {
      throw inputError(`${method} requests must not carry query parameters (the service answers 400): ${url}`);
    }
    // Lower-case names, so that a caller's `authorization` or `idempotency-key` replaces nothing and duplicates nothing.
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const name in request.headers) headers[name.toLowerCase()] = request.headers[name]!;
    headers.authorization = authorization;
    let idempotencyKey: string | undefined;
    if (method === 'POST' && idempotencyHeaderName) {
      const given = headers[idempotencyHeaderName];
      idempotencyKey = given === undefined ? newIdempotencyKey() : checkIdempotencyKey(given);
      headers[idempotencyHeaderName] = idempotencyKey;
    }

    // One stop for the whole call: the deadline and the caller's signal end it, retries, waits and body included.
    // A call that nothing can stop hands fetch neither a signal nor a dispatcher of ours.
    const globalFetch = custom ? undefined : globalThis.fetch;
    let mode: StopMode | undefined;
    let target: Dispatcher | undefined;
    if (deadlines || request.signal) {
      // undici's global dispatcher appears once fetch has loaded undici: the first call of a process uses a signal.
      target = wrapHandler && globalFetch && onNode && globalFetch !== ignoring ? (dispatcher ?? globalDispatcher()) : undefined;
      mode = !target ? 'signal' : globalFetch === honouring ? 'dispatcher' : 'both';
    }
    const stop = mode ? new CallStop(deadlines, request.signal, mode, target, wrapHandler) : undefined;
    const viaDispatcher = mode === 'dispatcher' || mode === 'both';
    // `signal: undefined` is no signal, and `dispatcher: undefined` the global one, to fetch as to Request. Every
    // init has the same fields, in the same order: one object shape for fetch to read.
    const init = {
      method,
      headers,
      body,
      signal: stop?.signal,
      dispatcher: viaDispatcher ? stop : custom ? undefined : dispatcher,
    } as RequestInit;

    try {
      for (let attempt = 1; ; attempt++) {
        const log: RequestLog | undefined =
          onRequest || onResponse ? { method, url, attempt, idempotencyKey, headers: loggedHeaders(headers) } : undefined;
        if (log) onRequest?.(log);
        const started = log ? performance.now() : 0;
        let response: Response;
        try {
          response = await fetchOnce(url, init);
        } catch (cause) {
          if (viaDispatcher) noteDispatcherUse(globalFetch, stop!, false);
          if (stop?.stoppedBy()) throw callFailure('stopped', request, idempotencyKey, attempt, stop);
          // Anything fetch rejects with, short of our own abort, is a failure to get an answer: resent as transient.
          if (attempt > maxRetries) throw callFailure('network', request, idempotencyKey, attempt, stop, cause);
          await waitBeforeRetry(delayMs, request, idempotencyKey, attempt, stop);
          continue;
        }
        if (viaDispatcher) noteDispatcherUse(globalFetch, stop!, true);
        if (log) onResponse?.({ ...log, status: response.status, durationMs: performance.now() - started });
        if (!retriedStatuses.has(response.status) || attempt > maxRetries) {
          let data: T;
          try {
            data = await read(response);
          } catch (error) {
            if (error instanceof PaymentsError) throw error;
            throw callFailure('unreadable', request, idempotencyKey, attempt, stop, error);
          }
          return { response, data, attempts: attempt, idempotencyKey };
        }
        await response.body?.cancel().catch(() => undefined);
        await waitBeforeRetry(delayMs, request, idempotencyKey, attempt, stop);
      }
    } finally {
      stop?.release();
    }
  };
}

/**
 * The error of a call that got no usable answer: fetch failed (`network`), the deadline or the caller stopped it, or
 * its body could not be read. A module function, so that a call allocates nothing for errors it does not meet.
 */
function callFailure(
  reason: 'network' | 'stopped' | 'unreadable',
  request: OutgoingRequest,
  idempotencyKey: string | undefined,
  attempts: number,
  stop: CallStop | undefined,
  cause?: unknown,
): PaymentsError {
  const { method, url } = request;
  let kind: 'network' | 'timeout' | 'aborted';
  let message: string;
  if (reason === 'network') {
    kind = 'network';
    message = `${method} ${url} got no answer after ${attempts} attempt(s).`;
  } else if (reason === 'unreadable') {
    kind = stop?.stoppedBy() ?? 'network';
    message = `${method} ${url}: the answer could not be read (${kind}).`;
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

async function waitBeforeRetry(
  delayMs: number,
  request: OutgoingRequest,
  idempotencyKey: string | undefined,
  attempts: number,
  stop: CallStop | undefined,
): Promise<void> {
  if (!stop) return new Promise((resolve) => setTimeout(resolve, delayMs));
  try {
    await stop.sleep(delayMs);
  } catch {
    throw callFailure('stopped', request, idempotencyKey, attempts, stop);
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
