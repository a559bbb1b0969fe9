import { describe, expect, it, vi } from 'vitest';
import { AbortedError, CallSignal, ClientOptionsError, defaultStallTimeoutMs, resolveStallTimeout, StallGuard, TransientFailureError, withRetries } from '../../src/core/index.js';

describe('resolveStallTimeout', () => {
  it.each([
    { value: undefined, expected: defaultStallTimeoutMs },
    { value: 500, expected: 500 },
    { value: 0, expected: undefined },
    { value: Infinity, expected: undefined },
  ])('is on by default: $value → $expected', ({ value, expected }) => {
    expect(resolveStallTimeout(value)).toBe(expected);
  });

  it('defaults to two minutes', () => {
    expect(defaultStallTimeoutMs).toBe(120_000);
  });

  it.each([Number.NaN, -1, '5', null])('refuses %s with ClientOptionsError', (value) => {
    expect(() => resolveStallTimeout(value)).toThrow(ClientOptionsError);
  });
});

describe('StallGuard', () => {
  it('fires once no byte moved for the timeout, with an ETIMEDOUT error, and never keeps the process alive', () => {
    // Fake timers: with real ones, a loaded machine once delayed a 15 ms touch past the 30 ms timeout (CI, 805ad58).
    vi.useFakeTimers();
    const stalls: Error[] = [];
    try {
      const guard = new StallGuard(30, (error) => stalls.push(error));
      for (let i = 0; i < 3; i++) {
        vi.advanceTimersByTime(15);
        guard.touch();
      }
      vi.advanceTimersByTime(29);
      expect(stalls).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(stalls).toHaveLength(1);
      vi.advanceTimersByTime(60);
      expect(stalls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
    expect(stalls[0]).toMatchObject({ code: 'ETIMEDOUT', message: 'stalled: no bytes sent or received for 30 ms' });
    const idle = new StallGuard(60_000, () => undefined);
    expect((idle as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false);
    idle.stop();
  });
});

describe('CallSignal', () => {
  it('close() ends every call waiting to retry with the reason "the client was closed"', async () => {
    const calls = new CallSignal();
    const caller = new AbortController();
    const context = { operation: 'deleteFile', fileName: 'A.csv' } as const;
    let tries = 0;
    const waiting = withRetries(
      { intervalMs: 60_000, maxDurationMs: 600_000, soapClientFaults: 'final' },
      context,
      async () => {
        tries++;
        throw new TransientFailureError('deleteFile A.csv: 500', { ...context, status: 500 });
      },
      calls.forCall(caller.signal),
    );
    // The call is in its wait before a retry once its first try has failed.
    await expect.poll(() => tries, { timeout: 4_000 }).toBe(1);
    calls.close();
    const error = await waiting.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ operation: 'deleteFile', fileName: 'A.csv', message: 'deleteFile A.csv aborted: the client was closed.' });
  });
});
