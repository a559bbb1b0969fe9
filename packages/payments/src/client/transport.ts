import { inputError, PaymentsError, type AnyPaymentsError, type PaymentsErrorDetails } from '../errors/payments-error.js';
import { maskCardNumbers, redactHeaders, secretHeaderNames } from '../errors/redaction.js';
// The rules' values by name, each a constant of its own: a bundle inlines the numbers and booleans.
import { mustNotResendStatuses, retryMaxRetries, retryNetworkErrors, retryStatuses, retryWaitMs } from '../generated/rules.js';
import { basicAuthorization, headerNamesOption, numberOption, resolveTimeout, type ClientOptions, type ErrorLog, type Hook, type RequestLog, type ResponseLog } from './config.js';
// What only Node's fetch meets: src/platform/node.ts, or web.ts in a browser's or a worker's build (package.json's imports).
import { refusedByProxy, sentNothing, takesDispatcher } from '#platform';
import { CallStop, longestTimerMs } from './call-stop.js';
import { checkIdempotencyKey, idempotencyHeader, newIdempotencyKey } from './idempotency.js';

/** A request as the client builds it: plain values, cheaper than a `Request` and resendable as they are. */
export interface OutgoingRequest {
  method: string;
  url: string;
  /** With lower-case names, as `Headers` gives them; `accept` included (the transport adds no default). */
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
  /**
   * An earlier attempt may have been carried out without its answer reaching the client, and the answer given is a
   * 429 or 503 that says nothing of it: the outcome is unknown (`mustQueryState`).
   */
  unknown?: boolean;
  /** When the call began (ms since the epoch), before its first attempt. */
  sentAt: number;
}

/** Sends one call (with its retries) under the reference's client rules, then reads the answer's body. */
export type Transport = <T>(request: OutgoingRequest, read: BodyReader<T>) => Promise<Exchange<T>>;

const retriedStatuses: ReadonlySet<number> = new Set(retryStatuses);
const methodsWithoutQuery = new Set(['PUT', 'POST', 'PATCH']);
const idempotencyHeaderName = idempotencyHeader?.toLowerCase();

/**
 * The caller's hook is logging: it runs in a microtask of its own, so that whatever it throws or rejects with is only
 * reported, and the call goes on as if it had not.
 */
