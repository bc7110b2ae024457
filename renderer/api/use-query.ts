import { useCallback, useEffect, useRef, useState } from 'react';
import type { Channel, ChannelInput, ChannelResult } from '../../contract/index';
import { client, errorText } from './client';

export interface QueryState<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/**
 * One query channel as React state. The input is compared by its JSON text, so a caller may build
 * it inline; an answer that arrives after a newer request started is dropped. A change of
 * `version` (what the answer depends on besides the input, e.g. a job that finished) reads it again.
 */
export function useQuery<C extends Channel>(
  channel: C,
  input: ChannelInput<C>,
  enabled = true,
  version = '',
): QueryState<ChannelResult<C>> {
  const key = JSON.stringify(input);
  const [data, setData] = useState<ChannelResult<C> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (!enabled) return;
    const ticket = ++latest.current;
    setLoading(true);
    client()
      .call(channel, JSON.parse(key) as ChannelInput<C>)
      .then((value) => {
        if (ticket !== latest.current) return;
        setData(value);
        setError(null);
      })
      .catch((err: unknown) => {
        if (ticket !== latest.current) return;
        setError(errorText(err));
      })
      .finally(() => {
        if (ticket === latest.current) setLoading(false);
      });
  }, [channel, key, enabled, generation, version]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, loading, reload };
}
