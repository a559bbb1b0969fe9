import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessRefusedError, FileExchangeError, RetriesExhaustedError, TransientFailureError } from '../src/index.js';
import { resolveRetryPolicy, withRetries } from '../src/retry-policy.js';

// The REST client's use of the shared retry loop (tested itself in core/retry.test.ts): which errors are retried,
// and what the final error says.
const context = { operation: 'deleteFile' as const, fileName: 'A.csv' };
const transient = () => new TransientFailureError('deleteFile A.csv: the service answered 500 (internal error).', { ...context, status: 500 });

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('withRetries (REST)', () => {
  it('gives up with RetriesExhaustedError carrying the operation, the name, the status and the last failure', async () => {
    const policy = resolveRetryPolicy({ intervalMs: 20, maxDurationMs: 70, allowShortIntervals: true });
    let tries = 0;
    const last = transient();
    const outcome = withRetries(policy, context, async () => {
      tries += 1;
      throw tries === 4 ? last : transient();
    }).catch((thrown: unknown) => thrown);
    await vi.advanceTimersByTimeAsync(70);
    const error = await outcome;
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    // 70 ms hold the tries at 0, 20, 40 and 60 ms; a fifth would start after the window.
    expect(error).toMatchObject({ attempts: 4, operation: 'deleteFile', fileName: 'A.csv', status: 500, cause: last });
    expect((error as Error).message).toMatch(/^deleteFile A\.csv still failing after 4 tries over 0 min; giving up \(investigate by hand\)\. Last failure: .*500/);
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

  it('refuses wrong options with FileExchangeError', () => {
    expect(() => resolveRetryPolicy({ intervalMs: 1000 })).toThrow(FileExchangeError);
  });
});
