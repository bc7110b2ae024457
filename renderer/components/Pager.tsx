export interface PagerProps {
  page: number;
  limit: number;
  totalCount: number;
  onPage(page: number): void;
  /** For lists without a total (arrays): whether the page was full, so a next one may exist. */
  mayHaveMore?: boolean;
}

export function Pager({ page, limit, totalCount, onPage, mayHaveMore }: PagerProps) {
  const pages = Math.max(1, Math.ceil(totalCount / limit));
  const hasNext = mayHaveMore ?? page < pages;
  const first = totalCount === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(totalCount, page * limit);
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button button--quiet" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span className="pager__text" aria-live="polite">
        {mayHaveMore === undefined ? `${first}–${last} of ${totalCount} · page ${page} of ${pages}` : `Page ${page}`}
      </span>
      <button type="button" className="button button--quiet" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
