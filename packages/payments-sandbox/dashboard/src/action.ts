// A control call started by a button or a form, with its failure kept to show beside it.
import { useState } from 'preact/hooks';
import { ControlError } from './api.js';

export function useAction(after: () => void = () => {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ControlError>();
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      after();
    } catch (failure) {
      setError(failure instanceof ControlError ? failure : new ControlError(0, String(failure)));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
