import { useState } from 'react';
import { errorText } from '../api/client';

export interface BusyAction {
  /** True while the action runs. */
  busy: boolean;
  /** What went wrong the last time, in words; cleared when the action runs again. */
  error: string | null;
  /** Runs the action: busy meanwhile, its failure kept as `error` (it does not throw). */
  run(action: () => Promise<void>): Promise<void>;
}

/** An action a form or row runs against the core, with its busy flag and its error text. */
export function useBusyAction(): BusyAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    run: async (action) => {
      setBusy(true);
      setError(null);
      try {
        await action();
      } catch (err) {
        setError(errorText(err));
      } finally {
        setBusy(false);
      }
    },
  };
}
