import { paymentsSensitive, sensitiveKindOf } from '../generated/sensitive.js';
import { keepable, keptOf } from '../rules/sensitive.js';
import type { components } from '../generated/control/openapi.js';

/**
 * The API requests this process answered last, for the dashboard and a transaction's timeline: kept in memory
 * only (not in the state store: they are a view of this process's traffic, not the service's state), the oldest
 * forgotten first. What is kept is masked by the contract's sensitive marks when it is recorded: the body, and the
 * query parameters the contract marks; no header is kept, so no key.
 */

export type RecordedRequest = components['schemas']['RecordedRequest'];

export interface RequestSeen {
  at: number;
  method: string;
  /** Path and query, as requested. */
  url: string;
  operationId: string | undefined;
  status: number;
  replay: boolean;
  idempotencyKey: string | undefined;
  fault: string | undefined;
  /** The parsed body, before masking (masked here, never kept as is). */
  body: unknown;
  /** The answer's body, to find the transaction it names. */
  answer: string | undefined;
  violations: string[];
}

/** The receipt number an answer leads with (a transaction's model starts with it). */
const leadingReceipt = /^\{"receiptNumber":"([^"]{1,40})"/;

function maskedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  let masked = false;
  for (const [name, value] of [...query]) {
    const kind = sensitiveKindOf(paymentsSensitive.parameters.query, name);
    if (!kind) continue;
    masked = true;
    const kept = keptOf(kind, value);
    query.delete(name);
    if (kept !== undefined) query.append(name, String(kept));
  }
  return masked ? `${url.slice(0, at)}?${query}` : url;
}

export class RecentRequests {
  private readonly ring: (RecordedRequest | undefined)[];
  private next = 1;

  constructor(readonly capacity = 2_000) {
    this.ring = new Array<RecordedRequest | undefined>(capacity);
  }

  record(seen: RequestSeen): RecordedRequest {
    const receipt = seen.status < 300 && seen.answer ? leadingReceipt.exec(seen.answer)?.[1] : undefined;
    const entry: RecordedRequest = {
      id: `req_${this.next}`,
      at: new Date(seen.at).toISOString(),
      method: seen.method,
      path: maskedUrl(seen.url),
      operationId: seen.operationId ?? null,
      status: seen.status,
      replay: seen.replay,
      idempotencyKey: seen.idempotencyKey ?? null,
      receiptNumber: receipt ?? null,
      ...(seen.fault ? { fault: seen.fault } : {}),
      body: seen.body === undefined ? null : keepable(seen.body),
      violations: seen.violations,
    };
    this.ring[this.next % this.capacity] = entry;
    this.next += 1;
    return entry;
  }

  /** Newest first, from the one before number `beforeNumber` (a cursor). */
  *newestFirst(beforeNumber = Infinity): Generator<RecordedRequest> {
    const last = Math.min(this.next - 1, beforeNumber - 1);
    for (let n = last; n > 0 && n > this.next - 1 - this.capacity; n--) {
      const entry = this.ring[n % this.capacity];
      if (!entry) return; // forgotten by a reset
      yield entry;
    }
  }

  /** The requests that answered with `receiptNumber`, oldest first. */
  naming(receiptNumber: string): RecordedRequest[] {
    return [...this.newestFirst()].filter((entry) => entry.receiptNumber === receiptNumber).reverse();
  }

  /** Forgets every request; the numbers go on, so that no id is handed out twice. */
  clear(): void {
    this.ring.fill(undefined);
  }
}

/** The number of a request's id (`req_12` -> 12), for cursors. */
export const requestNumber = (id: string) => Number(/^req_(\d+)$/.exec(id)?.[1] ?? NaN);
