import { collectionNames, type Collections, type SandboxState } from './state.js';

/**
 * Which records changed since the last write to the store, so that a write carries only those rows and does not grow
 * with the state. A record counts as changed when it is `set` or `delete`d, and, inside `track(work)`, when it is
 * read with `get` and its JSON is no longer what it was at that first read: handlers change records in place after
 * looking them up (a token consumed, a refund counted on its payment), and every such lookup runs inside a tracked
 * stretch of work (a request's handler, a control endpoint, a task of the clock). A record only looked up (the
 * customer a payment is taken for) is not written again: on a shared store every row written is read by every other
 * process. A record changed in place outside such a stretch must be `set` again to be saved.
 */

export type CollectionName = keyof Collections;

/** The rows to write: each changed record, or null when it is gone. */
export interface ChangeBatch {
  /** Everything was removed first (a reset of the sandbox). */
  cleared: boolean;
  /** `json`: the value's JSON when the tracker made it already (a record that was looked up), to be written as is. */
  rows: { collection: CollectionName; key: string; value: unknown; json?: string }[];
  meta: { clockOffsetMs: number; sequence: number } | undefined;
}

/** A batch that writes nothing (its records were only looked up, unchanged). */
export const writesNothing = (batch: ChangeBatch): boolean => !batch.cleared && batch.rows.length === 0 && batch.meta === undefined;

export class ChangeTracker {
  private dirty = new Map<CollectionName, Set<string>>();
  /** Records marked only by a lookup: their JSON at that first lookup, by collection and key. */
  private looked = new Map<CollectionName, Map<string, string>>();
  private cleared = false;
  private depth = 0;
  private saved = { clockOffsetMs: 0, sequence: 0 };

  constructor(private readonly state: () => SandboxState) {}

  get tracking(): boolean {
    return this.depth > 0;
  }

  /** Runs `work`, counting the records it looks up as changed. */
  track<T>(work: () => T): T {
    this.depth += 1;
    try {
      return work();
    } finally {
      this.depth -= 1;
    }
  }

  /** The record was set or removed: it is written. */
  mark(collection: CollectionName, key: string): void {
    this.dirtyKeys(collection).add(key);
    this.looked.get(collection)?.delete(key);
  }

  /** The record was looked up inside tracked work: it is written if its JSON differs, when taken, from what it is now. */
  markLookup(collection: CollectionName, key: string, value: unknown): void {
    const keys = this.dirtyKeys(collection);
    if (keys.has(key)) return; // set, removed or looked up before: what it was then is what counts
    keys.add(key);
    let images = this.looked.get(collection);
    if (!images) this.looked.set(collection, (images = new Map()));
    images.set(key, JSON.stringify(value));
  }

  private dirtyKeys(collection: CollectionName): Set<string> {
    let keys = this.dirty.get(collection);
    if (!keys) this.dirty.set(collection, (keys = new Set()));
    return keys;
  }

  markCleared(): void {
    this.cleared = true;
    this.dirty.clear();
    this.looked.clear();
  }

  /** What the store holds now, for scalars read back at open. */
  savedMeta(meta: { clockOffsetMs: number; sequence: number }): void {
    this.saved = { ...meta };
  }

  pending(): boolean {
    const state = this.state();
    return this.cleared || this.dirty.size > 0 || state.clockOffsetMs !== this.saved.clockOffsetMs || state.sequence !== this.saved.sequence;
  }

  /** Forgets the changes not yet taken (the state is read again from the store). */
  discard(): void {
    this.dirty = new Map();
    this.looked = new Map();
    this.cleared = false;
  }

  /** The changes since the last call, read from the state as it is now; forgets them. */
  take(): ChangeBatch {
    const state = this.state();
    const rows: ChangeBatch['rows'] = [];
    for (const [collection, keys] of this.dirty) {
      const map = state[collection] as Map<string, unknown>;
      const images = this.looked.get(collection);
      for (const key of keys) {
        const value = Map.prototype.get.call(map, key) ?? null;
        const before = images?.get(key);
        if (before === undefined || value === null) {
          rows.push({ collection, key, value });
          continue;
        }
        const json = JSON.stringify(value);
        if (json !== before) rows.push({ collection, key, value, json });
      }
    }
    const meta = state.clockOffsetMs !== this.saved.clockOffsetMs || state.sequence !== this.saved.sequence || this.cleared
      ? { clockOffsetMs: state.clockOffsetMs, sequence: state.sequence }
      : undefined;
    const batch = { cleared: this.cleared, rows, meta };
    this.dirty = new Map();
    this.looked = new Map();
    this.cleared = false;
    if (meta) this.saved = { ...meta };
    return batch;
  }
}

/** A collection of the state that reports its changes to a tracker. */
export class TrackedMap<V> extends Map<string, V> {
  private tracker: ChangeTracker | undefined;
  private name: CollectionName | undefined;

  static create<V>(name: CollectionName, tracker: ChangeTracker): TrackedMap<V> {
    const map = new TrackedMap<V>();
    map.name = name;
    map.tracker = tracker;
    return map;
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined && this.tracker?.tracking) this.tracker.markLookup(this.name!, key, value);
    return value;
  }

  override set(key: string, value: V): this {
    this.tracker?.mark(this.name!, key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had) this.tracker?.mark(this.name!, key);
    return had;
  }

  override clear(): void {
    for (const key of this.keys()) this.tracker?.mark(this.name!, key);
    super.clear();
  }

  /** Puts a record read from the store, without counting it as a change. */
  load(key: string, value: V): void {
    super.set(key, value);
  }

  /** Removes a record without counting it as a change. */
  unload(key: string): void {
    super.delete(key);
  }
}

/** A record read without counting as a change (a write that only reads a setting must not save it again). */
export const peek = <V>(map: Map<string, V>, key: string): V | undefined => Map.prototype.get.call(map, key) as V | undefined;

/** A state whose collections report their changes to `tracker`. */
export function trackedState(tracker: ChangeTracker): SandboxState {
  const collections = Object.fromEntries(collectionNames.map((name) => [name, TrackedMap.create(name, tracker)])) as unknown as Collections;
  return { clockOffsetMs: 0, sequence: 0, ...collections };
}

/**
 * A store's reset: every record is dropped as a change (so the store deletes its rows), the clock goes back; the
 * sequence is kept, so that no identifier is handed out twice.
 */
export function resetTrackedState(state: SandboxState, tracker: ChangeTracker): void {
  for (const value of Object.values(state)) if (value instanceof TrackedMap) for (const key of [...value.keys()]) value.unload(key);
  state.clockOffsetMs = 0;
  tracker.markCleared();
}
