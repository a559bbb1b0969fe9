// Live updates: one EventSource on the sandbox's event stream for the whole page. An event says only what changed
// (its kind and identifier); a view that shows that kind of thing fetches again, once per burst (debounced), so a
// run of a thousand payments costs the open view a handful of reads, not a thousand. No polling.
import { useEffect, useRef, useState } from 'preact/hooks';
import { controlBase } from './api.js';

export interface LiveEvent {
  /** What changed: `transaction`, `webhook-delivery`, `clock`... (the stream's event name). */
  kind: string;
  data: unknown;
}

type Listener = (event: LiveEvent) => void;
type State = 'connecting' | 'live' | 'offline';

const listeners = new Set<Listener>();
const stateListeners = new Set<(state: State) => void>();
let source: EventSource | undefined;
let state: State = 'connecting';

function setState(next: State) {
  state = next;
  for (const listener of stateListeners) listener(next);
}

function deliver(kind: string, message: MessageEvent) {
  let data: unknown = message.data;
  try {
    data = JSON.parse(String(message.data));
  } catch {
    // a plain-text event: passed on as text
  }
  for (const listener of listeners) listener({ kind, data });
}

/** The names of the stream's events the dashboard listens to, besides unnamed ones. */
export const eventKinds = ['request', 'transaction', 'webhook-delivery', 'webhook-subscription', 'customer', 'alias', 'clock', 'faults', 'contract-violation', 'reset'];

function connect() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(`${controlBase}/events`, { withCredentials: true });
  source.onopen = () => setState('live');
  // EventSource reconnects by itself (with Last-Event-ID); until then the page says it is not live.
  source.onerror = () => setState(source?.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
  source.onmessage = (message) => deliver('message', message);
  for (const kind of eventKinds) source.addEventListener(kind, (message) => deliver(kind, message as MessageEvent));
}

/** Calls `refresh` after events of `kinds` (any kind when empty), at most once per `quietMs` burst. */
export function useLive(kinds: readonly string[], refresh: () => void, quietMs = 250): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const key = kinds.join(',');
  useEffect(() => {
    connect();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listener: Listener = (event) => {
      if (kinds.length > 0 && !kinds.includes(event.kind) && event.kind !== 'reset' && event.kind !== 'message') return;
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        latest.current();
      }, quietMs);
    };
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (timer !== undefined) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, quietMs]);
}

/** Whether the stream is connected, for the header's indicator. */
export function useLiveState(): State {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    connect();
    stateListeners.add(setCurrent);
    setCurrent(state);
    return () => void stateListeners.delete(setCurrent);
  }, []);
  return current;
}
