import { setTimeout as sleep } from 'node:timers/promises';
import { FileExchangeSoapError, RetriesExhaustedError } from './errors.js';

/** The reference's client rule: after a network error or an HTTP 500, wait at least 5 minutes, for at most 4 hours. */
export interface RetryOptions {
  /** Wait between two tries. Default 5 minutes; shorter only when set explicitly (tests). */
  waitMs?: number;
  /** Stop retrying once this long has passed since the first try. Default 4 hours. */
  giveUpAfterMs?: number;
  /** Called before each wait, e.g. to log. */
  onRetry?: (info: { operation: string; attempt: number; waitMs: number; error: FileExchangeSoapError }) => void;
}

export const DEFAULT_RETRY_WAIT_MS = 5 * 60 * 1000;
export const DEFAULT_RETRY_WINDOW_MS = 4 * 60 * 60 * 1000;

/**
 * Runs `attempt` until it succeeds, fails in a way that retrying cannot fix, or the window is over. `retry: false`
 * makes one try only.
 */
export async function withRetry<T>(
  operation: string,
  options: RetryOptions | false,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const waitMs = options === false ? 0 : (options.waitMs ?? DEFAULT_RETRY_WAIT_MS);
  const windowMs = options === false ? 0 : (options.giveUpAfterMs ?? DEFAULT_RETRY_WINDOW_MS);
  const started = Date.now();
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof FileExchangeSoapError) || !error.retryable || options === false) throw error;
      const elapsed = Date.now() - started;
      if (elapsed + waitMs > windowMs) throw new RetriesExhaustedError(operation, attempts, elapsed, error);
      options.onRetry?.({ operation, attempt: attempts, waitMs, error });
      await sleep(waitMs, undefined, signal ? { signal } : undefined);
    }
  }
}
