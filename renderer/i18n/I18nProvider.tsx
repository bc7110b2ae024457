import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createTranslator, localeFormat, type LocaleFormat, type Translator } from '../../domain/i18n/index.js';
import './default-instance';
import { currentLanguage, useLanguage } from './language';

const TranslatorContext = createContext<Translator>(createTranslator('en'));

/**
 * The screens' language: react-i18next's provider with the language's i18next instance, so that
 * every component asks `useTranslation('workbench')` and re-renders when the language changes.
 * Also sets `<html lang>`, which screen readers, hyphenation and CJK font choice follow.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const language = useLanguage(currentLanguage);
  const translator = createTranslator(language);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <TranslatorContext.Provider value={translator}>
      <I18nextProvider i18n={translator.i18next}>{children}</I18nextProvider>
    </TranslatorContext.Provider>
  );
}

/** The screens' translator: its language and the `Intl` locale it formats with. */
export function useTranslator(): Translator {
  return useContext(TranslatorContext);
}

/** Numbers, sizes, dates and times in the screens' language (domain/i18n's localeFormat). */
export function useLocaleFormat(): LocaleFormat {
  const translator = useTranslator();
  return useMemo(() => localeFormat(translator), [translator]);
}
