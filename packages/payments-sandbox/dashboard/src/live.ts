// Live updates: one EventSource on the sandbox's event stream (`GET /__sandbox/events`) for the whole page. An event
// says only what changed (its kind and identifier); a view that shows that kind of thing reads again, once per burst
// (debounced), so a run of a thousand payments costs the open view a handful of reads, not a thousand. No polling.
import { useEffect, useRef, useState } from 'preact/hooks';
import { controlPrefix } from '../../src/http/control-client.js';
import type { Schemas } from './api.js';

export type LiveEvent = Schemas['SandboxEvent'];
export type LiveKind = LiveEvent['kind'];
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

function connect() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(`${controlPrefix}/events`);
  source.onopen = () => setState('live');
  // EventSource reconnects by itself (sending Last-Event-ID); meanwhile the page says it is not live.
  source.onerror = () => setState(source?.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
  source.onmessage = (message: MessageEvent<string>) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(message.data) as LiveEvent;
    } catch {
      return;
    }
    for (const listener of listeners) listener(event);
  };
}

/** Events after which every view reads again: a reset, or events lost (`reload`). */
const everything: readonly LiveKind[] = ['reset', 'reload'];

/** Calls `refresh` after events of `kinds`, at most once per `quietMs` burst. */
export function useLive(kinds: readonly LiveKind[], refresh: () => void, quietMs = 200): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const key = kinds.join(',');
  useEffect(() => {
    connect();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listener: Listener = (event) => {
      if (!kinds.includes(event.kind) && !everything.includes(event.kind)) return;
      timer ??= setTimeout(() => {
        timer = undefined;
        latest.current();
      }, quietMs);
    };
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (timer !== undefined) clearTimeout(timer);
    };
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
