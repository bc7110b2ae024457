import { createInstance, type i18n } from 'i18next';
import ICU from 'i18next-icu';
import { CATALOGS, NAMESPACES, type Catalog, type Namespace } from './catalogs.js';
import { INTL_LOCALES, PSEUDO_LANGUAGE, SOURCE_LANGUAGE, type CatalogLanguage } from './languages.js';
import { pseudoLocalizeCatalog } from './pseudo.js';

/**
 * One language's messages, formatted with ICU MessageFormat (plurals, selects, numbers) through
 * i18next. Keys are `namespace:key`; keys are flat (a dot is part of the key). A key missing from
 * a language falls back to English; a key missing from English comes back as the key itself, which
 * the catalog tests catch.
 */
export type MessageValues = Readonly<Record<string, string | number | Date>>;

export interface Translator {
  readonly language: CatalogLanguage;
  /** The BCP 47 tag `Intl` formats with. */
  readonly locale: string;
  t(key: string, values?: MessageValues): string;
  /** The i18next instance, for react-i18next's provider. */
  readonly i18next: i18n;
}

function resourcesFor(language: CatalogLanguage): Record<string, Record<Namespace, Catalog>> {
  if (language === PSEUDO_LANGUAGE) {
    const pseudo = Object.fromEntries(
      NAMESPACES.map((namespace) => [namespace, pseudoLocalizeCatalog(CATALOGS.en[namespace])]),
    );
    return { [PSEUDO_LANGUAGE]: pseudo as Record<Namespace, Catalog>, en: CATALOGS.en };
  }
  return language === SOURCE_LANGUAGE ? { en: CATALOGS.en } : { [language]: CATALOGS[language], en: CATALOGS.en };
}

const translators = new Map<CatalogLanguage, Translator>();

export function createTranslator(language: CatalogLanguage): Translator {
  const known = translators.get(language);
  if (known !== undefined) return known;
  const instance = createInstance();
  instance.use(ICU);
  void instance.init({
    lng: language,
    fallbackLng: SOURCE_LANGUAGE,
    resources: resourcesFor(language),
    ns: [...NAMESPACES],
    defaultNS: 'common',
    keySeparator: false,
    nsSeparator: ':',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    i18nFormat: { formats: {} },
  });
  const translator: Translator = {
    language,
    locale: INTL_LOCALES[language],
    t: (key, values) => instance.t(key, values as Record<string, unknown>),
    i18next: instance,
  };
  translators.set(language, translator);
  return translator;
}
