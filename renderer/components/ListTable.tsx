import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryState } from '../api/use-query';
import { Callout, EmptyRow } from './misc';
import { Pager, type PagerProps } from './Pager';

/**
 * A column heading; `hidden` keeps it for screen readers only. `ACTIONS_COLUMN` is the column of
 * row buttons, named in the screens' language by the table itself.
 */
export type ListColumn = string | { label: string; className?: string; hidden?: boolean } | typeof ACTIONS_COLUMN;

export interface ListTableProps<Row> {
  columns: readonly ListColumn[];
  /** Undefined or null until the first answer: then neither the empty line nor the pager shows. */
  rows: readonly Row[] | null | undefined;
  /** One `<tr>` with its key. */
  row(item: Row): ReactNode;
  /** What the table says when there are no rows. */
  empty: ReactNode;
  /** Marks the table busy for assistive technology while a query runs; omitted, the table never is. */
  loading?: boolean;
  /** The query's error, shown above the table under `errorTitle`. */
  error?: string | null;
  errorTitle?: string;
  /** The pager under the table, once there are rows to page through. */
  pager?: PagerProps;
  compact?: boolean;
}

/** The table of a list screen: its load error, the rows or a line saying there are none, and the pager. */
export function ListTable<Row>({
  columns,
  rows,
  row,
  empty,
  loading,
  error,
  errorTitle,
  pager,
  compact,
}: ListTableProps<Row>) {
  const { t } = useTranslation();
  const heading = (column: ListColumn) =>
    columnHeading(
      typeof column === 'object' && 'actions' in column
        ? { label: t('screens:list.actions'), className: 'actions-col', hidden: true }
        : column,
    );
  return (
    <>
      {error ? (
        <Callout tone="bad" title={errorTitle}>
          {error}
        </Callout>
      ) : null}
      <div className="table-scroll">
        <table className={compact ? 'table table--compact' : 'table'} aria-busy={loading}>
          <thead>
            <tr>{columns.map(heading)}</tr>
          </thead>
          <tbody>
            {rows?.map(row)}
            {rows && rows.length === 0 ? <EmptyRow columns={columns.length}>{empty}</EmptyRow> : null}
          </tbody>
        </table>
      </div>
      {rows && pager ? <Pager {...pager} /> : null}
    </>
  );
}

function columnHeading(column: string | { label: string; className?: string; hidden?: boolean }): ReactNode {
  const { label, className, hidden } =
    typeof column === 'string' ? { label: column, className: undefined, hidden: false } : column;
  return (
    <th key={label} scope="col" className={className}>
      {hidden ? <span className="visually-hidden">{label}</span> : label}
    </th>
  );
}

/** The pager of a list whose answer says its page, limit and total; none before the first answer. */
function pagerOf(
  answer: { page: number; limit: number; totalCount: number } | null,
  onPage: (page: number) => void,
): PagerProps | undefined {
  return answer ? { page: answer.page, limit: answer.limit, totalCount: answer.totalCount, onPage } : undefined;
}

/** What a paged list query gives its table: the rows, the busy and error states, and the pager. */
export function pagedListOf<Row>(
  list: QueryState<{ items: Row[]; page: number; limit: number; totalCount: number }>,
  onPage: (page: number) => void,
): Pick<ListTableProps<Row>, 'rows' | 'loading' | 'error' | 'pager'> {
  return { rows: list.data?.items, loading: list.loading, error: list.error, pager: pagerOf(list.data, onPage) };
}

/** The last column of a list whose rows have buttons: no visible heading. */
export const ACTIONS_COLUMN = { actions: true } as const;
