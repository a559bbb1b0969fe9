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

/** An event as the stream sends it; written out by hand (a busy sandbox makes one per request). */
const frame = ({ id, kind, ref }: ActivityEvent) =>
  `id: ${id}\ndata: {"id":${id},"kind":"${kind}"${ref === undefined ? '' : `,"ref":${JSON.stringify(ref)}`}}\n\n`;

/** How long events wait to go out together: a dashboard needs no less, and a busy sandbox writes 20 times a second. */
const flushEveryMs = 50;

export class EventStreams {
  /** Each open stream, with what stops its following the feed. */
  private readonly open = new Map<ServerResponse, () => void>();
  /** What waits to be written to each stream at the end of this turn of the event loop. */
  private readonly pending = new Map<ServerResponse, string>();
  private flushing: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly maxBufferedBytes: number;
  private readonly heartbeatMs: number;

  constructor(
    private readonly feed: ActivityFeed,
    options: EventStreamOptions = {},
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
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
    res.write('retry: 2000\n\n');
    const lastId = req.headers['last-event-id'];
    if (typeof lastId === 'string' && lastId !== '') {
      const missed = /^\d{1,15}$/.test(lastId) ? this.feed.since(Number(lastId)) : undefined;
      if (!missed) res.write(frame({ id: this.feed.lastId, kind: 'reload' }));
      else for (const event of missed) res.write(frame(event));
    }
    this.open.set(res, this.feed.follow((event) => this.send(res, frame(event))));
    this.armHeartbeat();
    res.once('close', () => this.drop(res));
  }

  /** A comment line to every reader (the timer's work; tests call it). */
  beat(): void {
    for (const res of this.open.keys()) this.send(res, ': heartbeat\n\n');
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
   * Queues `text` for `res`: the events of `flushEveryMs` go out in one write (a write per event cost a busy sandbox
   * a fifth of its GET rate in the bench, and one per turn of the event loop still a tenth: a system call per request
   * or two).
   */
  private send(res: ServerResponse, text: string): void {
    this.pending.set(res, (this.pending.get(res) ?? '') + text);
    if (this.flushing === undefined) {
      this.flushing = setTimeout(() => this.flush(), flushEveryMs);
      this.flushing.unref();
    }
  }

  private flush(): void {
    this.flushing = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    for (const [res, text] of batch) this.write(res, text);
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
    this.open.get(res)?.();
    this.open.delete(res);
    this.pending.delete(res);
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
