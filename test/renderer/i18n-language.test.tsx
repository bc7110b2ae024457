// @vitest-environment happy-dom
import { act } from 'react';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { I18nProvider, useLocaleFormat } from '../../renderer/i18n/I18nProvider';
import { LanguageSelect } from '../../renderer/i18n/LanguageSelect';
import { currentLanguage, languageFromAddress, useLanguage } from '../../renderer/i18n/language';
import { mount, typeInto, type Mounted } from './dom';

function Probe() {
  const { t } = useTranslation();
  const format = useLocaleFormat();
  return (
    <p data-testid="probe">
      {t('common:theme.dark')} | {format.number(1234.5, 1)}
    </p>
  );
}

function probeText(mounted: Mounted): string {
  return mounted.container.querySelector('[data-testid="probe"]')?.textContent ?? '';
}

describe("the renderer's language", () => {
  let mounted: Mounted | undefined;
  beforeEach(() => {
    window.localStorage.clear();
    useLanguage.setState({ system: 'en', chosen: null, fromAddress: null });
  });
  afterEach(() => mounted?.unmount());

  it('follows the system until the technician chooses, keeps the choice, and sets <html lang>', async () => {
    useLanguage.getState().systemChanged(['fr-CH', 'en-US']);
    mounted = await mount(
      <I18nProvider>
        <LanguageSelect />
        <Probe />
      </I18nProvider>,
    );
    expect(probeText(mounted)).toBe('Sombre | 1\u202f234,5');
    expect(document.documentElement.lang).toBe('fr');
    const select = mounted.container.querySelector('select') as HTMLSelectElement;
    expect(select.value).toBe('system');
    expect(select.options[0]?.textContent).toBe('Comme le système (Français)');

    await typeInto(select, 'de');
    expect(probeText(mounted)).toBe('Dunkel | 1.234,5');
    expect(document.documentElement.lang).toBe('de');
    expect(window.localStorage.getItem('provisioner.language')).toBe('de');

    // The system changing does not undo a choice; following the system again does.
    await act(async () => useLanguage.getState().systemChanged(['zh-CN']));
    expect(probeText(mounted)).toBe('Dunkel | 1.234,5');
    await typeInto(select, 'system');
    expect(probeText(mounted)).toBe('深色 | 1,234.5');
    expect(window.localStorage.getItem('provisioner.language')).toBeNull();
  });

  it("takes ?lang= from the page's address, the pseudo-locale included, and refuses what it does not speak", () => {
    expect(languageFromAddress('?lang=en-XA')).toBe('en-XA');
    expect(languageFromAddress('?x=1&lang=es')).toBe('es');
    expect(languageFromAddress('?lang=xx')).toBeNull();
    expect(languageFromAddress('')).toBeNull();
    expect(currentLanguage({ system: 'de', chosen: 'fr', fromAddress: 'en-XA' })).toBe('en-XA');
    expect(currentLanguage({ system: 'de', chosen: 'fr', fromAddress: null })).toBe('fr');
    expect(currentLanguage({ system: 'de', chosen: null, fromAddress: null })).toBe('de');
  });

  it('Traditional Chinese from the system reads English, not Simplified', () => {
    useLanguage.getState().systemChanged(['zh-TW']);
    expect(currentLanguage(useLanguage.getState())).toBe('en');
  });
});
