import { inputError } from '../errors/payments-error.js';
import type { DeadlineQueue, Expiring } from './deadlines.js';
import type { Dispatcher, HandlerWrapper, StoppableRequest } from './stoppable-dispatch.js';

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

/**
 * How a call's requests can be stopped:
 * - `dispatcher`: through the request's undici dispatcher (Node's fetch), no AbortSignal at all: the cheapest;
 * - `signal`: an AbortSignal handed to fetch (a custom fetch, a browser, a fetch that ignores dispatchers);
 * - `both`: while it is not yet known whether the fetch in use honours a dispatcher.
 */
export type StopMode = 'dispatcher' | 'signal' | 'both';

/**
 * What may end one call: its deadline and the caller's signal. It stops the request in flight, the wait before a
 * retry, and the reading of the body, whichever is under way.
 *
 * The object is also the undici dispatcher of the call's requests (see `stoppable-dispatch.ts`), the listener of the
 * caller's signal and the entry in the client's deadline queue, so that a call allocates one object for all of it.
 */
export class CallStop implements Expiring, Dispatcher {
  readonly deadline: number;
  /** The signal for fetch in the `signal` and `both` modes. */
  readonly signal: AbortSignal | undefined;
  /** Whether a request of this call went through `dispatch`: proof that the fetch in use honours dispatchers. */
  dispatched = false;
  timedOut = false;
  private reason: Error | undefined;
  private readonly controller: AbortController | undefined;
  private request: StoppableRequest | undefined;
  private wake: ((reason: Error) => void) | undefined;

  constructor(
    private readonly deadlines: DeadlineQueue | undefined,
    private readonly callerSignal: AbortSignal | undefined,
    mode: StopMode,
    /** Where `dispatch` passes requests on: the caller's dispatcher, else undici's global one. */
    private readonly target: Dispatcher | undefined,
    /** Wraps the handlers of the requests sent through `dispatch` (the `dispatcher` and `both` modes). */
    private readonly wrap: HandlerWrapper | undefined,
  ) {
    if (mode !== 'dispatcher') {
      this.controller = new AbortController();
      this.signal = this.controller.signal;
    }
    this.deadline = deadlines ? deadlines.deadlineFromNow() : Infinity;
    if (callerSignal?.aborted) this.end(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this, { once: true });
    deadlines?.add(this);
  }

  /** The call's timeout in milliseconds, `Infinity` when it has none. */
  get timeoutMs(): number {
    return this.deadlines?.timeoutMs ?? Infinity;
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
    if (this.reason) return;
    this.reason = reason instanceof Error ? reason : new DOMException('The call was aborted.', 'AbortError');
    this.controller?.abort(reason);
    this.request?.stop(this.reason);
    this.wake?.(this.reason);
  }

  /** Whether the deadline or the caller stopped the call (reading the body fails then). */
  stoppedBy(): 'timeout' | 'aborted' | undefined {
    return this.timedOut ? 'timeout' : this.reason ? 'aborted' : undefined;
  }

  /**
   * undici's fetch asks its dispatcher whether it is a MockAgent, and then hands it the request body as given rather
   * than as a stream, for the mock's body matchers: the answer is the real dispatcher's.
   */
  get isMockActive(): boolean {
    return (this.target as { isMockActive?: unknown } | undefined)?.isMockActive === true;
  }

  /** undici's dispatch, for fetch's `dispatcher` option: passes the request on with a handler that can stop it. */
  dispatch(options: unknown, handler: object): boolean {
    this.dispatched = true;
    const request = this.wrap!(handler);
    this.request = request;
    if (this.reason) {
      request.stop(this.reason);
      return true;
    }
    return this.target!.dispatch(options, request);
  }

  /** Waits before a retry; rejects if the call is stopped first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.reason) return reject(this.reason);
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = (reason) => {
        clearTimeout(timer);
        this.wake = undefined;
        reject(reason);
      };
    });
  }

  /** Leaves the deadline queue and lets go of the caller's signal; call once the body has been read or the call failed. */
  release(): void {
    this.deadlines?.delete(this);
    this.callerSignal?.removeEventListener('abort', this);
  }
}
