import { configurationError } from '../errors/payments-error.js';
import type { DeadlineQueue, Expiring } from './deadlines.js';

const defaultTimeoutMs = 60_000;
/** Timers hold at most this delay; a longer one would fire at once (Node warns and uses 1 ms). */
export const longestTimerMs = 2 ** 31 - 1;

/** The deadline of one call in milliseconds: `Infinity` when the caller turned it off with 0 or `Infinity`. */
export function resolveTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return defaultTimeoutMs;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw configurationError('timeoutMs', 'The timeoutMs option must be a number of milliseconds, 0 or Infinity for no timeout.');
  }
  return timeoutMs === 0 || timeoutMs > longestTimerMs ? Infinity : timeoutMs;
}

/**
 * What may end one call: its deadline and the caller's signal. Its `signal` goes to fetch on every attempt, so that
 * either one stops the request in flight and the reading of the body; it also ends the wait before a retry.
 *
 * The object is also the listener of the caller's signal and the entry in the client's deadline queue (one timer per
 * client, not one per call), so that a call allocates one object and one AbortController for all of it.
 */
export class CallStop implements Expiring {
  readonly deadline: number;
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private wake: (() => void) | undefined;

  constructor(
    private readonly deadlines: DeadlineQueue | undefined,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    this.signal = this.controller.signal;
    this.deadline = deadlines ? deadlines.deadlineFromNow() : Infinity;
    if (callerSignal?.aborted) {
      this.end(callerSignal.reason);
      return;
    }
    callerSignal?.addEventListener('abort', this, { once: true });
    deadlines?.add(this);
  }

  /** The call's timeout in milliseconds, `Infinity` when it has none. */
  get timeoutMs(): number {
    return this.deadlines?.timeoutMs ?? Infinity;
  }

  /** Milliseconds left before the deadline (`Infinity` without one). */
  remainingMs(): number {
    return this.deadline - performance.now();
  }

  /** The deadline passed (called by the deadline queue). */
  expire(): void {
    this.timedOut = true;
    this.end(new DOMException(`timed out after ${this.timeoutMs} ms`, 'TimeoutError'));
  }

  /** The caller's signal fired (this object is its listener). */
  handleEvent(): void {
    this.end(this.callerSignal!.reason);
  }

  private end(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    this.wake?.();
  }

  /** Whether the deadline or the caller stopped the call. */
  stoppedBy(): 'timeout' | 'aborted' | undefined {
    return this.timedOut ? 'timeout' : this.signal.aborted ? 'aborted' : undefined;
  }

  /** Waits before a retry; rejects if the call is stopped first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) return reject(this.signal.reason);
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        reject(this.signal.reason);
      };
    });
  }

  /** Leaves the deadline queue and lets go of the caller's signal; call once the body has been read or the call failed. */
  release(): void {
    this.deadlines?.delete(this);
    this.callerSignal?.removeEventListener('abort', this);
  }
}
