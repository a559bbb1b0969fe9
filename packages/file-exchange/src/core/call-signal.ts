import { ClientOptionsError } from './errors.js';

/**
 * OUR default, not the reference's (it says nothing about timeouts): two minutes without a byte in either direction
 * is a stalled connection. The service answers a list at once and sends a file's bytes without pauses; a slower
 * peer can be given more with `stallTimeoutMs`.
 */
export const defaultStallTimeoutMs = 120_000;

/** Timers hold at most this delay; a longer one would fire at once. */
const longestTimerMs = 2 ** 31 - 1;

/**
 * The stall timeout in force: the default when unset, `undefined` (none) for 0 or Infinity. Anything else that is
 * not a non-negative number is a ClientOptionsError, before any request.
 */
export function resolveStallTimeout(value: unknown, option = 'stallTimeoutMs'): number | undefined {
  if (value === undefined) return defaultStallTimeoutMs;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new ClientOptionsError(`${option} must be a non-negative number of milliseconds (0 or Infinity for none), got ${String(value)}.`);
  }
  return value === 0 || value > longestTimerMs ? undefined : value;
}

/** The error a stall aborts a request with; classified as a network failure (`ETIMEDOUT`), so the retry rule applies. */
export function stallError(timeoutMs: number): Error {
  return Object.assign(new Error(`stalled: no bytes sent or received for ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
}

/**
 * Watches one request for a stall: `touch()` at every byte that moves; when none moved for `timeoutMs`, `onStall`
 * is called once. Its timer is unreferenced and stopped with the request, so it never keeps a process alive.
 */
export class StallGuard {
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number | undefined, onStall: (error: Error) => void) {
    if (timeoutMs === undefined) return;
    this.timer = setTimeout(() => onStall(stallError(timeoutMs)), timeoutMs);
    this.timer.unref();
  }

  touch(): void {
    this.timer?.refresh();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** A call's signal, and the function that unlinks it from the signals it follows once the call is over. */
export interface CallAbort {
  signal: AbortSignal;
  /** Stops following the caller's signal and close(): call it when the call (its body included) is over. */
  release(): void;
}

/**
 * Links a signal to others with ordinary listeners (not `AbortSignal.any`): it aborts when the first of them does, with
 * its reason. Why not `AbortSignal.any`: its sources hold their dependants only weakly, and on Node 20 a dependent
 * signal of `AbortSignal.timeout(ms)` that nobody else references stopped following it after a garbage collection, so
 * that the call never aborted. An ordinary 'abort' listener also keeps a timeout signal alive until it fires (Node
 * holds a timeout signal with listeners strongly): the caller's deadline holds for the whole call.
 */
export function followSignals(...sources: AbortSignal[]): CallAbort {
  const controller = new AbortController();
  const fired = sources.find((source) => source.aborted);
  if (fired) {
    controller.abort(fired.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const onAbort = (event: Event) => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const release = () => {
    for (const source of sources) source.removeEventListener('abort', onAbort);
  };
  for (const source of sources) source.addEventListener('abort', onAbort);
  return { signal: controller.signal, release };
}

/**
 * What ends the calls of one client: the caller's per-call signal, or `close()`. `open` gives the signal a call is
 * made with (and its release); `close` aborts every call in flight, and every wait before a retry, with the reason
 * "the client was closed".
 */
export class CallSignal {
  private readonly closing = new AbortController();

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** The signal of a call that follows `signal` (the caller's, held for the call) and close(); release it when done. */
  open(signal: AbortSignal | undefined): CallAbort {
    return signal === undefined ? { signal: this.closing.signal, release: () => undefined } : followSignals(this.closing.signal, signal);
  }

  /**
   * @deprecated Use `open`, whose `release` unlinks the call's signal once the call is over. This one follows the
   * caller's signal until either fires.
   */
  forCall(signal: AbortSignal | undefined): AbortSignal {
    return this.open(signal).signal;
  }

  close(): void {
    if (!this.closing.signal.aborted) this.closing.abort(new Error('the client was closed'));
  }
}
