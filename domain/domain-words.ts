import { CATALOGS } from './i18n/catalogs.js';
import { createTranslator, type Translator } from './i18n/translator.js';

/**
 * What the domain's word functions need of a translator: its messages and its locale (for lists
 * through Intl). Every function that names a field, a choice or a step takes one, and defaults to
 * English so that callers written before the translations keep their words.
 */
export type Words = Pick<Translator, 't' | 'locale'>;

/** The English translator, made on first use (i18next is set up only when a word is asked for). */
export function englishWords(): Words {
  return createTranslator('en');
}

/** An English message of the domain namespace straight from the catalog, for the English tables older callers import. */
export function englishDomainWord(key: string): string {
  const message = CATALOGS.en.domain[key];
  if (message === undefined)
    throw new Error(`domain/i18n/locales/en/domain.json has no "${key}"; add it there and in every other language.`);
  return message;
}

/** Whether the English domain catalog has this key: a key built at run time is used only when it exists. */
export function hasDomainWord(key: string): boolean {
  return Object.hasOwn(CATALOGS.en.domain, key);
}
