import { randomUUID } from 'node:crypto';
import type { SandboxState, ScheduledTask, TaskKind } from './state.js';

export type TaskRunner = (task: ScheduledTask) => void;

/**
 * The sandbox clock: the real clock plus an offset that `advance` moves forward, so that a test can make ten
 * minutes (a token's lifetime) or 22 hours (an idempotency key's) pass at once. Work the sandbox does later (an
 * alias registration completing, a pending payment settling, a webhook redelivery) is scheduled on this clock as
 * data in the state; one real timer waits for the earliest task, and `advance` runs every task it makes due.
 */
export class SandboxClock {
  private timer: NodeJS.Timeout | undefined;
  private runners = new Map<TaskKind, TaskRunner>();
  private stopped = false;

  constructor(
    private readonly state: () => SandboxState,
    /** Counts the records a task looks up as changed (tasks change records in place). */
    private readonly store: { track<T>(work: () => T): T } = { track: (work) => work() },
    /** Called after tasks ran, so that what they changed is saved. */
    private readonly changed: () => void = () => {},
    /**
     * Called when the timer finds work due, with what runs it: a store shared by several processes runs it under its
     * write lock, after catching up, so that a task another process already ran is not run again.
     */
    private readonly wake: (runDue: () => void) => void = (runDue) => runDue(),
  ) {}

  now(): number {
    return Date.now() + this.state().clockOffsetMs;
  }

  /** Moves the clock forward by `ms` and runs every task that became due, earliest first. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward, by a finite number of milliseconds');
    this.state().clockOffsetMs += ms;
    this.runDue();
  }

  on(kind: TaskKind, runner: TaskRunner): void {
    this.runners.set(kind, runner);
  }

  schedule(kind: TaskKind, ref: string, delayMs: number): ScheduledTask {
    const task: ScheduledTask = { id: randomUUID(), dueAt: this.now() + Math.max(0, delayMs), kind, ref };
    this.state().tasks.set(task.id, task);
    this.arm();
    return task;
  }

  has(kind: TaskKind, ref: string): boolean {
    for (const task of this.state().tasks.values()) if (task.kind === kind && task.ref === ref) return true;
    return false;
  }

  /** Cancels the tasks of a kind for one record (a deleted subscription's deliveries, say). */
  cancel(kind: TaskKind, ref: string): void {
    for (const task of this.state().tasks.values()) if (task.kind === kind && task.ref === ref) this.state().tasks.delete(task.id);
    this.arm();
  }

  /** Runs what is due now (after a restart, what fell due while the sandbox was down) and waits for the rest. */
  runDue(): void {
    if (this.stopped) return;
    const tasks = this.state().tasks;
    let ran = false;
    for (;;) {
      const now = this.now();
      let next: ScheduledTask | undefined;
      for (const task of tasks.values()) if (task.dueAt <= now && (!next || task.dueAt < next.dueAt)) next = task;
      if (!next) break;
      const task = next;
      tasks.delete(task.id);
      this.store.track(() => this.runners.get(task.kind)?.(task));
      ran = true;
    }
    if (ran) this.changed();
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    let earliest = Infinity;
    for (const task of this.state().tasks.values()) earliest = Math.min(earliest, task.dueAt);
    if (earliest === Infinity) return;
    // Timers cannot wait longer than about 24.8 days; a later task is looked at again then.
    const wait = Math.min(Math.max(0, earliest - this.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => this.wake(() => this.runDue()), wait);
    this.timer.unref();
  }
}
