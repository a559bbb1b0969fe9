import { vi } from 'vitest';

/**
 * The stall timeout's clock under the test's hand for the length of `body`: setTimeout and clearTimeout are vitest's
 * fake ones (the StallGuard of both clients, the retry waits), everything else is real, the sockets' I/O and
 * setImmediate included. Time then moves only when the test moves it, at the event it means (`vi.advanceTimersByTime`
 * once a body is coming in, say), so a loaded machine cannot make a stall happen or not happen.
 */
export async function withFakeStallClock<T>(body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Waits for `predicate` to hold, a turn of the event loop at a time (no timer: those may be fake). `timeoutMs` of real
 * time only bounds a failure, it never decides a pass.
 */
export async function until(what: string, predicate: () => boolean, timeoutMs = 4_000): Promise<void> {
  const deadline = process.hrtime.bigint() + BigInt(timeoutMs) * 1_000_000n;
  while (!predicate()) {
    if (process.hrtime.bigint() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
