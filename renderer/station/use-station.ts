import { useCallback, useEffect, useRef, useState } from 'react';
import type { StationView } from '../../contract/index';
import { client, errorText } from '../api/client';

/** How often the screen asks for the station's view while it is open. */
const POLL_MS = 500;

/**
 * The station's view, asked for every half second while the screen is open: the tiles must follow
 * a device from two metres away without a click. (A pull is enough here: one small query, and the
 * view is whole each time, so a missed answer costs nothing.)
 */
export function useStationView(): { view: StationView | null; error: string | null; set(view: StationView): void } {
  const [view, setView] = useState<StationView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const ticket = ++latest.current;
      try {
        const next = await client().call('station.view', {});
        if (!stopped && ticket === latest.current) {
          setView(next);
          setError(null);
        }
      } catch (err) {
        if (!stopped) setError(errorText(err));
      }
      if (!stopped) timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  const set = useCallback((next: StationView) => {
    latest.current += 1;
    setView(next);
  }, []);
  return { view, error, set };
}
