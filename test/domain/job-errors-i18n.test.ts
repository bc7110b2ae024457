import { describe, expect, it } from 'vitest';
import { CATALOGS, createTranslator, LANGUAGES } from '../../domain/i18n/index.js';
import { ERROR_CATALOGUE, errorAdvice, errorTexts } from '../../domain/job-errors';

/**
 * The error texts in five languages (issue 29): the errors catalog holds each code's three texts,
 * English the source of domain/job-errors.ts and docs/errors.md; errorTexts and errorAdvice say
 * them in the translator's language, English by default, and the code never changes.
 */

describe('the errors catalog', () => {
  it('has the three texts of every code, and no key for a code the catalogue does not list', () => {
    const english = CATALOGS.en.errors;
    const expected = new Set([
      'advice',
      ...ERROR_CATALOGUE.flatMap((entry) => ['what', 'why', 'todo'].map((part) => `${entry.code}.${part}`)),
    ]);
    expect(Object.keys(english).filter((key) => !expected.has(key))).toEqual([]);
    expect([...expected].filter((key) => english[key] === undefined)).toEqual([]);
    // An entry whose text was missing would read as its code.
    expect(
      ERROR_CATALOGUE.filter((entry) => [entry.what, entry.why, entry.todo].includes(entry.code)).map(
        (entry) => entry.code,
      ),
    ).toEqual([]);
  });

  it('says a code in each language, the English by default', () => {
    expect(errorAdvice('FW_HASH_MISMATCH')).toBe(
      'The firmware received does not match its checksum: it was damaged on the way or in the file. Run the job again. If it repeats, download the firmware again (provisioner device firmware download) and try once more.',
    );
    expect(errorTexts('DEVICE_DISCONNECTED', createTranslator('de'))?.what).toBe(
      'Die Verbindung zum Gerät ist während des Auftrags abgerissen (Kabel gezogen, Strom weg, BLE außer Reichweite).',
    );
    expect(errorTexts('PARAMETERS_MISMATCH', createTranslator('fr'))?.todo).toMatch(
      /^Ne mettez pas l’appareil en service\./,
    );
    expect(errorTexts('BUSY', createTranslator('es'))?.what).toBe(
      'El dispositivo está ocupado con otro trabajo (otro puesto de trabajo o una actualización en curso).',
    );
    // Chinese joins its sentences without a space.
    expect(errorAdvice('CANCELLED', createTranslator('zh'))).toBe('作业已取消。准备好后请重新运行同一作业。');
  });

  it('finds a family code’s texts in every language', () => {
    for (const language of LANGUAGES) {
      const texts = errorTexts('HTTP_502', createTranslator(language));
      expect(texts?.what, language).toBe(CATALOGS[language].errors['HTTP_*.what']);
    }
    expect(errorTexts('NO_SUCH_CODE_ANYWHERE', createTranslator('de'))).toBeUndefined();
  });

  it('every language says every code in its own words, not the English', () => {
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const same = ERROR_CATALOGUE.filter(
        (entry) => errorTexts(entry.code, createTranslator(language))?.what === entry.what,
      ).map((entry) => entry.code);
      expect(same, language).toEqual([]);
    }
  });
});
