import { useState } from 'react';

export interface ListFilters<F> {
  filters: F;
  /** A setter for one filter; a new filter value starts the list again at page 1. */
  setFilter<K extends keyof F>(key: K): (value: F[K]) => void;
  page: number;
  setPage(page: number): void;
}

/** The filters and page of a paged list screen: changing what is shown goes back to the first page. */
export function useListFilters<F extends object>(initial: F): ListFilters<F> {
  const [filters, setFilters] = useState(initial);
  const [page, setPage] = useState(1);
  return {
    filters,
    setFilter: (key) => (value) => {
      setFilters((current) => ({ ...current, [key]: value }));
      setPage(1);
    },
    page,
    setPage,
  };
}
