import { emptyState, type SandboxState } from './state.js';

/**
 * Where the sandbox keeps its state. The state itself is in memory (plain maps: reads never wait on a disk); a
 * durable store writes each change to a database and `commit()` resolves only once every change made so far is
 * committed there, so that an answer sent after it reports nothing that a crash could take back.
 */
export interface StateStore {
  readonly state: SandboxState;
  /** Where the state is kept (the database file), or undefined in memory. */
  readonly location: string | undefined;
  /** Rows written since the store was opened (records, idempotency records, counters). */
  readonly rowsWritten: number;
  /**
   * Runs one request. On a store shared by several processes (PostgreSQL), a read first catches up on what the
   * others wrote, and a write holds the store's write lock from before its handler reads the state until its change
   * is committed; elsewhere `work` just runs.
   */
  run<T>(write: boolean, work: () => Promise<T>): Promise<T>;
  /** Runs `work`, counting every record it looks up as changed (handlers change records in place). */
  track<T>(work: () => T): T;
  /** Resolves once every change made so far is durable; rejects when the write failed. */
  commit(): Promise<void>;
  /** Forgets every record and the clock offset; the number sequence goes on, so no identifier is handed out twice. */
  reset(): void;
  close(): Promise<void>;
}

export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
}

/** Without `--state`: nothing to write. */
export function memoryStore(): StateStore {
  const state = emptyState();
  return {
    state,
    location: undefined,
    rowsWritten: 0,
    run: (_write, work) => work(),
    track: (work) => work(),
    commit: () => Promise.resolve(),
    reset() {
      for (const value of Object.values(state)) if (value instanceof Map) value.clear();
      state.clockOffsetMs = 0;
    },
    close: () => Promise.resolve(),
  };
}
