/** Dates and times a technician reads at a glance. Bytes, rates and durations: the CLI's words, from the domain. */
export { bytesText, durationText, rateText } from '../../domain/job-text';

/** A date-time in the technician's locale, or an em dash when absent. */
export function dateTimeText(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** How long ago, coarse: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function agoText(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}
