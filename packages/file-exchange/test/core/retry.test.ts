import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AbortedError,
  ClientOptionsError,
  RetriesExhaustedError,
  TransientFailureError,
  resolveRetryPolicy,
  withRetries,
  type RetryEvent,
  type RetryOptions,
} from '../../src/core/index.js';

const context = { operation: 'uploadFile', fileName: 'A.csv' } as const;
const Transient = TransientFailureError;
const minute = 60_000;

/** An attempt that fails with Transient until `succeedOn` (never when undefined), noting the clock at each try. */
function attempts(succeedOn?: number) {
  const startedAt: number[] = [];
  const run = async () => {
    startedAt.push(Date.now());
    if (startedAt.length === succeedOn) return 'done';
    throw new Transient(`try ${startedAt.length} failed`, context);
  };
  return { startedAt, run };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the default retry policy is the reference rule', () => {
  // The reference: after a network error or a 500, retry waiting at least 5 minutes between tries, for no more than
  // 4 hours in all, then investigate by hand.
  it('waits 5 minutes between tries, never less', async () => {
    const tries = attempts(3);
    const result = withRetries(resolveRetryPolicy(undefined), context, tries.run);
    await vi.advanceTimersByTimeAsync(5 * minute - 1);
    expect(tries.startedAt).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries.startedAt).toEqual([0, 5 * minute]);
    await vi.advanceTimersByTimeAsync(5 * minute);
    await expect(result).resolves.toBe('done');
    expect(tries.startedAt).toEqual([0, 5 * minute, 10 * minute]);
  });

  it('gives up when another wait would pass 4 hours after the first try', async () => {
    const tries = attempts();
    const outcome = withRetries(resolveRetryPolicy(undefined), context, tries.run).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(4 * 60 * minute);
    const error = await outcome;
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    // Tries at 0, 5, ..., 240 minutes: 49 of them, the last one exactly at the end of the window.
    expect(tries.startedAt).toHaveLength(49);
    expect(tries.startedAt.at(-1)).toBe(4 * 60 * minute);
    expect((error as RetriesExhaustedError).attempts).toBe(49);
    expect(((error as RetriesExhaustedError).cause as Error).message).toBe('try 49 failed');
  });
});

describe('the retry window is measured on the monotonic clock', () => {
  // A wall clock stepped back a day once meant 28 hours of retries, and one stepped forward would end the window at
  // once: the 4 hours are the machine's elapsed time, whatever Date says.
  it.each([
    { step: 'back a day', by: -24 * 60 * minute },
    { step: 'forward a day', by: 24 * 60 * minute },
  ])('a wall clock stepped $step during the waits neither stretches nor cuts the window', async ({ by }) => {
    const tries = attempts();
    let stepped = false;
    const onRetry = () => {
      if (!stepped) vi.setSystemTime(Date.now() + by);
      stepped = true;
    };
    const policy = resolveRetryPolicy({ intervalMs: minute, maxDurationMs: 10 * minute, allowShortIntervals: true, onRetry });
    let outcome: unknown;
    void withRetries(policy, context, tries.run).catch((error: unknown) => (outcome = error));
    await vi.advanceTimersByTimeAsync(10 * minute);
    expect(stepped).toBe(true);
    // Tries at 0, 1, ..., 10 minutes of elapsed time, then the window is over.
    expect(tries.startedAt).toHaveLength(11);
    expect(outcome).toBeInstanceOf(RetriesExhaustedError);
  });
});

