/**
 * Faults injected into API requests, to test what a client does when the network or the service fails: an error
 * status, or a connection dropped without an answer. `before` fails the request before any work is done; `after`
 * does the work (and records the answer under the request's Idempotency-Key) and then fails, like a lost answer.
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

/** Small seeded generator (mulberry32), so that a chaos run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private queue: FaultRule[] = [];
  private randomFaults: (RandomFaults & { next: () => number }) | undefined;
  /** How many faults were applied, by label (`503 before`, `drop after`...). */
  readonly applied = new Map<string, number>();

  /** `statuses`: those every operation of the contract declares (the only ones a fault may answer). */
  constructor(private readonly statuses: ReadonlySet<number>) {}

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
    this.queue.push({ ...rule, fault: { ...rule.fault } });
  }

  setRandom(faults: RandomFaults | undefined): void {
    if (!faults) {
      this.randomFaults = undefined;
      return;
    }
    let total = 0;
    for (const { fault, probability } of faults.faults) {
      this.check(fault);
      if (!(probability >= 0 && probability <= 1)) throw new FaultError('probability must be between 0 and 1');
      total += probability;
    }
    if (total > 1 + 1e-9) throw new FaultError('the probabilities add up to more than 1');
    this.randomFaults = { ...faults, next: random(faults.seed ?? Date.now()) };
  }

  clear(): void {
    this.queue = [];
    this.randomFaults = undefined;
    this.applied.clear();
  }

  pending(): FaultRule[] {
    return this.queue.map((rule) => ({ ...rule }));
  }

  /** The fault the next request to `operationId` gets, if any: queued rules first, then the random ones. */
  take(operationId: string): ActiveFault | undefined {
    const index = this.queue.findIndex((rule) => rule.operationId === undefined || rule.operationId === operationId);
    let fault: Fault | undefined;
    if (index >= 0) {
      const rule = this.queue[index]!;
      fault = rule.fault;
      rule.count -= 1;
      if (rule.count === 0) this.queue.splice(index, 1);
    } else if (this.randomFaults && (!this.randomFaults.operationIds || this.randomFaults.operationIds.includes(operationId))) {
      let roll = this.randomFaults.next();
      for (const candidate of this.randomFaults.faults) {
        if (roll < candidate.probability) {
          fault = candidate.fault;
          break;
        }
        roll -= candidate.probability;
      }
    }
    if (!fault) return undefined;
    const active: ActiveFault =
      'drop' in fault
        ? { when: fault.drop, drop: true, label: `drop ${fault.drop}` }
        : { when: fault.when ?? (fault.status === 500 ? 'after' : 'before'), status: fault.status, drop: false, label: '' };
    if (!active.drop) active.label = `${active.status} ${active.when}`;
    this.applied.set(active.label, (this.applied.get(active.label) ?? 0) + 1);
    return active;
  }
}
