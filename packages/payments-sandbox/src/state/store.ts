import { emptyState, type SandboxState } from './state.js';

/**
 * Where the sandbox keeps its state. The state itself is in memory (plain maps: reads never wait on a disk); a
 * durable store writes each change to a database, and a write resolves only once its change is committed there, so
 * that an answer sent after it reports nothing that a crash could take back.
 */
export interface StateStore {
  readonly state: SandboxState;
  /** Where the state is kept (the database file), or undefined in memory. */
  readonly location: string | undefined;
  /** Rows written since the store was opened (records, idempotency records, counters). */
  readonly rowsWritten: number;
  /**
   * Catches up on what other processes wrote (a store shared by several, PostgreSQL); resolves at once elsewhere.
   * `joinRunning`: a catch-up already under way will do (a write, which catches up under the lock again anyway).
   */
  catchUp(options?: { joinRunning?: boolean }): Promise<void>;
  /**
   * A write catches up on what the other processes wrote under its lock, in the round trip that takes the lock
   * (PostgreSQL): `work` sees it all, so a write needs no catch-up read of its own before.
   */
  readonly catchesUpInWrite?: boolean;
  /**
   * Runs `work` as a write: on a shared store under its write lock, after catching up, with the other writes that
   * came meanwhile in one transaction; elsewhere at once. The records `work` looks up count as changed (handlers
   * change records in place). Resolves with what `work` returned once its change is durable; rejects with a
   * `StateStoreError` when it could not be saved, or with the signal's reason when the write was dropped.
   */
  write<T>(work: () => T, options?: WriteOptions): Promise<T>;
  /** Runs `work`, counting every record it looks up as changed (handlers change records in place). */
  track<T>(work: () => T): T;
  /** Resolves once every change made so far is durable; rejects when the write failed. */
  commit(): Promise<void>;
  /** Forgets every record and the clock offset; the number sequence goes on, so no identifier is handed out twice. */
  reset(): void;
  close(): Promise<void>;
}

export interface WriteOptions {
  /** Aborted when the request's client has gone: a write that has not started is dropped, never run. */
  signal?: AbortSignal;
  /** Test seam: awaited once the write holds the store (its lock, caught up), right before `work` runs. */
  whenLocked?: () => Promise<void> | undefined;
}

export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';

  constructor(
    message: string,
    /** The write failed before its work ran (the store out of reach, its lock not taken): nothing was done. */
    readonly nothingDone = false,
  ) {
    super(message);
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', abort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', abort), reject(error)),
    );
  });
}

/** A write of a store one process owns: nothing to lock or catch up on; `work` runs at once, then the commit. */
export async function writeInProcess<T>(store: Pick<StateStore, 'track' | 'commit'>, work: () => T, options: WriteOptions = {}): Promise<T> {
  const held = options.whenLocked?.();
  if (held) await unlessAborted(held, options.signal);
  options.signal?.throwIfAborted();
  const result = store.track(work);
  await store.commit();
  return result;
}

/** Without `--state`: nothing to write. */
export function memoryStore(): StateStore {
  const state = emptyState();
  const store: StateStore = {
    state,
    location: undefined,
    rowsWritten: 0,
    catchUp: () => Promise.resolve(),
    write: (work, options) => writeInProcess(store, work, options),
    track: (work) => work(),
    commit: () => Promise.resolve(),
    reset() {
      for (const value of Object.values(state)) if (value instanceof Map) value.clear();
      state.clockOffsetMs = 0;
    },
    close: () => Promise.resolve(),
  };
  return store;
}
