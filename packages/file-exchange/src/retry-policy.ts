import { FileExchangeError, RetriesExhaustedError, TransientFailureError, type FileExchangeOperation } from './errors.js';

const minute = 60_000;

/** The reference's rule: at least 5 minutes between tries, for at most 4 hours. */
export const referenceRetryPolicy = { intervalMs: 5 * minute, maxDurationMs: 240 * minute } as const;

export interface RetryPolicyOptions {
  /** Wait between tries; at least 5 minutes unless `allowShortIntervals` is set. */
  intervalMs?: number;
  /** Give up once another wait would end later than this after the first try. */
  maxDurationMs?: number;
  /** Permit waits shorter than the reference's 5 minutes: for tests and local mocks only. */
  allowShortIntervals?: boolean;
  /** Told before each wait; for logs and progress (carries no secrets). */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  operation: FileExchangeOperation;
  fileName?: string;
  attempt: number;
  waitMs: number;
  failure: TransientFailureError;
}

export interface RetryPolicy {
  intervalMs: number;
  maxDurationMs: number;
  onRetry?: (event: RetryEvent) => void;
}

export function resolveRetryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
  const intervalMs = options.intervalMs ?? referenceRetryPolicy.intervalMs;
  const maxDurationMs = options.maxDurationMs ?? referenceRetryPolicy.maxDurationMs;
  if (!Number.isFinite(intervalMs) || intervalMs < 0 || !Number.isFinite(maxDurationMs) || maxDurationMs < 0) {
    throw new FileExchangeError('Retry intervalMs and maxDurationMs must be non-negative numbers.');
  }
  if (intervalMs < referenceRetryPolicy.intervalMs && !options.allowShortIntervals) {
    throw new FileExchangeError(
      `Retry interval ${intervalMs} ms is shorter than the service's minimum of 5 minutes; set allowShortIntervals only for tests and mocks.`,
    );
  }
  return { intervalMs, maxDurationMs, ...(options.onRetry ? { onRetry: options.onRetry } : {}) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds or fails with something other than TransientFailureError; transient failures are
 * retried after the policy's interval until the window closes, then reported as RetriesExhaustedError.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  context: { operation: FileExchangeOperation; fileName?: string },
  attempt: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientFailureError)) throw error;
      const elapsed = Date.now() - started;
      if (elapsed + policy.intervalMs > policy.maxDurationMs) {
        const minutes = Math.round(elapsed / 6_000) / 10;
        throw new RetriesExhaustedError(
          `${context.operation}${context.fileName ? ` ${context.fileName}` : ''} still failing after ${tries} tries over ${minutes} min; ` +
            `giving up (investigate by hand). Last failure: ${error.message}`,
          { ...context, attempts: tries, lastFailure: error },
        );
      }
      policy.onRetry?.({ ...context, attempt: tries, waitMs: policy.intervalMs, failure: error });
      await sleep(policy.intervalMs);
    }
  }
}
