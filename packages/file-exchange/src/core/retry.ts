import { referenceRetryPolicy } from './rules.js';

/** One retry option shape for both clients; every field falls back to the reference's rule. */
export interface RetryOptions<Operation extends string = string, Failure extends Error = Error> {
  /** Wait between tries; at least the reference's minimum unless `allowShortIntervals` is set. */
  intervalMs?: number;
  /** Give up once another wait would end later than this after the first try. */
  maxDurationMs?: number;
  /** Permit waits shorter than the reference's minimum: for tests and local mocks only. */
  allowShortIntervals?: boolean;
  /** Told before each wait; for logs and progress (carries no secrets). */
  onRetry?: (event: RetryEvent<Operation, Failure>) => void;
}

/** What `onRetry` is told: which try failed and why, and when the next one starts. */
export interface RetryEvent<Operation extends string = string, Failure extends Error = Error> {
  operation: Operation;
  /** The file concerned, when the operation is about one file. */
  fileName?: string;
  /** The try that failed, from 1. */
  attempt: number;
  waitMs: number;
  /** When the next try starts. */
  nextAttemptAt: Date;
  /** When the window closes: a failure after this gives up. */
  giveUpAt: Date;
  failure: Failure;
}

/** Resolved retry options; `false` means one try only, its failure given to the caller as it is. */
export type RetryPolicy<Operation extends string = string, Failure extends Error = Error> =
  | false
  | { intervalMs: number; maxDurationMs: number; onRetry?: (event: RetryEvent<Operation, Failure>) => void };

/** Checks retry options; `invalid` makes the package's own error for a wrong value. */
export function resolveRetryPolicy<Operation extends string, Failure extends Error>(
  options: RetryOptions<Operation, Failure> | false | undefined,
  invalid: (message: string) => Error,
): RetryPolicy<Operation, Failure> {
  if (options === false) return false;
  const intervalMs = options?.intervalMs ?? referenceRetryPolicy.intervalMs;
  const maxDurationMs = options?.maxDurationMs ?? referenceRetryPolicy.maxDurationMs;
  for (const [key, value] of [['intervalMs', intervalMs], ['maxDurationMs', maxDurationMs]] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw invalid(`retry.${key} must be a non-negative number of milliseconds, got ${String(value)}.`);
    }
  }
  if (intervalMs < referenceRetryPolicy.intervalMs && !options?.allowShortIntervals) {
    const minutes = referenceRetryPolicy.intervalMs / 60_000;
    throw invalid(`retry.intervalMs ${intervalMs} is shorter than the service's minimum of ${minutes} minutes; set allowShortIntervals only for tests and mocks.`);
  }
  return { intervalMs, maxDurationMs, ...(options?.onRetry ? { onRetry: options.onRetry } : {}) };
}

export interface RetryContext<Operation extends string> {
  operation: Operation;
  fileName?: string;
}

export interface RetryHooks<Failure extends Error> {
  /** Whether the reference's rule applies to this failure (a network error or a 500). */
  isTransient(error: unknown): error is Failure;
  /** The error for a window that closed with `last` still failing. */
  exhausted(details: { attempts: number; elapsedMs: number; last: Failure }): Error;
  /** Stops a wait between tries (with the signal's reason). */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails with something retrying cannot fix, or the window closes: then the last
 * failure is wrapped by `hooks.exhausted`. With the policy `false` a transient failure is thrown as it is.
 */
export async function withRetries<T, Operation extends string, Failure extends Error>(
  policy: RetryPolicy<Operation, Failure>,
  context: RetryContext<Operation>,
  attempt: () => Promise<T>,
  hooks: RetryHooks<Failure>,
): Promise<T> {
  const started = Date.now();
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (policy === false || !hooks.isTransient(error)) throw error;
      const elapsedMs = Date.now() - started;
      if (elapsedMs + policy.intervalMs > policy.maxDurationMs) throw hooks.exhausted({ attempts, elapsedMs, last: error });
      policy.onRetry?.({
        ...context,
        attempt: attempts,
        waitMs: policy.intervalMs,
        nextAttemptAt: new Date(Date.now() + policy.intervalMs),
        giveUpAt: new Date(started + policy.maxDurationMs),
        failure: error,
      });
      await sleep(policy.intervalMs, hooks.signal);
    }
  }
}

/** The global setTimeout (not node:timers/promises), so that tests can drive the waits with fake timers. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
