import { resolveRetryPolicy as resolveCore, withRetries, type RetryEvent as CoreRetryEvent, type RetryOptions as CoreRetryOptions, type RetryPolicy as CoreRetryPolicy } from '@paykit/file-exchange/core';
import { FileExchangeSoapError, RetriesExhaustedError, SoapClientOptionsError } from './errors.js';
import type { OperationName } from './generated/contract.js';

/** The retry options of both file exchange clients (`@paykit/file-exchange/core`), for the SOAP operations. */
export type RetryOptions = CoreRetryOptions<OperationName, FileExchangeSoapError>;
export type RetryEvent = CoreRetryEvent<OperationName, FileExchangeSoapError>;
export type RetryPolicy = CoreRetryPolicy<OperationName, FileExchangeSoapError>;

export function resolveRetryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  return resolveCore(options, (message) => new SoapClientOptionsError(message));
}

/**
 * Runs `attempt` until it succeeds, fails in a way that retrying cannot fix (`retryable` false), or the window is
 * over (RetriesExhaustedError). The policy `false` makes one try only.
 */
export function withRetry<T>(operation: OperationName, policy: RetryPolicy, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return withRetries(policy, { operation }, attempt, {
    isTransient: (error): error is FileExchangeSoapError => error instanceof FileExchangeSoapError && error.retryable,
    exhausted: ({ attempts, elapsedMs, last }) => new RetriesExhaustedError(operation, attempts, elapsedMs, last),
    signal,
  });
}
