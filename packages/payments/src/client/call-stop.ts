import { follow, unref } from '#platform';

/** Timers hold at most this delay; a longer one would fire at once (Node warns and uses 1 ms). */
export const longestTimerMs = 2 ** 31 - 1;

/**
 * What may end one call: its deadline and the caller's signal. Its `signal` goes to fetch on every attempt, so that
 * either one stops the request in flight and the reading of the body; it also ends the wait before a retry.
 *
 * Each call arms its own deadline timer and clears it when it ends. A timer shared by a client's calls breaks in
 * runtimes that tie timers to the request that armed them: in Cloudflare's workerd, a client kept at module scope
 * would rely on a timer from a request already over, which never fires, and a later call would wait forever. Node
 * loses nothing by it: its timers of one duration already share one list behind one native timer.
 */
export class CallStop {
  // Declared, not defined: the constructor assigns them (field definitions would only add bytes to bundles).
  declare readonly timeoutMs: number;
  /** Lets go of the caller's signal. */
  declare private readonly unfollow: (() => void) | undefined;
  declare readonly deadline: number;
  declare readonly signal: AbortSignal;
  declare timedOut: boolean;
  declare private readonly controller: AbortController;
  declare private readonly timer: ReturnType<typeof setTimeout> | undefined;
  declare private wake: (() => void) | undefined;

  /** `timeoutMs`: `Infinity` for no deadline (see `resolveTimeout`). */
  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.timeoutMs = timeoutMs;
    this.timedOut = false;
    this.signal = (this.controller = new AbortController()).signal;
    this.deadline = timeoutMs === Infinity ? Infinity : performance.now() + timeoutMs;
    if (callerSignal?.aborted) {
      this.end(callerSignal.reason);
      return;
    }
    if (callerSignal) this.unfollow = follow(callerSignal, this);
    // Conditions, not `if`s, around the platform's parts: a browser's build then keeps no trace of them.
    if (timeoutMs !== Infinity) this.timer = unref ? unref(setTimeout(expire, timeoutMs, this)) : setTimeout(expire, timeoutMs, this);
  }

  /** Milliseconds left before the deadline (`Infinity` without one). */
  remainingMs(): number {
    return this.deadline - performance.now();
  }

  /** Ends the call: the deadline passed or the caller's signal fired. */
  end(reason: unknown): void {
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

  /** Clears the deadline and lets go of the caller's signal; call once the body has been read or the call failed. */
  release(): void {
    clearTimeout(this.timer);
    this.unfollow?.();
  }
}

/** The timer callback of every call's deadline: one function for all, the call passed as the timer's argument. */
function expire(stop: CallStop): void {
  stop.timedOut = true;
  stop.end(new DOMException(`timed out after ${stop.timeoutMs} ms`, 'TimeoutError'));
}
