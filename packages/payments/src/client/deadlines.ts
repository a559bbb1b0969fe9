/** Something with a deadline that the queue ends when the deadline passes. */
export interface Expiring {
  /** On the `performance.now()` clock. */
  readonly deadline: number;
  expire(): void;
}

/**
 * The deadlines of one client's calls, behind a single timer.
 *
 * A timer per call costs a Node Timeout object and its async bookkeeping on every call, a measurable share of a
 * loopback request. A client gives every call the same timeout, so deadlines arrive in the order the calls started:
 * the queue keeps that order, and one timer aimed at the oldest deadline is enough. Calls that end early only leave
 * the set; the timer, when it fires, expires what is due and aims at the next deadline.
 *
 * The timer is unref'd: an in-flight request keeps the process alive by its socket, and an idle client must not.
 */
export class DeadlineQueue {
  private readonly pending = new Set<Expiring>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly timeoutMs: number) {}

  /** The deadline of a call starting now. */
  deadlineFromNow(): number {
    return performance.now() + this.timeoutMs;
  }

  add(call: Expiring): void {
    this.pending.add(call);
    if (this.timer === undefined) this.aim(call.deadline);
  }

  delete(call: Expiring): void {
    this.pending.delete(call);
  }

  private aim(deadline: number): void {
    const timer = setTimeout(this.fire, Math.max(0, deadline - performance.now()));
    (timer as { unref?: () => void }).unref?.();
    this.timer = timer;
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    for (const call of this.pending) {
      // Timers may fire a fraction of a millisecond before the performance clock reaches the deadline.
      if (call.deadline > now + 1) return this.aim(call.deadline);
      this.pending.delete(call);
      call.expire();
    }
  };
}
