import { createTranslator, type Translator } from '../../domain/i18n/index.js';

/**
 * What the renderer's text functions need of a translator: its messages and its locale (for
 * numbers and lists through Intl). Components pass `useTranslator()`; the default is English, so
 * that a test or a caller without the provider reads the source words.
 */
export type Words = Pick<Translator, 't' | 'locale'>;

export function englishWords(): Words {
  return createTranslator('en');
}

/** Items as one list in the reader's language ("a, b, c"; "a、b、c"), through Intl, never joined by hand. */
export function listText(words: Words, items: readonly string[]): string {
  return new Intl.ListFormat(words.locale, { style: 'long', type: 'conjunction' }).format(items);
}
