import type { components } from '../generated/control/openapi.js';

/**
 * What happens in this sandbox process, as small numbered events (a kind and an identifier, never the data: a
 * reader looks the details up), for the dashboard's live views. The last `capacity` events are kept, so that a
 * reader that reconnects gets what it missed; a reader is a callback, called at once. With no reader, an event
 * costs one small object in a ring.
 */

export type ActivityEvent = components['schemas']['SandboxEvent'];
export type ActivityKind = Exclude<ActivityEvent['kind'], 'reload'>;

export class ActivityFeed {
  private readonly ring: (ActivityEvent | undefined)[];
  private next = 1;
  private readonly readers = new Set<(event: ActivityEvent) => void>();

  constructor(readonly capacity = 1_000) {
    this.ring = new Array<ActivityEvent | undefined>(capacity);
  }

  emit(kind: ActivityKind, ref?: string): void {
    const event: ActivityEvent = ref === undefined ? { id: this.next, kind } : { id: this.next, kind, ref };
    this.ring[this.next % this.capacity] = event;
    this.next += 1;
    for (const reader of this.readers) reader(event);
  }

  /** The number of the last event (0 before any). */
  get lastId(): number {
    return this.next - 1;
  }

  /** The events after `id`, or undefined when some of them are no longer kept (or `id` was never handed out). */
  since(id: number): ActivityEvent[] | undefined {
    if (!Number.isInteger(id) || id < 0 || id > this.lastId) return undefined;
    if (this.lastId - id > this.capacity) return undefined;
    const missed: ActivityEvent[] = [];
    for (let n = id + 1; n <= this.lastId; n++) missed.push(this.ring[n % this.capacity]!);
    return missed;
  }

  /** Calls `reader` with every event from now on, until the function it returns is called. */
  follow(reader: (event: ActivityEvent) => void): () => void {
    this.readers.add(reader);
    return () => void this.readers.delete(reader);
  }

  get followers(): number {
    return this.readers.size;
  }
}
