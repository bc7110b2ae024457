/** Dates and times a technician reads at a glance. Bytes, rates and durations: the CLI's words, from the domain. */
export { bytesText, durationText, rateText } from '../../domain/job-text';
import { englishWords, type Words } from './words';

/**
 * A date-time in the screens' language (pass `useTranslator()`), or an em dash when absent. Put it
 * in a message as a value, or show it under translate="no" (<DateTime>): Intl wrote it, not a catalog.
 */
export function dateTimeText(iso: string | null | undefined, words: Pick<Words, 'locale'> = englishWords()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(words.locale, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** How long ago, coarse, in the screens' language through Intl: "now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function agoText(iso: string | null | undefined, now: number, words: Pick<Words, 'locale'> = englishWords()): string {
  if (!iso) return '—';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.max(0, (now - then) / 1000);
  const relative = new Intl.RelativeTimeFormat(words.locale, { numeric: 'auto' });
  if (seconds < 60) return relative.format(0, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format(-Math.floor(seconds / 86400), 'day');
}
