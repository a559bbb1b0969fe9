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

/**
 * What ends the calls of one client: the caller's per-call signal, or `close()`. `forCall` gives the signal a
 * request is made with; `close` aborts every call in flight, and every wait before a retry, with the reason
 * "the client was closed".
 */
export class CallSignal {
  private readonly closing = new AbortController();

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  forCall(signal: AbortSignal | undefined): AbortSignal {
    return signal === undefined ? this.closing.signal : AbortSignal.any([this.closing.signal, signal]);
  }

  close(): void {
    if (!this.closing.signal.aborted) this.closing.abort(new Error('the client was closed'));
  }
}
