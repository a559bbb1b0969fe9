import { rules } from '../generated/rules.js';

/** The Limits section: more requests in flight than the contract's concurrency rule allows get 429. */
export class InFlightRequests {
  private count = 0;

  /** Counts a request in; false when it is one too many. */
  enter(): boolean {
    this.count += 1;
    return this.count <= rules.concurrency.maxInFlight;
  }

  /** Requests in flight now (those refused with 429 included, until answered). */
  get size(): number {
    return this.count;
  }

  leave(): void {
    this.count -= 1;
  }
}
