import { rules } from '../generated/rules.js';
import type { Caller } from '../handler-context.js';
import type { SandboxClock } from '../state/clock.js';
import type { SandboxState, StoredResponse } from '../state/state.js';

export type IdempotencyOutcome = { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'busy' };

/**
 * The scope a caller's keys live in (our reading, the contract's assumption `idempotency-key-scope`): one for the
 * facility's secret keys (a renewed key still finds its predecessor's answers), one per set of businesses a restricted
 * secret key may act for, and one for publishable keys. A caller never sees nor holds a key of another scope: a
 * publishable key, which any web page may carry, can neither read a payment's answer nor block a payment's key.
 */
export function idempotencyScope(caller: Caller): string {
  if (caller.keyType !== 'secretKey') return caller.keyType;
  return caller.businesses ? `secretKey[${[...caller.businesses].sort().map(encodeURIComponent).join(',')}]` : 'secretKey';
}

/**
 * The opaque record key of an Idempotency-Key within its scope, as stored in the state's `idempotency` collection:
 * the scope, a space, the key. A scope holds no space, so two different (scope, key) pairs never share a record.
 */
export const scopedIdempotencyKey = (caller: Caller, key: string) => `${idempotencyScope(caller)} ${key}`;

/**
 * The Limits section's idempotency rules: a resend with the same key gets the original answer back, whatever the
 * endpoint (only the key is compared, within the caller's scope: `scopedIdempotencyKey`); a resend while the
 * original is still being processed gets 429; the service remembers a key for the lifetime of the contract's rules
 * (22 hours), on the sandbox clock. Keys here are record keys (`scopedIdempotencyKey`).
 */
export class IdempotencyKeys {
  private readonly processing = new Set<string>();
  private lastSweep = 0;

  constructor(
    private readonly state: () => SandboxState,
    private readonly clock: SandboxClock,
  ) {}

  begin(key: string): IdempotencyOutcome {
    const now = this.clock.now();
    this.sweep(now);
    if (this.processing.has(key)) return { kind: 'busy' };
    const record = this.state().idempotency.get(key);
    if (record && now < record.createdAt + rules.idempotencyKey.lifetimeMs) return { kind: 'replay', response: record.response };
    this.processing.add(key);
    return { kind: 'new' };
  }

  /**
   * Holds the key for a request about to be processed, unless one holds it already in this process (then false:
   * busy). Whether an answer is remembered under it is asked later, in the request's write (`recorded`): on a store
   * shared by several processes, that write is where what the others remembered is seen.
   */
  reserve(key: string): boolean {
    this.sweep(this.clock.now());
    if (this.processing.has(key)) return false;
    this.processing.add(key);
    return true;
  }

  /** The answer remembered under the key and still within its lifetime, if any. */
  recorded(key: string): StoredResponse | undefined {
    const { idempotency } = this.state();
    const record = idempotency.get(key);
    if (!record || this.clock.now() >= record.createdAt + rules.idempotencyKey.lifetimeMs) return undefined;
    // Written again by the write that found it: on a shared store the record may be another process's, committed but
    // not yet durable, and the replay is answered once this write is (a record only looked up is not written again).
    idempotency.set(key, record);
    return record.response;
  }

  /** The original answer to remember under the key, or nothing (the key is then free again). */
  finish(key: string, response: StoredResponse | undefined): void {
    this.processing.delete(key);
    if (response) this.state().idempotency.set(key, { key, createdAt: this.clock.now(), response });
  }

  /** Forgets expired keys, at most once a minute of sandbox time, so that the state does not grow for ever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const lifetime = rules.idempotencyKey.lifetimeMs;
    for (const [key, record] of this.state().idempotency) if (now >= record.createdAt + lifetime) this.state().idempotency.delete(key);
  }

  reset(): void {
    this.processing.clear();
    this.lastSweep = 0;
  }
}
