import { describe, expect, it } from 'vitest';
import {
  createTranslator,
  languageFromEnvironment,
  languageOf,
  localeFormat,
  pseudoLocalizeMessage,
  resolveLanguage,
} from '../../../domain/i18n/index.js';

describe('picking a language', () => {
  it('reads POSIX locale names and BCP 47 tags', () => {
    expect(languageOf('de_DE.UTF-8')).toBe('de');
    expect(languageOf('fr_CH@euro')).toBe('fr');
    expect(languageOf('es-MX')).toBe('es');
    expect(languageOf('zh-Hans-CN')).toBe('zh');
    expect(languageOf('zh_CN.UTF-8')).toBe('zh');
    expect(languageOf('en-XA')).toBe('en-XA');
  });

  it('names no language for C, POSIX, an unknown language or Traditional Chinese', () => {
    expect(languageOf('C')).toBeUndefined();
    expect(languageOf('POSIX.UTF-8')).toBeUndefined();
    expect(languageOf('pt_BR')).toBeUndefined();
    expect(languageOf('zh-TW')).toBeUndefined();
    expect(languageOf('zh-Hant-HK')).toBeUndefined();
  });

  it('takes the first language spoken from a list, else English', () => {
    expect(resolveLanguage(['pt-BR', 'fr-FR', 'de'])).toBe('fr');
    expect(resolveLanguage(['pt-BR', undefined])).toBe('en');
  });

  it('follows LC_ALL, then LC_MESSAGES, then LANG, and an LC_ALL of C means English', () => {
    expect(languageFromEnvironment({ LANG: 'de_DE.UTF-8' })).toBe('de');
    expect(languageFromEnvironment({ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'de_DE.UTF-8' })).toBe('zh');
    expect(languageFromEnvironment({ LC_ALL: 'es_ES.UTF-8', LC_MESSAGES: 'fr_FR', LANG: 'de' })).toBe('es');
    expect(languageFromEnvironment({ LC_ALL: 'C', LANG: 'fr_FR.UTF-8' })).toBe('en');
    expect(languageFromEnvironment({})).toBe('en');
  });
});

describe('a translator', () => {
  it('formats plurals in each language', () => {
    expect(createTranslator('en').t('common:deviceCount', { count: 1 })).toBe('1 device');
    expect(createTranslator('en').t('common:deviceCount', { count: 2 })).toBe('2 devices');
    expect(createTranslator('de').t('common:deviceCount', { count: 2 })).toBe('2 Geräte');
    expect(createTranslator('zh').t('common:deviceCount', { count: 2 })).toBe('2 台设备');
  });

  it('formats numbers and sizes in the locale', () => {
    expect(localeFormat(createTranslator('de')).bytes(1536 * 1024)).toBe('1,5 MiB');
    expect(localeFormat(createTranslator('en')).bytes(1536 * 1024)).toBe('1.5 MiB');
    expect(localeFormat(createTranslator('fr')).number(1234567)).toMatch(/^1\s234\s567$/u);
  });
});

describe('the pseudo-locale', () => {
  it('accents literals, keeps arguments and plurals, and runs about 40 % longer', () => {
    const message = pseudoLocalizeMessage('Applied {count, plural, one {# file} other {# files}} to {serial}');
    expect(message).toBe('⟦Áþþļíéð {count,plural,one{# ƒíļé} other{# ƒíļéš}} ţó {serial}~~~~~~⟧');
    const padding = /~+/u.exec(message)?.[0].length ?? 0;
    expect(padding).toBe(Math.ceil('Appliedfilesto'.length * 0.4));
    const t = createTranslator('en-XA');
    expect(t.t('common:deviceCount', { count: 2 })).toBe('⟦2 ðéṽíçéš~~~⟧');
  });
});
