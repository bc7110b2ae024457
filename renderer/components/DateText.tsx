import { useDateText } from './use-date-text';

/**
 * A date and time, or how long ago, in a table cell: Intl's words for the reader's locale inside a
 * <time> that keeps the exact instant for machines (and tells the pseudo-locale check it is a date).
 */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const dates = useDateText();
  return iso ? <time dateTime={iso}>{dates.dateTime(iso)}</time> : <>—</>;
}

export function Ago({ iso, now }: { iso: string | null | undefined; now: number }) {
  const dates = useDateText();
  return iso ? (
    <time dateTime={iso} title={dates.dateTime(iso)}>
      {dates.ago(iso, now)}
    </time>
  ) : (
    <>—</>
  );
}
