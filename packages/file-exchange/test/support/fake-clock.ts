import { vi } from 'vitest';

/**
 * The clocks a retry window is measured on (Date and performance.now) under vitest's control, for the length of
 * `body`; timers stay real, so that the sockets' I/O and the short retry waits go on. A test then moves the window's
 * clock itself (`vi.advanceTimersByTime`), at the event it means (an `onRetry`), instead of waiting out a window.
 */
export async function withControlledClock<T>(body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}
