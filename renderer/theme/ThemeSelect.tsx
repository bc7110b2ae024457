import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isThemeChoice, THEME_CHOICES, type ThemeChoice } from './theme-choice';
import { useTheme } from './theme-store';

/**
 * The workstation's theme: As the system, Light, Dark or High contrast. The choice applies at
 * once and is kept for the next start (theme-store.ts). Its words are the common namespace's.
 */
export function ThemeSelect({ className }: { className?: string }) {
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
    <div className={['theme-select', className].filter(Boolean).join(' ')}>
      <label className="theme-select__label" htmlFor={id}>
        {t('common:theme')}
      </label>
      <select
        id={id}
        className="input input--inline theme-select__input"
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
