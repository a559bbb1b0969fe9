import { abortedBy, callbackThrew } from './abort.js';
import { AbortedError, ClientOptionsError, FileExchangeError, RetriesExhaustedError, TransientFailureError, type FileExchangeOperation } from './errors.js';
import { referenceRetryPolicy } from './rules.js';

/** One retry option shape for both clients; every field falls back to the reference's rule. */
export interface RetryOptions {
  /** Wait between tries; at least the reference's minimum unless `allowShortIntervals` is set. */
  intervalMs?: number;
  /** Give up once another wait would end later than this after the first try. */
  maxDurationMs?: number;
  /** Permit waits shorter than the reference's minimum: for tests and local mocks only. */
  allowShortIntervals?: boolean;
  /**
   * SOAP only. A SOAP `Client` fault comes as HTTP 500, which the reference says to retry; it also means the message
   * itself was wrong, so by OUR choice (`'final'`, the default) it is not retried. `'retry'` follows the reference
   * literally. The REST interface has no such fault.
   */
  soapClientFaults?: 'final' | 'retry';
  /** Told before each wait; for logs and progress (carries no secrets). */
  onRetry?: (event: RetryEvent) => void;
}

/** What `onRetry` is told: which try failed and why, and when the next one starts. */
export interface RetryEvent {
  operation: FileExchangeOperation;
  /** The file concerned, when the operation is about one file. */
  fileName?: string;
  /** The try that failed, from 1. */
  attempt: number;
  waitMs: number;
  /** When the next try starts. */
  nextAttemptAt: Date;
  /** When the window closes: a failure after this gives up. */
  giveUpAt: Date;
  failure: FileExchangeError;
}

/** Resolved retry options; `false` means one try only, its failure given to the caller as it is. */
export type RetryPolicy =
  | false
  | { intervalMs: number; maxDurationMs: number; soapClientFaults: 'final' | 'retry'; onRetry?: (event: RetryEvent) => void };

/** Checks retry options before any request: a wrong value is a ClientOptionsError. */
export function resolveRetryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return false;
  const intervalMs = options?.intervalMs ?? referenceRetryPolicy.intervalMs;
  const maxDurationMs = options?.maxDurationMs ?? referenceRetryPolicy.maxDurationMs;
  for (const [key, value] of [['intervalMs', intervalMs], ['maxDurationMs', maxDurationMs]] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ClientOptionsError(`retry.${key} must be a non-negative number of milliseconds, got ${String(value)}.`);
    }
  }
  if (intervalMs < referenceRetryPolicy.intervalMs && !options?.allowShortIntervals) {
    const minutes = referenceRetryPolicy.intervalMs / 60_000;
    throw new ClientOptionsError(`retry.intervalMs ${intervalMs} is shorter than the service's minimum of ${minutes} minutes; set allowShortIntervals only for tests and mocks.`);
  }
  const soapClientFaults = options?.soapClientFaults ?? 'final';
  if (soapClientFaults !== 'final' && soapClientFaults !== 'retry') {
    throw new ClientOptionsError(`retry.soapClientFaults must be 'final' or 'retry', got ${JSON.stringify(soapClientFaults)}.`);
  }
  return { intervalMs, maxDurationMs, soapClientFaults, ...(options?.onRetry ? { onRetry: options.onRetry } : {}) };
}

export interface RetryContext {
  operation: FileExchangeOperation;
  fileName?: string | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails with something retrying cannot fix (`retryable` false), or the window
 * closes: then the last failure is wrapped in RetriesExhaustedError. With the policy `false` a retryable failure is
 * thrown as it is. `signal` ends the wait between tries (AbortedError); the attempt itself is given it to stop too.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  context: RetryContext,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  // The window is measured on the monotonic clock: a step of the wall clock (a correction of a day, a daylight-saving
  // error) must neither stretch nor cut the reference's 4 hours. Dates told to onRetry are wall-clock times.
  const started = performance.now();
  let freshConnectionTried = false;
  for (let attempts = 1; ; attempts++) {
    if (signal?.aborted) throw abortedBy(signal, context);
    try {
      return await attempt();
    } catch (error) {
      // Whatever an aborted attempt threw (a reset socket, a half-read body), the abort is what happened.
      if (signal?.aborted) throw error instanceof AbortedError ? error : abortedBy(signal, context);
      if (policy === false || !(error instanceof FileExchangeError) || !error.retryable) throw error;
      // A connection the server closed while it sat idle in the pool: once per call, try again at once on a new one
      // (a retry wait of minutes for it is what an unattended job would otherwise pay, every time it sat idle). Not
      // with the policy false: a caller who asked for one try (a SOAP upload without fileID) decides itself.
      if (error instanceof TransientFailureError && error.staleConnection && !freshConnectionTried) {
        freshConnectionTried = true;
        continue;
      }
      const elapsedMs = performance.now() - started;
      if (elapsedMs + policy.intervalMs > policy.maxDurationMs) {
        const minutes = Math.round(elapsedMs / 6_000) / 10;
        throw new RetriesExhaustedError(
          `${context.operation}${context.fileName ? ` ${context.fileName}` : ''} still failing after ${attempts} tries over ${minutes} min; ` +
            `giving up (investigate by hand). Last failure: ${error.message}`,
          { ...context, attempts, elapsedMs, lastFailure: error },
        );
      }
      try {
        policy.onRetry?.({
          ...context,
          ...(context.fileName === undefined ? {} : { fileName: context.fileName }),
          attempt: attempts,
          waitMs: policy.intervalMs,
          nextAttemptAt: new Date(Date.now() + policy.intervalMs),
          giveUpAt: new Date(Date.now() - elapsedMs + policy.maxDurationMs),
          failure: error,
        });
      } catch (thrown) {
        // Typed like any other end of a call (an upload given keepUnsent then keeps its stream), never retried.
        throw new AbortedError({ ...context, reason: callbackThrew('onRetry', thrown) });
      }
      await sleep(policy.intervalMs, signal, context);
    }
  }
}

/**
 * The global setTimeout (not node:timers/promises), so that tests can drive the waits with fake timers. An abort
 * clears the timer, so nothing is left to keep the process alive.
 */
function sleep(ms: number, signal: AbortSignal | undefined, context: RetryContext): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedBy(signal, context));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedBy(signal!, context));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
