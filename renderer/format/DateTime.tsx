import { useTranslator } from '../i18n/I18nProvider';
import { agoText, dateTimeText } from './units';

/**
 * A date-time (or, with `now`, how long ago) in the screens' language, as an HTML <time>. Marked
 * translate="no": Intl formats it for the locale, no catalog does, and the pseudo-locale test
 * treats it as data.
 */
export function DateTime({ at, now }: { at: string | null | undefined; now?: number }) {
  const words = useTranslator();
  const text = now === undefined ? dateTimeText(at, words) : agoText(at, now, words);
  return (
    <time dateTime={at ?? undefined} translate="no">
      {text}
    </time>
  );
}
