import { useTranslation } from 'react-i18next';

export interface PagerProps {
  page: number;
  limit: number;
  totalCount: number;
  onPage(page: number): void;
  /** For lists without a total (arrays): whether the page was full, so a next one may exist. */
  mayHaveMore?: boolean;
  /**
   * For lists paged by cursor (the Outbox): how many rows come before this page. The range and
   * whether a next page exists are counted from it rather than from `page`, since rows before the
   * page may leave meanwhile (sent) and the pages the reader went through no longer line up.
   */
  offset?: number;
}

export function Pager({ page, limit, totalCount, onPage, mayHaveMore, offset }: PagerProps) {
  const pages = Math.max(1, Math.ceil(totalCount / limit));
  const before = offset ?? (page - 1) * limit;
  const hasNext = mayHaveMore ?? before + limit < totalCount;
  const first = totalCount === 0 ? 0 : before + 1;
  const last = Math.min(totalCount, before + limit);
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t('screens:pager.label')}>
      <button type="button" className="button button--quiet" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('screens:pager.previous')}
      </button>
      <span className="pager__text" aria-live="polite">
        {mayHaveMore === undefined
          ? t('screens:pager.range', { first, last, total: totalCount, page, pages })
          : t('screens:pager.page', { page })}
      </span>
      <button type="button" className="button button--quiet" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {t('screens:pager.next')}
      </button>
    </nav>
  );
}
