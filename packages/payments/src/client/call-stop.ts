import { inputError } from '../errors/payments-error.js';

const defaultTimeoutMs = 60_000;
/** Timers hold at most this delay; a longer one would fire at once (Node warns and uses 1 ms). */
const longestTimerMs = 2 ** 31 - 1;

/** The deadline of one call in milliseconds: `Infinity` when the caller turned it off with 0 or `Infinity`. */
export function resolveTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return defaultTimeoutMs;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw inputError('The timeoutMs option must be a number of milliseconds, 0 or Infinity for no timeout.');
  }
  return timeoutMs === 0 || timeoutMs > longestTimerMs ? Infinity : timeoutMs;
}

function expire(stop: CallStop): void {
  stop.timedOut = true;
  stop.controller!.abort(new DOMException(`timed out after ${stop.timeoutMs} ms`, 'TimeoutError'));
}

/**
 * What may end one call: its deadline and the caller's signal, merged into the single `signal` that fetch, the waits
 * between retries and the body reading share.
 *
 * A signal handed to fetch is the largest fixed cost of a call (Node 20 takes microseconds to create an AbortSignal,
 * and undici follows it with a listener, a weak reference and a finalizer), so none is made when nothing can stop
 * the call, and the caller's own signal is passed as it is when there is no deadline. The timer and the listener take
 * this object as argument rather than closures.
 */
export class CallStop {
  readonly signal: AbortSignal | undefined;
  readonly controller: AbortController | undefined;
  readonly timeoutMs: number;
  timedOut = false;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.timeoutMs = timeoutMs;
    this.callerSignal = callerSignal;
    if (timeoutMs === Infinity) {
      this.signal = callerSignal;
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.signal = controller.signal;
    this.timer = setTimeout(expire, timeoutMs, this);
    if (!callerSignal) return;
    if (callerSignal.aborted) controller.abort(callerSignal.reason);
    else callerSignal.addEventListener('abort', this, { once: true });
  }

  /** The caller's signal fired (this object is its listener). */
  handleEvent(): void {
    this.controller!.abort(this.callerSignal!.reason);
  }

  /** Whether the deadline or the caller stopped the call (reading the body fails then). */
  stoppedBy(): 'timeout' | 'aborted' | undefined {
    return this.timedOut ? 'timeout' : this.signal?.aborted ? 'aborted' : undefined;
  }

  /** Ends the deadline and lets go of the caller's signal; call once the body has been read or the call failed. */
  release(): void {
    // Without a deadline nothing was set up: the caller's signal went to fetch as it is.
    if (!this.controller) return;
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this);
  }
}
