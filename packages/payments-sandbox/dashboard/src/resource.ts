// A view's data: loaded when the view opens (or its inputs change) and again after the live events it cares about.
// A reload keeps what is shown until the new answer is there, so the page does not flicker on every event.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ControlError } from './api.js';
import { useLive, type LiveKind } from './live.js';

export interface Resource<T> {
  data: T | undefined;
  error: ControlError | undefined;
  loading: boolean;
  reload: () => void;
}

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, inputs: readonly unknown[], liveKinds: readonly LiveKind[]): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ControlError>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    latest
      .current(abort.signal)
      .then((value) => {
        if (abort.signal.aborted) return;
        setData(value);
        setError(undefined);
      })
      .catch((failure: unknown) => {
        if (abort.signal.aborted) return;
        setError(failure instanceof ControlError ? failure : new ControlError(0, String(failure)));
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...inputs, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  useLive(liveKinds, reload);
  return { data, error, loading, reload };
}
