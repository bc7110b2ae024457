import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../domain/list-search';

export { SEARCH_DEBOUNCE_MS };

/**
 * `value` once it has stayed the same for `delayMs`. A list's search box keeps its own text at
 * once (the field answers every key), while the query reads this, so a serial number typed in one
 * go costs the service one search rather than one per character (at a million devices a short
 * prefix counts a large range of the index).
 */
export function useDebounced<T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
