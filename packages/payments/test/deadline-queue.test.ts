import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('the deadline queue of a client', () => {
  // Fake timers and a fake performance clock: deadlines are checked to the millisecond, whatever the machine's load.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires each call at its own deadline, not before, in the order they started', () => {
    const queue = new DeadlineQueue(60);
    const expired: string[] = [];
    const first = call(queue, expired, 'first');
    vi.advanceTimersByTime(25);
    const second = call(queue, expired, 'second');
    vi.advanceTimersByTime(34);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['first']);
    vi.advanceTimersByTime(24);
    expect(expired).toEqual(['first']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['first', 'second']);
    expect(first.expiredAt! - first.deadline).toBeGreaterThanOrEqual(0);
    expect(second.expiredAt! - second.deadline).toBeGreaterThanOrEqual(0);
  });

  it('never expires a call that left before its deadline, and still expires the ones after it', () => {
    const queue = new DeadlineQueue(50);
    const expired: string[] = [];
    const done = call(queue, expired, 'done early');
    vi.advanceTimersByTime(20);
    call(queue, expired, 'still waiting');
    queue.delete(done);
    vi.advanceTimersByTime(49);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['still waiting']);
  });

  it('serves calls that start after it went idle', () => {
    const queue = new DeadlineQueue(10);
    const expired: string[] = [];
    queue.delete(call(queue, expired, 'done'));
    vi.advanceTimersByTime(100);
    call(queue, expired, 'later');
    vi.advanceTimersByTime(10);
    expect(expired).toEqual(['later']);
  });
});

describe('the timer of the deadline queue', () => {
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
