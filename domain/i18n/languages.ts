/**
 * The languages the product speaks, and how a locale name from the operating system (a POSIX
 * `LANG` such as `de_DE.UTF-8`, a BCP 47 tag such as `zh-CN` from Electron or the browser) picks
 * one of them. English is the source language and the fallback.
 */

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The pseudo-locale: English with accents and about 40 % longer. Tests run the screens in it to
 * find text that is not from a catalog and labels that are cut off. Not offered to users.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
export type CatalogLanguage = Language | typeof PSEUDO_LANGUAGE;

export const SOURCE_LANGUAGE: Language = 'en';

/** Each language's name in itself, as a language menu shows it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  zh: '简体中文',
};

/** The BCP 47 tag `Intl` formats with, for each language. */
export const INTL_LOCALES: Readonly<Record<CatalogLanguage, string>> = {
  en: 'en-GB',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  zh: 'zh-CN',
  'en-XA': 'en-GB',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function isCatalogLanguage(value: unknown): value is CatalogLanguage {
  return isLanguage(value) || value === PSEUDO_LANGUAGE;
}

/**
 * The language a locale name asks for, or undefined when it names none we speak. Accepts
 * `de`, `de-AT`, `de_DE.UTF-8`, `fr_CH@euro`, `zh-Hans-CN`, `en-XA`. `C` and `POSIX` name no
 * language. Traditional Chinese (`zh-TW`, `zh-HK`, `zh-Hant`) is not Simplified Chinese and is
 * not matched: such a technician reads English rather than the wrong script.
 */
export function languageOf(localeName: string | undefined): CatalogLanguage | undefined {
  if (localeName === undefined) return undefined;
  const name = localeName.trim().split(/[.@]/)[0]?.replace(/_/g, '-') ?? '';
  if (name === '' || name === 'C' || name === 'POSIX') return undefined;
  if (name.toLowerCase() === PSEUDO_LANGUAGE.toLowerCase()) return PSEUDO_LANGUAGE;
  const parts = name.toLowerCase().split('-');
  const primary = parts[0];
  if (primary === 'zh' && parts.some((part) => part === 'hant' || part === 'tw' || part === 'hk' || part === 'mo')) {
    return undefined;
  }
  return isLanguage(primary) ? primary : undefined;
}

/** The first of the candidates that names a language we speak, else English. */
export function resolveLanguage(candidates: readonly (string | undefined)[]): CatalogLanguage {
  for (const candidate of candidates) {
    const language = languageOf(candidate);
    if (language !== undefined) return language;
  }
  return SOURCE_LANGUAGE;
}

/**
 * The language a command line asks for through its environment, in POSIX order: `LC_ALL`
 * overrides `LC_MESSAGES`, which overrides `LANG`. The first of them that is set decides, even
 * when it is `C`: a script that sets `LC_ALL=C` gets English.
 */
export function languageFromEnvironment(environment: Readonly<Record<string, string | undefined>>): CatalogLanguage {
  for (const variable of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = environment[variable];
    if (value !== undefined && value !== '') return resolveLanguage([value]);
  }
  return SOURCE_LANGUAGE;
}
