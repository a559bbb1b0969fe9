import type { TransactionRecord } from '../state/state.js';

/**
 * The transactions newest first, kept between requests so that a search does not sort every transaction again.
 * The order is the one `newestFirst` gives (creation time, latest first; within one millisecond, the record the map
 * holds later first): it is checked against the map at each use, in one pass that compares records by identity, because the
 * map changes without telling (a reset clears it, the store loads into it, tests and benchmarks fill it). Records
 * only added since the last use are placed by binary search; any other change sorts again.
 */
interface Index {
  /** The records as the map held them, in its order, with their creation times when indexed. */
  held: TransactionRecord[];
  createdAt: number[];
  /** Oldest first, and among records of one millisecond, the first held first: read from the end, newest first. */
  ascending: TransactionRecord[];
}

const indexes = new WeakMap<ReadonlyMap<string, TransactionRecord>, Index>();

/** The position of `t`, held after all of `ascending`: after every older record and the records of its millisecond. */
function place(ascending: TransactionRecord[], t: TransactionRecord): number {
  let low = 0;
  let high = ascending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ascending[middle]!.createdAt <= t.createdAt) low = middle + 1;
    else high = middle;
  }
  return low;
}

function build(transactions: ReadonlyMap<string, TransactionRecord>): Index {
  const held = [...transactions.values()];
  const order = held.map((_, i) => i);
  // Ties: the record held later comes later in this array, so that read from the end it comes first.
  order.sort((a, b) => held[a]!.createdAt - held[b]!.createdAt || a - b);
  return { held, createdAt: held.map((t) => t.createdAt), ascending: order.map((i) => held[i]!) };
}

/** Brings the index up to the map: the records added at its end are placed, any other change rebuilds it. */
function current(transactions: ReadonlyMap<string, TransactionRecord>): Index {
  const index = indexes.get(transactions);
  if (!index || transactions.size < index.held.length) {
    const built = build(transactions);
    indexes.set(transactions, built);
    return built;
  }
  let i = 0;
  const added: TransactionRecord[] = [];
  for (const t of transactions.values()) {
    if (i < index.held.length) {
      if (index.held[i] !== t || index.createdAt[i] !== t.createdAt) {
        const built = build(transactions);
        indexes.set(transactions, built);
        return built;
      }
    } else added.push(t);
    i++;
  }
  for (const t of added) {
    index.ascending.splice(place(index.ascending, t), 0, t);
    index.held.push(t);
    index.createdAt.push(t.createdAt);
  }
  return index;
}

/** The transactions oldest first (read it from the end for newest first), brought up to the map; not to be changed. */
export function transactionsOldestFirst(transactions: ReadonlyMap<string, TransactionRecord>): readonly TransactionRecord[] {
  return current(transactions).ascending;
}

/** The transactions newest first, lazily: a search that has its page stops reading. */
export function* transactionsNewestFirst(transactions: ReadonlyMap<string, TransactionRecord>): Generator<TransactionRecord> {
  const { ascending } = current(transactions);
  for (let i = ascending.length - 1; i >= 0; i--) yield ascending[i]!;
}