function tell<T>(hook: Hook<T> | undefined, event: T): void {
  if (hook) Promise.resolve(event).then(hook).catch((error: unknown) => console.error('@paykit/payments: a hook failed', error));
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
  const { dispatcher, fetch: custom, retry, onRequest, onResponse, onError } = options;
  const secretHeaders = secretHeaderNames(headerNamesOption(options.secretHeaders));
  const maxRetries = numberOption('retry.maxRetries', retry?.maxRetries, retryMaxRetries);
  const delayMs = numberOption('retry.delayMs', retry?.delayMs, retryWaitMs);
  // The global fetch (looked up on every call) takes the URL and init as they are: a Request costs more to build.
  // A custom fetch gets a Request, like openapi-fetch's.
  // A custom fetch is also raced against the call's signal: it may ignore the Request's signal, and in Node a Request's
  // signal, which only follows the one it was made with, can stop firing after a garbage collection. The deadline
  // must end the call whatever the fetch does.
  const fetchOnce: (url: string, init: RequestInit) => Promise<Response> = custom
    ? (url, init) =>
        new Promise((resolve, reject) => {
          const { signal } = init;
          const stopped = () => reject(signal!.reason);
          signal?.addEventListener('abort', stopped, { once: true });
          (takesDispatcher && dispatcher ? custom(new Request(url, init), { dispatcher } as RequestInit) : custom(new Request(url, init)))
            .then(resolve, reject)
            .finally(() => signal?.removeEventListener('abort', stopped));
        })
    : takesDispatcher && dispatcher
      ? (url, init) => globalThis.fetch(url, { ...init, dispatcher } as RequestInit)
      : (url, init) => globalThis.fetch(url, init);

  /**
   * One call: resent on the reference's retry statuses and on network errors (an answer that breaks off mid-body
   * included), then the body read. A stop (deadline or caller) ends it wherever it is, waits included.
   */
  return async function send<T>(request: OutgoingRequest, read: BodyReader<T>): Promise<Exchange<T>> {
    const { method, url } = request;
    if (methodsWithoutQuery.has(method) && url.includes('?')) {
      throw inputError(`${method} requests must not carry query parameters: ${url}`);
    }
    // The names are lower-case (see OutgoingRequest): the client's Authorization replaces the caller's, whatever its case.
    const headers: Record<string, string> = { ...request.headers, authorization };
    const idempotencyKey = method === 'POST' ? idempotencyKeyOf(headers) : undefined;
    // One stop for the whole call: the deadline and the caller's signal end it, retries, waits and body included.
    // A call that nothing can stop hands fetch no signal.
    const stop = timeoutMs !== Infinity || request.signal ? new CallStop(timeoutMs, request.signal) : undefined;
    // `signal: undefined` is no signal, to fetch as to Request (a dispatcher is added by fetchOnce, under Node). Every
    // init has the same fields, in the same order: one object shape for fetch to read. No redirect is followed: fetch
    // would resend the body and the Idempotency-Key to whatever host a 307 names; a 3xx is the call's answer.
    const init = {
      method,
      headers,
      body: request.body,
      signal: stop?.signal,
      redirect: 'manual',
    } as RequestInit;
    // When the call began: its key cannot have reached the service before, so its lifetime there ends later.
    const startedAt = Date.now();
    let waitMs = 0;
    let sent = 0;
    // An attempt sent that got no answer: the service may have done the work. Only an answer other than a 429 or
    // 503 (which say nothing of an earlier attempt) settles it.
    let lost = false;
    // The last definite answer (a 429 or 503 before a resend): the call's outcome if no resend can come in time.
    let last: Exchange<T> | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const log: RequestLog | undefined =
          onRequest || onResponse || onError ? { method, url: maskCardNumbers(url), attempt, idempotencyKey, headers: redactHeaders(headers, secretHeaders) } : undefined;
        const started = log ? performance.now() : 0;
        let response: Response | undefined;
        try {
          if (waitMs) await (stop ? stop.sleep(waitMs) : new Promise((resolve) => setTimeout(resolve, waitMs)));
          // A signal aborted before the call is no attempt: nothing is sent.
          stop?.signal.throwIfAborted();
          if (log) tell(onRequest, log);
          sent = attempt;
          response = await fetchOnce(url, init);
          const { status, headers: answered } = response;
          if (log) tell(onResponse, { ...log, status, responseHeaders: new Headers(redactHeaders(answered, secretHeaders)), durationMs: performance.now() - started });
          const exchange: Exchange<T> = { response, data: undefined as T, attempts: attempt, idempotencyKey, unknown: lost, sentAt: startedAt };
          // The service may ask for a longer wait (Retry-After). When the wait would outlast the deadline (or a
          // timer), no resend can come in time: the answer is the call's, at once, rather than a sleep ending in a timeout.
          waitMs = Math.max(delayMs, retryAfterMs(answered.get('retry-after')) ?? 0);
          const again = retriedStatuses.has(status) && attempt <= maxRetries && waitMs <= Math.min(stop?.remainingMs() ?? Infinity, longestTimerMs);
          if (!again) lost = exchange.unknown = lost && retriedStatuses.has(status);
          exchange.data = await read(response);
          if (!again) return exchange;
          last = exchange;
        } catch (cause) {
          // This attempt was sent (it may have been carried out), unless Node says it failed before sending a byte.
          // (A condition, not an `if`: a browser's build then keeps no trace of the Node-only test.)
          const unknown = sentNothing && sentNothing(cause) ? lost : lost || sent === attempt;
          const failure = callFailure(request, idempotencyKey, stop, sent, cause, response?.status, unknown, startedAt);
          // Stopped by the deadline while waiting to resend: the last answer is the call's, not a timeout.
          if (last && sent < attempt && failure.kind === 'timeout') return last;
          lost = failure.mustQueryState;
          // Anything fetch rejects with short of a stop or a proxy's refusal, and a body broken off, is a failure to
          // get an answer: resent as transient, unless the status that did arrive forbids it (500: part of the work
          // may be done), or the request is a PATCH, which has no key that would make its resend safe.
          const again =
            failure.kind === 'network' &&
            retryNetworkErrors &&
            attempt <= maxRetries &&
            method !== 'PATCH' &&
            !(mustNotResendStatuses as readonly (number | undefined)[]).includes(response?.status);
          if (log) tell(onError, { ...log, error: failure, willRetry: again, durationMs: performance.now() - started });
          if (!again) throw failure;
          waitMs = delayMs;
        }
      }
    } finally {
      stop?.release();
    }
  };
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
 * The error of a call that got no usable answer: the deadline or the caller stopped it, fetch failed (`network`; a
 * proxy's refusal is `proxyRefused`), or the body of an answer with `status` broke off. `unknown`: an attempt may have
 * been carried out (the outcome is unknown unless the request only reads). A module function, so that a call
 * allocates nothing for errors it does not meet.
 */
function callFailure(
  request: OutgoingRequest,
  idempotencyKey: string | undefined,
  stop: CallStop | undefined,
  attempts: number,
  cause: unknown,
  status: number | undefined,
  unknown: boolean,
  sentAt: number,
): AnyPaymentsError {
  const { method, url } = request;
  const stopped = stop?.stoppedBy();
  let proxyStatus: number | undefined;
  let kind: 'network' | 'timeout' | 'aborted' | 'proxyRefused' = 'network';
  // A body broken off (an answer with a `status` came) counts as no answer: the one that arrived is incomplete.
  let message = `${method} ${url} got no ${status ? 'complete ' : ''}answer after ${attempts} attempt(s).`;
  if (stopped === 'timeout') {
    kind = stopped;
    message = `${method} ${url} timed out after ${stop!.timeoutMs} ms.`;
    cause = undefined;
  } else if (stopped) {
    kind = stopped;
    message = `${method} ${url} was aborted by the caller.`;
    cause = request.signal?.reason;
  } else if (refusedByProxy && (proxyStatus = refusedByProxy(cause))) {
    kind = 'proxyRefused';
    message = `${method} ${url}: the proxy refused it (HTTP ${proxyStatus}).`;
    unknown = false;
  }
  return new PaymentsError({
    kind,
    message,
    method,
    url,
    idempotencyKey,
    attempts,
    cause,
    status: proxyStatus,
    // A request that only reads changed nothing, whatever became of it.
    mustQueryState: unknown && method !== 'GET',
    sentAt,
  } as PaymentsErrorDetails<typeof kind>) as AnyPaymentsError;
}
