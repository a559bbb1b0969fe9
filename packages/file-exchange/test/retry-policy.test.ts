import { describe, expect, it } from 'vitest';
import { AccessRefusedError, FileExchangeError, RetriesExhaustedError, TransientFailureError } from '../src/index.js';
import { referenceRetryPolicy, resolveRetryPolicy, withRetries, type RetryEvent } from '../src/retry-policy.js';

const context = { operation: 'deleteFile' as const, fileName: 'A.csv' };
const transient = () => new TransientFailureError('deleteFile A.csv: the service answered 500 (internal error).', { ...context, status: 500 });

describe('resolveRetryPolicy', () => {
  it('defaults to the reference: 5 minutes apart for at most 4 hours', () => {
    expect(resolveRetryPolicy()).toMatchObject({ intervalMs: 300_000, maxDurationMs: 14_400_000 });
    expect(referenceRetryPolicy).toEqual({ intervalMs: 300_000, maxDurationMs: 14_400_000 });
  });

  it.each([
    { options: { intervalMs: 1000 }, error: /shorter than the service's minimum of 5 minutes/ },
    { options: { intervalMs: -1, allowShortIntervals: true }, error: /non-negative/ },
    { options: { maxDurationMs: Number.NaN }, error: /non-negative/ },
  ])('refuses $options', ({ options, error }) => {
    expect(() => resolveRetryPolicy(options)).toThrow(error);
  });

  it('accepts short waits only when asked explicitly', () => {
    expect(resolveRetryPolicy({ intervalMs: 10, allowShortIntervals: true }).intervalMs).toBe(10);
  });
});

describe('withRetries', () => {
  it('retries transient failures until one try succeeds, telling onRetry before each wait', async () => {
    const events: RetryEvent[] = [];
    const policy = resolveRetryPolicy({ intervalMs: 5, maxDurationMs: 10_000, allowShortIntervals: true, onRetry: (event) => events.push(event) });
    let tries = 0;
    const result = await withRetries(policy, context, async () => {
      tries += 1;
      if (tries < 3) throw transient();
      return 'done';
    });
    expect(result).toBe('done');
    expect(tries).toBe(3);
    expect(events.map((event) => [event.attempt, event.waitMs, event.failure.status])).toEqual([
      [1, 5, 500],
      [2, 5, 500],
    ]);
  });

  it('gives up with RetriesExhaustedError once the next wait would pass the window', async () => {
    const policy = resolveRetryPolicy({ intervalMs: 20, maxDurationMs: 70, allowShortIntervals: true });
    let tries = 0;
    const error = await withRetries(policy, context, async () => {
      tries += 1;
      throw transient();
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(error).toMatchObject({ attempts: tries, operation: 'deleteFile', fileName: 'A.csv', status: 500 });
    // 70 ms allows at most 3 waits of 20 ms after the first try; a loaded machine may fit fewer.
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(4);
    expect((error as Error).message).toMatch(/giving up \(investigate by hand\)\. Last failure: .*500/);
  });

  it.each([
    { title: 'a typed service error', error: new AccessRefusedError('refused', { status: 403 }) },
    { title: 'any other error', error: new FileExchangeError('bad configuration') },
    { title: 'a plain error', error: new Error('bug') },
  ])('does not retry $title', async ({ error }) => {
    const policy = resolveRetryPolicy({ intervalMs: 1, maxDurationMs: 1000, allowShortIntervals: true });
    let tries = 0;
    await expect(
      withRetries(policy, context, async () => {
        tries += 1;
        throw error;
      }),
    ).rejects.toBe(error);
    expect(tries).toBe(1);
  });
});
