import { useMemo } from 'react';
import { localeFormat, type Translator } from '../../domain/i18n/index.js';
import { useTranslator } from '../i18n/I18nProvider';

/** Dates and "how long ago" in the screens' language, for tables and notes. */
export interface DateText {
  /** A date and time in the reader's locale; an em dash when absent, the text as is when not a date. */
  dateTime(iso: string | null | undefined): string;
  /** How long ago, coarse ("just now", "5 min ago", "vor 3 Std.", "2 天前"); an em dash when absent. */
  ago(iso: string | null | undefined, now: number): string;
}

/** The date words of one translator; exported for code that has a translator but no hook. */
export function dateTextOf(translator: Pick<Translator, 't' | 'locale'>): DateText {
  const format = localeFormat(translator);
  // Intl's own relative words ("vor 5 Min.", "il y a 3 h"), not ours, so each language reads as it should.
  const relative = new Intl.RelativeTimeFormat(translator.locale, { numeric: 'always', style: 'short' });
  const parse = (iso: string): number => new Date(iso).getTime();
  return {
    dateTime: (iso) => {
      if (!iso) return '—';
      return Number.isNaN(parse(iso)) ? iso : format.dateTime(iso);
    },
    ago: (iso, now) => {
      if (!iso) return '—';
      const then = parse(iso);
      if (Number.isNaN(then)) return iso;
      const seconds = Math.max(0, (now - then) / 1000);
      if (seconds < 60) return translator.t('screens:ago.justNow');
      if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
      if (seconds < 86400) return relative.format(-Math.floor(seconds / 3600), 'hour');
      return relative.format(-Math.floor(seconds / 86400), 'day');
    },
  };
}

export function useDateText(): DateText {
  const translator = useTranslator();
  return useMemo(() => dateTextOf(translator), [translator]);
}
