import { resolveRetryPolicy as resolveCore, withRetries as withCoreRetries, type RetryEvent as CoreRetryEvent, type RetryOptions, type RetryPolicy as CoreRetryPolicy } from './core/retry.js';
import { ClientOptionsError, RetriesExhaustedError, TransientFailureError, type FileExchangeOperation } from './errors.js';

export { referenceRetryPolicy } from './core/rules.js';

/** The retry options of both file exchange clients (`@paykit/file-exchange/core`), for the REST operations. */
export type RetryPolicyOptions = RetryOptions<FileExchangeOperation, TransientFailureError>;
export type RetryEvent = CoreRetryEvent<FileExchangeOperation, TransientFailureError>;
export type RetryPolicy = CoreRetryPolicy<FileExchangeOperation, TransientFailureError>;

export function resolveRetryPolicy(options?: RetryPolicyOptions | false): RetryPolicy {
  return resolveCore(options, (message) => new ClientOptionsError(message));
}

/**
 * Runs `attempt` until it succeeds or fails with something other than TransientFailureError; transient failures are
 * retried after the policy's interval until the window closes, then reported as RetriesExhaustedError.
 */
export function withRetries<T>(
  policy: RetryPolicy,
  context: { operation: FileExchangeOperation; fileName?: string },
  attempt: () => Promise<T>,
): Promise<T> {
  return withCoreRetries(policy, context, attempt, {
    isTransient: (error): error is TransientFailureError => error instanceof TransientFailureError,
    exhausted: ({ attempts, elapsedMs, last }) => {
      const minutes = Math.round(elapsedMs / 6_000) / 10;
      return new RetriesExhaustedError(
        `${context.operation}${context.fileName ? ` ${context.fileName}` : ''} still failing after ${attempts} tries over ${minutes} min; ` +
          `giving up (investigate by hand). Last failure: ${last.message}`,
        { ...context, attempts, lastFailure: last },
      );
    },
  });
}
