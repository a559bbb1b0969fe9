import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue, type Expiring } from '../src/client/deadlines.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A call that records when it expired, on the same clock as its deadline. */
function call(queue: DeadlineQueue, expired: string[], name: string): Expiring & { expiredAt?: number } {
  const entry: Expiring & { expiredAt?: number } = {
    deadline: queue.deadlineFromNow(),
    expire() {
      entry.expiredAt = performance.now();
      expired.push(name);
    },
  };
  queue.add(entry);
  return entry;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the deadline queue of a client', () => {
  it('expires each call at its own deadline, not before, in the order they started', async () => {
    const queue = new DeadlineQueue(60);
    const expired: string[] = [];
    const first = call(queue, expired, 'first');
    await wait(25);
    const second = call(queue, expired, 'second');
    await wait(120);
    expect(expired).toEqual(['first', 'second']);
    for (const entry of [first, second]) {
      expect(entry.expiredAt! - entry.deadline).toBeGreaterThanOrEqual(-1);
      expect(entry.expiredAt! - entry.deadline).toBeLessThan(40);
    }
  });

  it('never expires a call that left before its deadline, and still expires the ones after it', async () => {
    const queue = new DeadlineQueue(50);
    const expired: string[] = [];
    const done = call(queue, expired, 'done early');
    await wait(20);
    call(queue, expired, 'still waiting');
    queue.delete(done);
    await wait(100);
    expect(expired).toEqual(['still waiting']);
  });

  it('keeps one timer for any number of calls in flight, and does not hold the process open', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const queue = new DeadlineQueue(1_000);
    const entries = Array.from({ length: 100 }, (_, i) => call(queue, [], String(i)));
    expect(setTimer).toHaveBeenCalledTimes(1);
    const timer = setTimer.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    for (const entry of entries) queue.delete(entry);
    clearTimeout(timer);
  });
});
