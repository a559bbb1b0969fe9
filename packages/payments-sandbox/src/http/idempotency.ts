import { rules } from '../generated/rules.js';
import type { SandboxClock } from '../state/clock.js';
import type { SandboxState, StoredResponse } from '../state/state.js';

export type IdempotencyOutcome = { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'busy' };

/**
 * The Limits section's idempotency rules: a resend with the same key gets the original answer back, whatever the
 * endpoint (only the key is compared); a resend while the original is still being processed gets 429; the service
 * remembers a key for the lifetime of the contract's rules (22 hours), on the sandbox clock.
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
