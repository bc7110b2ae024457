import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, type CatalogLanguage } from '../../domain/i18n/index.js';
import { useLanguage } from './language';
import './language-select.css';

const FOLLOW_SYSTEM = 'system';

/** The pseudo-locale is English underneath: the system's language is named as English then. */
function nameOf(language: CatalogLanguage): string {
  return isLanguage(language) ? LANGUAGE_NAMES[language] : LANGUAGE_NAMES.en;
}

/**
 * The language menu of the top bar: follow the system (named, so the technician sees what that
 * means here), or one of the languages, each named in itself so that anyone finds their own.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const id = useId();
  const system = useLanguage((s) => s.system);
  const chosen = useLanguage((s) => s.chosen);
  const choose = useLanguage((s) => s.choose);
  return (
    <div className="topbar__setting">
      <label htmlFor={id}>{t('common:language')}</label>
      <select
        id={id}
        className="topbar__select"
        value={chosen ?? FOLLOW_SYSTEM}
        onChange={(event) => choose(isLanguage(event.target.value) ? event.target.value : null)}
      >
        <option value={FOLLOW_SYSTEM}>{t('common:languageFollowsSystem', { language: nameOf(system) })}</option>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language} translate="no">
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
