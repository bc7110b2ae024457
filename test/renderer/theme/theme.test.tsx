// @vitest-environment happy-dom
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTranslator } from '../../../domain/i18n/index';
import {
  parseThemeChoice,
  resolveTheme,
  SYSTEM_QUERIES,
  type SystemAppearance,
} from '../../../renderer/theme/theme-choice';
import { startTheme, THEME_STORAGE_KEY, useTheme } from '../../../renderer/theme/theme-store';
import { ThemeSelect } from '../../../renderer/theme/ThemeSelect';
import { mount, typeInto, type Mounted } from '../dom';

const PLAIN: SystemAppearance = { dark: false, moreContrast: false, forcedColors: false };

/** The operating system's appearance as matchMedia reports it, changeable while the app runs. */
class FakeSystem {
  private readonly state: Record<string, boolean> = {};
  private readonly listeners = new Map<string, Set<() => void>>();
  set(query: string, matches: boolean): void {
    this.state[query] = matches;
    for (const listener of this.listeners.get(query) ?? []) listener();
  }
  readonly matchMedia = (query: string) => {
    const listeners = this.listeners.get(query) ?? new Set();
    this.listeners.set(query, listeners);
    return {
      get matches() {
        return system.state[query] ?? false;
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    } as unknown as MediaQueryList;
  };
}

let system: FakeSystem;
let stop: (() => void) | undefined;
let mounted: Mounted | undefined;
const html = () => document.documentElement;

beforeEach(() => {
  system = new FakeSystem();
  window.matchMedia = system.matchMedia;
  window.localStorage.clear();
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  stop?.();
  stop = undefined;
});

describe('the theme a choice resolves to', () => {
  it('is the chosen palette whatever the system says', () => {
    const loud: SystemAppearance = { dark: true, moreContrast: true, forcedColors: true };
    expect(resolveTheme('light', loud)).toBe('light');
    expect(resolveTheme('dark', PLAIN)).toBe('dark');
    expect(resolveTheme('high-contrast', PLAIN)).toBe('high-contrast');
  });

  it('follows the system: dark, more contrast and forced colours (contrast wins over dark)', () => {
    expect(resolveTheme('system', PLAIN)).toBe('light');
    expect(resolveTheme('system', { ...PLAIN, dark: true })).toBe('dark');
    expect(resolveTheme('system', { ...PLAIN, moreContrast: true })).toBe('high-contrast');
    expect(resolveTheme('system', { dark: true, moreContrast: false, forcedColors: true })).toBe('high-contrast');
  });

  it('reads an unknown stored value as the system', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('sepia')).toBe('system');
    expect(parseThemeChoice(null)).toBe('system');
  });
});

describe('the theme on the page', () => {
  it('starts from the stored choice and puts it on <html>', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'high-contrast');
    stop = startTheme(window);
    expect(html().dataset.theme).toBe('high-contrast');
    expect(html().dataset.themeChoice).toBe('high-contrast');
  });

  it('follows the system while the choice is the system, and not once one is chosen', () => {
    stop = startTheme(window);
    expect(html().dataset.theme).toBe('light');
    act(() => system.set(SYSTEM_QUERIES.dark, true));
    expect(html().dataset.theme).toBe('dark');
    act(() => system.set(SYSTEM_QUERIES.forcedColors, true));
    expect(html().dataset.theme).toBe('high-contrast');

    act(() => useTheme.getState().choose('light'));
    expect(html().dataset.theme).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    act(() => system.set(SYSTEM_QUERIES.forcedColors, false));
    expect(html().dataset.theme).toBe('light');

    act(() => useTheme.getState().choose('system'));
    expect(html().dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('offers the four choices in the language of the page and applies and keeps the one picked', async () => {
    stop = startTheme(window);
    mounted = await mount(
      <I18nextProvider i18n={createTranslator('de').i18next}>
        <ThemeSelect />
      </I18nextProvider>,
    );
    const select = mounted.container.querySelector('select') as HTMLSelectElement;
    const german = createTranslator('de');
    expect(mounted.container.querySelector('label')?.textContent).toBe(german.t('common:theme'));
    expect([...select.options].map((o) => o.textContent)).toEqual(
      ['common:theme.system', 'common:theme.light', 'common:theme.dark', 'common:theme.highContrast'].map((key) =>
        german.t(key),
      ),
    );
    expect(select.labels?.[0]?.textContent).toBe(german.t('common:theme'));
    expect(select.value).toBe('system');

    await typeInto(select, 'dark');
    expect(html().dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(select.value).toBe('dark');
  });
});
