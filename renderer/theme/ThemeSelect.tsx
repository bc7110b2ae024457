import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isThemeChoice, THEME_CHOICES, type ThemeChoice } from './theme-choice';
import { useTheme } from './theme-store';
// The top bar's menus share one look: the language menu's stylesheet draws this one too.
import '../i18n/language-select.css';

/**
 * The workstation's theme: As the system, Light, Dark or High contrast. The choice applies at
 * once and is kept for the next start (theme-store.ts). Its words are the common namespace's.
 * Drawn like the top bar's language menu (its label above it), where it sits.
 */
export function ThemeSelect() {
  const { t } = useTranslation();
  const choice = useTheme((s) => s.choice);
  const choose = useTheme((s) => s.choose);
  const id = useId();
  const labels: Record<ThemeChoice, string> = {
    system: t('common:theme.system'),
    light: t('common:theme.light'),
    dark: t('common:theme.dark'),
    'high-contrast': t('common:theme.highContrast'),
  };
  return (
    <div className="topbar__setting">
      <label htmlFor={id}>{t('common:theme')}</label>
      <select
        id={id}
        className="topbar__select"
        data-testid="theme-select"
        value={choice}
        onChange={(event) => {
          if (isThemeChoice(event.target.value)) choose(event.target.value);
        }}
      >
        {THEME_CHOICES.map((value) => (
          <option key={value} value={value}>
            {labels[value]}
          </option>
        ))}
      </select>
    </div>
  );
}
