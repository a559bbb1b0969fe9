import type { FaultsRecord, SandboxState } from '../state/state.js';
import { peek } from '../state/tracking.js';

/**
 * Faults injected into API requests, to test what a client does when the network or the service fails: an error
 * status, or a connection dropped without an answer. `before` fails the request before any work is done; `after`
 * does the work (and records the answer under the request's Idempotency-Key) and then fails, like a lost answer.
 *
 * The faults waiting for requests are a record of the state (`control` collection): on a store shared by several
 * sandbox processes, a fault injected through one applies to the next matching request that any of them gets, once,
 * and a reset through any of them clears it. Taking a fault changes that record, so it is a write of its own.
 */

export type FaultTiming = 'before' | 'after';

export type Fault = { status: number; when?: FaultTiming } | { drop: FaultTiming };

export interface FaultRule {
  fault: Fault;
  /** How many matching requests it applies to. */
  count: number;
  /** Only requests to this operation (by operationId); default any. */
  operationId?: string;
}

export interface RandomFaults {
  /** Each request gets at most one of these, each with its probability (their sum at most 1). */
  faults: { fault: Fault; probability: number }[];
  /** Seed of the sandbox's random numbers, to replay a run. */
  seed?: number;
  operationIds?: string[];
}

export class FaultError extends Error {
  override readonly name = 'FaultError';
}

/** A fault as it applies: when, and what. */
export interface ActiveFault {
  when: FaultTiming;
  status?: number;
  drop: boolean;
  label: string;
}

/** One step of a small seeded generator (mulberry32): the next number in [0, 1) and the generator's next state. */
function draw(state: number): { value: number; next: number } {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, next };
}

const applies = (operationIds: string[] | undefined, operationId: string) => !operationIds || operationIds.includes(operationId);

export class FaultInjector {
  /** `statuses`: those every operation of the contract declares (the only ones a fault may answer). */
  constructor(
    private readonly statuses: ReadonlySet<number>,
    private readonly state: () => SandboxState,
  ) {}

  private record(): FaultsRecord | undefined {
    return peek(this.state().control, 'faults') as FaultsRecord | undefined;
  }

  private save(changes: Partial<FaultsRecord>): void {
    const record = this.record();
    this.state().control.set('faults', { id: 'faults', queue: record?.queue ?? [], applied: record?.applied ?? {}, ...(record?.random ? { random: record.random } : {}), ...changes });
  }

  private check(fault: Fault): void {
    if ('drop' in fault) {
      if (fault.drop !== 'before' && fault.drop !== 'after') throw new FaultError('drop must be "before" or "after"');
      return;
    }
    if (!this.statuses.has(fault.status)) throw new FaultError(`status must be one every operation declares: ${[...this.statuses].join(', ')}`);
    if (fault.when !== undefined && fault.when !== 'before' && fault.when !== 'after') throw new FaultError('when must be "before" or "after"');
  }

  inject(rule: FaultRule): void {
    this.check(rule.fault);
    if (!Number.isInteger(rule.count) || rule.count < 1) throw new FaultError('count must be a whole number of at least 1');
    this.save({ queue: [...(this.record()?.queue ?? []), structuredClone(rule)] });
  }

  setRandom(faults: RandomFaults | undefined): void {
    if (!faults) {
      const { random: _gone, ...rest } = this.record() ?? { id: 'faults' as const, queue: [], applied: {} };
      this.state().control.set('faults', rest);
      return;
    }
    let total = 0;
    for (const { fault, probability } of faults.faults) {
      this.check(fault);
      if (!(probability >= 0 && probability <= 1)) throw new FaultError('probability must be between 0 and 1');
      total += probability;
    }
    if (total > 1 + 1e-9) throw new FaultError('the probabilities add up to more than 1');
    const seed = faults.seed ?? Date.now();
    this.save({ random: { ...structuredClone(faults), seed, generator: seed >>> 0 } });
  }

  clear(): void {
    this.state().control.delete('faults');
  }

  pending(): FaultRule[] {
    return (this.record()?.queue ?? []).map((rule) => structuredClone(rule));
  }

  /** How many faults were applied, by label. */
  applied(): Record<string, number> {
    return { ...this.record()?.applied };
  }

  /** Whether a request to `operationId` may get a fault (then taking it is a write). */
  armed(operationId: string): boolean {
    const record = this.record();
    if (!record) return false;
    return record.queue.some((rule) => rule.operationId === undefined || rule.operationId === operationId) || (!!record.random && applies(record.random.operationIds, operationId));
  }

  /** The fault the next request to `operationId` gets, if any: queued rules first, then the random ones. */
  take(operationId: string): ActiveFault | undefined {
    const record = this.record();
    if (!record) return undefined;
    let fault: Fault | undefined;
    let queue = record.queue;
    let random = record.random;
    const index = queue.findIndex((rule) => rule.operationId === undefined || rule.operationId === operationId);
    if (index >= 0) {
      const rule = queue[index]!;
      fault = rule.fault;
      queue = rule.count > 1 ? queue.map((r, i) => (i === index ? { ...r, count: r.count - 1 } : r)) : queue.filter((_, i) => i !== index);
    } else if (random && applies(random.operationIds, operationId)) {
      const { value, next } = draw(random.generator);
      random = { ...random, generator: next };
      let roll = value;
      for (const candidate of random.faults) {
        if (roll < candidate.probability) {
          fault = candidate.fault;
          break;
        }
        roll -= candidate.probability;
      }
    } else return undefined;
    const active: ActiveFault | undefined = !fault
      ? undefined
      : 'drop' in fault
        ? { when: fault.drop, drop: true, label: `drop ${fault.drop}` }
        : { when: fault.when ?? (fault.status === 500 ? 'after' : 'before'), status: fault.status, drop: false, label: '' };
    if (active && !active.drop) active.label = `${active.status} ${active.when}`;
    const applied = active ? { ...record.applied, [active.label]: (record.applied[active.label] ?? 0) + 1 } : record.applied;
    this.save({ queue, applied, ...(random ? { random } : {}) });
    return active;
  }
}
