import { setTimeout as sleep } from 'node:timers/promises';
import { unlessAborted } from '../state/store.js';

/**
 * The points of an API request's way through the sandbox at which it may wait, named, so that tests wait for the
 * event they mean ("both requests are being processed") and hold a request there until they release it, instead of
 * a real processing delay. Nothing is held unless a test asks; the sandbox's own code only calls `reach` and `wait`.
 *
 * - `body`: the request's head was accepted, its body is about to be read;
 * - `processing`: the body was read and checked, the simulated processing delay (`processingDelayMs`) follows;
 *   the request counts as in flight and holds its Idempotency-Key and its claim (a customer number) meanwhile;
 * - `queued`: a write is handed to the store, to wait for its turn (on a shared store: the next batch under the lock);
 * - `locked`: a write holds the store (on a shared store: its lock, caught up), its handler runs next.
 *
 * A request whose client has gone stops waiting at once, wherever it waits (its signal).
 */
export type RequestPhase = 'body' | 'processing' | 'queued' | 'locked';

export interface PhaseVisit {
  phase: RequestPhase;
  method: string;
  operationId: string;
}

/** Requests held at one phase by a test. */
export interface Hold {
  /** The requests held so far (in the order they arrived). */
  readonly arrived: readonly PhaseVisit[];
  /** Resolves once `count` requests are held. */
  untilArrived(count: number): Promise<void>;
  /** Lets every held request go on, and the later ones pass. */
  release(): void;
}

/** Waits `ms` milliseconds: the sandbox's one real timer of a request's processing, replaceable in tests. */
export type ProcessingTimer = (ms: number, signal: AbortSignal) => Promise<void>;

const realTimer: ProcessingTimer = (ms, signal) => sleep(ms, undefined, { signal });

export class RequestPhases {
  private readonly holds = new Set<{ phase: RequestPhase; match: (visit: PhaseVisit) => boolean; reach: (visit: PhaseVisit) => Promise<void>; release: () => void }>();
  /** Waits out the simulated processing delay; tests put a clock of their own here. */
  timer: ProcessingTimer = realTimer;

  /** Called by the sandbox at each phase: resolves at once unless a test holds requests there. */
  reach(phase: RequestPhase, visit: Omit<PhaseVisit, 'phase'>, signal: AbortSignal): Promise<void> | undefined {
    if (this.holds.size === 0) return undefined;
    const full = { ...visit, phase };
    const waits = [...this.holds].filter((hold) => hold.phase === phase && hold.match(full)).map((hold) => hold.reach(full));
    return waits.length ? unlessAborted(Promise.all(waits), signal).then(() => undefined) : undefined;
  }

  /** The simulated processing delay. */
  wait(ms: number, signal: AbortSignal): Promise<void> | undefined {
    return ms > 0 ? unlessAborted(this.timer(ms, signal), signal) : undefined;
  }

  /** Holds the requests that reach `phase` (those `match` picks) until `release()`. */
  hold(phase: RequestPhase, match: (visit: PhaseVisit) => boolean = () => true): Hold {
    const arrived: PhaseVisit[] = [];
    const waiting = new Set<{ count: number; resolve: () => void }>();
    let released = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const entry = {
      phase,
      match,
      reach: (visit: PhaseVisit) => {
        if (released) return Promise.resolve();
        arrived.push(visit);
        for (const waiter of waiting) if (arrived.length >= waiter.count) (waiting.delete(waiter), waiter.resolve());
        return gate;
      },
      release: () => {
        released = true;
        this.holds.delete(entry);
        release();
      },
    };
    this.holds.add(entry);
    return {
      arrived,
      untilArrived: (count) =>
        arrived.length >= count ? Promise.resolve() : new Promise<void>((resolve) => void waiting.add({ count, resolve })),
      release: entry.release,
    };
  }

  /** Releases every hold and puts the real timer back (between tests). */
  reset(): void {
    for (const hold of [...this.holds]) hold.release();
    this.timer = realTimer;
  }
}
