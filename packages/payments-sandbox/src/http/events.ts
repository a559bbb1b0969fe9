import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityEvent, ActivityFeed } from '../state/activity.js';

/**
 * `GET /__sandbox/events`: the activity feed as server-sent events, for the dashboard's live views. Each event is a
 * `SandboxEvent` as JSON with its number as `id:`, so that a browser reconnecting sends `Last-Event-ID` and gets what
 * it missed, or `reload` when that is no longer kept. A reader that does not keep up is not buffered for: once more
 * than `maxBufferedBytes` wait to be sent to it, it gets `reload` and the stream ends (the browser reconnects, reads
 * everything again). With no reader, nothing is serialised or written: the feed only keeps its ring.
 */

export interface EventStreamOptions {
  /** Bytes waiting for one slow reader before it is dropped. */
  maxBufferedBytes?: number;
  /** How often a comment line keeps idle connections (and proxies) open; 0: never. */
  heartbeatMs?: number;
}

/** An event as the stream sends it; written out by hand (a busy sandbox makes one per request or two). */
const frame = ({ id, kind, ref }: ActivityEvent) =>
  `id: ${id}\ndata: {"id":${id},"kind":"${kind}"${ref === undefined ? '' : `,"ref":${JSON.stringify(ref)}`}}\n\n`;

/** How long events wait to go out together: a dashboard needs no less, and a busy sandbox writes 20 times a second. */
const flushEveryMs = 50;

export class EventStreams {
  /** Each open stream, with the number of the last event it was sent. */
  private readonly open = new Map<ServerResponse, { sentId: number }>();
  /** Stops following the feed: one follower for every stream, while any is open. */
  private unfollow: (() => void) | undefined;
  /** The number of the last event every stream was sent (the feed's last number at the last flush). */
  private flushedId = 0;
  private flushing: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly maxBufferedBytes: number;
  private readonly heartbeatMs: number;
  /** Events that may wait for a flush: half the feed's ring, so that none is forgotten before it is sent. */
  private readonly maxWaiting: number;

  constructor(
    private readonly feed: ActivityFeed,
    options: EventStreamOptions = {},
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.maxWaiting = Math.max(1, Math.floor(feed.capacity / 2));
  }

  /** Streams to `res` until the client goes or falls behind. The request is already authorised. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      // Proxies in front of a team's sandbox (nginx) would otherwise hold events back.
      'X-Accel-Buffering': 'no',
      // A stream ends only when dropped: its connection goes with it.
      Connection: 'close',
    });
    res.socket?.setNoDelay(true);
    let text = 'retry: 2000\n\n';
    const lastId = req.headers['last-event-id'];
    if (typeof lastId === 'string' && lastId !== '') {
      const missed = /^\d{1,15}$/.test(lastId) ? this.feed.since(Number(lastId)) : undefined;
      if (!missed) text += frame({ id: this.feed.lastId, kind: 'reload' });
      else for (const event of missed) text += frame(event);
    }
    res.write(text);
    if (this.open.size === 0) {
      this.flushedId = this.feed.lastId;
      this.unfollow = this.feed.follow(this.wake);
    }
    this.open.set(res, { sentId: this.feed.lastId });
    this.armHeartbeat();
    res.once('close', () => this.drop(res));
  }

  /** A comment line to every reader (the timer's work; tests call it). */
  beat(): void {
    this.flush();
    for (const res of [...this.open.keys()]) this.write(res, ': heartbeat\n\n');
  }

  /** Ends every stream (the sandbox closes). */
  closeAll(): void {
    for (const res of [...this.open.keys()]) (res.end(), this.drop(res));
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    clearTimeout(this.flushing);
    this.flushing = undefined;
  }

  get readers(): number {
    return this.open.size;
  }

  /**
   * What a new event costs while streams are open: it stays in the feed's ring, and a flush is due in `flushEveryMs`
   * (or now, once half the ring waits). The frames are made at the flush, once for every stream, and each stream gets
   * them in one write (a write per event cost a busy sandbox a fifth of its GET rate in the bench, one per turn of
   * the event loop still a tenth).
   */
  private readonly wake = (event: ActivityEvent): void => {
    if (event.id - this.flushedId >= this.maxWaiting) this.flush();
    else if (this.flushing === undefined) {
      this.flushing = setTimeout(() => this.flush(), flushEveryMs);
      this.flushing.unref();
    }
  };

  private flush(): void {
    clearTimeout(this.flushing);
    this.flushing = undefined;
    const last = this.feed.lastId;
    if (last === this.flushedId) return;
    // Kept by the ring: at most `maxWaiting` events wait.
    const events = this.feed.since(this.flushedId) ?? [];
    let text = '';
    for (const event of events) text += frame(event);
    const from = this.flushedId;
    this.flushedId = last;
    for (const [res, stream] of [...this.open]) {
      // A stream opened since the last flush was sent the events up to its opening: only the rest.
      const own = stream.sentId === from ? text : this.framesAfter(stream.sentId);
      stream.sentId = last;
      if (own !== '') this.write(res, own);
    }
  }

  private framesAfter(id: number): string {
    let text = '';
    for (const event of this.feed.since(id) ?? []) text += frame(event);
    return text;
  }

  private write(res: ServerResponse, text: string): void {
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > this.maxBufferedBytes) {
      // Falling behind: told to read everything again, then let go; what waits for it is bounded by the limit.
      res.end(frame({ id: this.feed.lastId, kind: 'reload' }));
      this.drop(res);
      // A reader that reads nothing more is cut off, rather than hold its buffer for ever.
      setTimeout(() => res.destroy(), 30_000).unref();
      return;
    }
    res.write(text);
  }

  private drop(res: ServerResponse): void {
    if (!this.open.delete(res)) return;
    if (this.open.size === 0) {
      this.unfollow?.();
      this.unfollow = undefined;
      clearTimeout(this.flushing);
      this.flushing = undefined;
    }
    this.armHeartbeat();
  }

  private armHeartbeat(): void {
    if (this.open.size > 0 && this.heartbeat === undefined && this.heartbeatMs > 0) {
      this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
      this.heartbeat.unref();
    } else if (this.open.size === 0 && this.heartbeat !== undefined) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }
}
