import type { WebhookEvent } from './events.js';

/**
 * Where `dedupeEvents` remembers the notifications handled. `claim` says whether `id` is new (and marks it taken, at
 * once: two deliveries at the same time must not both be new); `release` forgets it again when its handling failed.
 * Give one backed by your database (an insert that a unique key refuses) to dedupe across processes and restarts.
 */
export interface EventLedger {
  claim(id: string): boolean | Promise<boolean>;
  release(id: string): void | Promise<void>;
}

/** The ids of the last `limit` notifications, in this process's memory: lost when it stops. */
export function memoryLedger(limit = 10_000): EventLedger {
  const ids = new Set<string>();
  return {
    claim(id) {
      if (ids.has(id)) return false;
      ids.add(id);
      // A Set iterates in insertion order: the oldest id goes first.
      if (ids.size > limit) ids.delete(ids.values().next().value!);
      return true;
    },
    release(id) {
      ids.delete(id);
    },
  };
}

/**
 * An `onEvent` that calls `onEvent` once per notification: a notification delivered again (the same `id`; the service
 * may deliver a notification more than once, see the webhook-redelivery assumption of the contract) is skipped. If
 * `onEvent` fails, its id is released, so that a delivery of it again is handled. In this process's memory by
 * default; pass a `ledger` backed by your database to dedupe across processes.
 */
export function dedupeEvents(
  onEvent: (event: WebhookEvent) => void | Promise<void>,
  ledger: EventLedger = memoryLedger(),
): (event: WebhookEvent) => Promise<void> {
  return async (event) => {
    const id = (event as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '') return onEvent(event);
    if (!(await ledger.claim(id))) return;
    try {
      await onEvent(event);
    } catch (error) {
      await ledger.release(id);
      throw error;
    }
  };
}
