// What a call does with its signal: the plumbing beside the error classes (kept out of errors.ts, which holds only
// what `@paykit/file-exchange` exports, so that the SOAP package's bundle can take the classes from that import).
import { AbortedError, type FileExchangeOperation } from './errors.js';

/**
 * The reason a call ends with when a callback the caller gave (`onProgress`, `onRetry`) threw: the AbortedError it
 * becomes says which callback and what it threw, and keeps the thrown value as this reason's `cause`.
 */
export function callbackThrew(callback: 'onProgress' | 'onRetry', thrown: unknown): Error {
  return new Error(`${callback} threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
}

/** The AbortedError for `signal` when it fired; the same error again when `error` already is one. */
export function abortedBy(signal: AbortSignal, context: { operation: FileExchangeOperation; fileName?: string | undefined }): AbortedError {
  return signal.reason instanceof AbortedError ? signal.reason : new AbortedError({ ...context, reason: signal.reason });
}

/** Throws an AbortedError when `signal` has fired: the check before each step of a call. */
export function throwIfAborted(signal: AbortSignal | undefined, context: { operation: FileExchangeOperation; fileName?: string | undefined }): void {
  if (signal?.aborted) throw abortedBy(signal, context);
}