describe('resolveRetryPolicy', () => {
  it.each<{ options: RetryOptions; error: RegExp }>([
    { options: { intervalMs: 1000 }, error: /shorter than the service's minimum of 5 minutes/ },
    { options: { intervalMs: -1, allowShortIntervals: true }, error: /retry\.intervalMs must be a non-negative number/ },
    { options: { maxDurationMs: Number.NaN }, error: /retry\.maxDurationMs must be a non-negative number/ },
    { options: { intervalMs: '10' as unknown as number, allowShortIntervals: true }, error: /retry\.intervalMs/ },
    { options: { soapClientFaults: 'sometimes' as 'final' }, error: /retry\.soapClientFaults must be 'final' or 'retry'/ },
  ])('refuses $options', ({ options, error }) => {
    expect(() => resolveRetryPolicy(options)).toThrow(ClientOptionsError);
    expect(() => resolveRetryPolicy(options)).toThrow(error);
  });

  it('accepts short waits only when asked explicitly', () => {
    expect(resolveRetryPolicy({ intervalMs: 10, allowShortIntervals: true })).toMatchObject({ intervalMs: 10 });
  });
});

describe('withRetries', () => {
  it('tells onRetry which try failed, why, and when the next one starts and the window ends', async () => {
    const events: RetryEvent[] = [];
    const policy = resolveRetryPolicy({ intervalMs: 50, maxDurationMs: 1000, allowShortIntervals: true, onRetry: (event) => events.push(event) });
    const tries = attempts(3);
    const result = withRetries(policy, context, tries.run);
    await vi.advanceTimersByTimeAsync(100);
    await expect(result).resolves.toBe('done');
    expect(events.map(({ attempt, waitMs, nextAttemptAt, giveUpAt, failure, operation, fileName }) => ({
      attempt, waitMs, next: nextAttemptAt.getTime(), end: giveUpAt.getTime(), failure: failure.message, operation, fileName,
    }))).toEqual([
      { attempt: 1, waitMs: 50, next: 50, end: 1000, failure: 'try 1 failed', operation: 'uploadFile', fileName: 'A.csv' },
      { attempt: 2, waitMs: 50, next: 100, end: 1000, failure: 'try 2 failed', operation: 'uploadFile', fileName: 'A.csv' },
    ]);
  });

  it.each([
    { title: 'a failure the rule does not cover', error: new Error('403') },
    { title: 'a typed error that is not retryable', error: new ClientOptionsError('wrong') },
    { title: 'a thrown non-error', error: 'bug' },
  ])('does not retry $title', async ({ error }) => {
    let tries = 0;
    const policy = resolveRetryPolicy({ intervalMs: 1, maxDurationMs: 1000, allowShortIntervals: true });
    await expect(withRetries(policy, context, async () => {
      tries += 1;
      throw error;
    })).rejects.toBe(error);
    expect(tries).toBe(1);
  });

  it.each([
    { title: 'an Error', thrown: new TypeError('a bug in the caller'), said: 'a bug in the caller' },
    { title: 'a non-error', thrown: 'bug', said: 'bug' },
  ])('ends the call with AbortedError when onRetry throws $title: no wait, no further try', async ({ thrown, said }) => {
    const tries = attempts();
    const policy = resolveRetryPolicy({ intervalMs: 50, maxDurationMs: 1000, allowShortIntervals: true, onRetry: () => { throw thrown; } });
    const error = (await withRetries(policy, context, tries.run).catch((failure: unknown) => failure)) as AbortedError;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe(`uploadFile A.csv aborted: onRetry threw: ${said}.`);
    expect((error.cause as Error).cause).toBe(thrown);
    expect(tries.startedAt).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tries once with the policy false, and gives the failure as it is', async () => {
    const tries = attempts();
    const error = await withRetries(resolveRetryPolicy(false), context, tries.run).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Transient);
    expect(tries.startedAt).toHaveLength(1);
  });

  it('stops waiting when the signal is aborted, with its reason', async () => {
    const controller = new AbortController();
    const tries = attempts();
    const outcome = withRetries(resolveRetryPolicy(undefined), context, tries.run, controller.signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(minute);
    const reason = new Error('stopped by the caller');
    controller.abort(reason);
    const error = await outcome;
    // Typed, with the operation, the reason as its cause: never the raw reason.
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ operation: 'uploadFile', fileName: 'A.csv', retryable: false, cause: reason });
    expect(tries.startedAt).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
