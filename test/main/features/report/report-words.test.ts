import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { breakable } from '../../../../main/features/report/pdf-fonts';
import {
  commissioningStatusText,
  dateTimeText,
  deployStatusText,
  listText,
  namesText,
} from '../../../../main/features/report/report-words';

/** The report's values as a person reads them: no ISO timestamps, no enum names (issue 32). */

describe('the report in words', () => {
  it('states a time with its date, 24-hour time and zone, in the zone asked for', () => {
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'UTC')).toBe('28 Nov 2026, 17:05 UTC');
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'Europe/Berlin')).toBe('28 Nov 2026, 18:05 CET');
    // After midnight in that zone: the date moves too.
    expect(dateTimeText('2026-07-01T23:30:00Z', 'Europe/Berlin')).toBe('2 Jul 2026, 01:30 CEST');
    expect(dateTimeText('2026-01-05T03:04:00Z', 'America/New_York')).toBe('4 Jan 2026, 22:04 GMT-5');
  });

  it('gives back what is not a time, and says an unknown zone in UTC', () => {
    expect(dateTimeText('not recorded', 'UTC')).toBe('not recorded');
    expect(dateTimeText('2026-11-28T17:05:00Z', 'Mars/Olympus_Mons')).toBe('28 Nov 2026, 17:05 UTC');
  });

  it('says the deploy status in words, and an unknown one as it is', () => {
    expect(deployStatusText('NotDeployed')).toBe('Not yet applied');
    expect(deployStatusText('Deployed')).toBe('Deployed');
    expect(deployStatusText('Outdated')).toMatch(/^Outdated: the configuration changed after it was applied/);
    expect(deployStatusText('Failed')).toMatch(/^Failed: /);
    expect(deployStatusText('Paused')).toBe('Paused');
  });

  it('joins names as a sentence does', () => {
    expect(namesText([])).toBe('');
    expect(namesText(['Ada Lovelace'])).toBe('Ada Lovelace');
    expect(namesText(['Ada', 'Bob'])).toBe('Ada and Bob');
    expect(namesText(['Ada', 'Bob', 'Cy'])).toBe('Ada, Bob and Cy');
  });

  it("says times, statuses and lists in the reader's language (issue 29)", () => {
    const de = createTranslator('de');
    const zh = createTranslator('zh');
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'Europe/Berlin', de.locale)).toBe('28. Nov. 2026, 18:05 MEZ');
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'UTC', zh.locale)).toBe('2026年11月28日 UTC 17:05');
    // No narrow no-break space: the PDF's fonts would print it as a question mark.
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'UTC', 'fr-FR')).not.toMatch(/[\u202f\u2009]/);
    expect(deployStatusText('NotDeployed', de)).toBe('Noch nicht aufgespielt');
    expect(deployStatusText('Paused', de)).toBe('Paused');
    expect(namesText(['Ada', 'Bob', 'Cy'], de.locale)).toBe('Ada, Bob und Cy');
    expect(listText(['EPC000101', 'EPC000102'], zh)).toBe('EPC000101、EPC000102');
    expect(commissioningStatusText('untested', ['function test'])).toBe(
      'not commissioned: no function test since the configuration was applied (missing: function test)',
    );
    expect(commissioningStatusText('unverified', ['parameter verification', 'function test'], de)).toBe(
      'nicht in Betrieb genommen: seine Parameter wurden seit dem Aufspielen der Konfiguration nicht geprüft und bestätigt (fehlt: Parameterprüfung, Funktionsprüfung)',
    );
    // The failed step is named by the words already, and not again among the missing.
    expect(commissioningStatusText('not-commissioned', ['function test'], zh)).toBe('未调试：功能测试失败');
  });

  it('breaks Latin text at spaces and Chinese between characters, never before closing or after opening punctuation', () => {
    const pieces = (text: string) => breakable(text).map((token) => `${token.gap}${token.text}`);
    expect(pieces('Safety timeout  500 ms')).toEqual(['Safety', ' timeout', '  500', ' ms']);
    expect(pieces('状态：已调试（参数）')).toEqual(['状', '态：', '已', '调', '试', '（参', '数）']);
    expect(pieces('配置“Loader 7”')).toEqual(['配', '置', '“Loader', ' 7”']);
    expect(breakable('EPC000101的参数').map((t) => t.text)).toEqual(['EPC000101', '的', '参', '数']);
  });
});
