import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../domain/i18n/index.js';
import { failurePlace, type FailureReason } from '../../domain/job-failure';
import { failureReasonText } from '../../domain/job-text';

/**
 * Why a job failed, said from its codes and values in the reader's language (issue 29): where it
 * failed, the cause, the percent and counts through Intl and ICU plurals, the device's own words
 * as it sent them. The expected words are written here, not read from the catalogs; Intl puts a
 * no-break space before the percent sign in German and French.
 */

const timeout: FailureReason = { cause: 'deviceTimeout', step: 'firmware', place: 'upload', percent: 37, tries: 3 };

describe('failureReasonText', () => {
  it('says where, the cause and the figures in each language', () => {
    expect(failureReasonText(timeout)).toBe(
      'firmware upload failed at 37%: the device stopped answering after 3 tries',
    );
    expect(failureReasonText(timeout, createTranslator('de'))).toBe(
      'Übertragung der Firmware bei 37\u00a0% fehlgeschlagen: Das Gerät antwortete nach 3 Versuchen nicht mehr',
    );
    expect(failureReasonText(timeout, createTranslator('zh'))).toBe('固件传输在 37% 时失败：尝试 3 次后设备不再应答');
    expect(failureReasonText({ ...timeout, tries: 1 }, createTranslator('fr'))).toBe(
      'échec du transfert du micrologiciel à 37\u00a0% : l’appareil ne répond plus après 1 essai',
    );
  });

  it('keeps the device’s code and words as it sent them, and the link as it is', () => {
    const refused: FailureReason = {
      cause: 'deviceRefused',
      step: 'configuration',
      place: 'apply',
      percent: null,
      deviceCode: 'E_LOCKED',
      deviceMessage: 'configuration locked',
    };
    expect(failureReasonText(refused, createTranslator('es'))).toBe(
      'falló la aplicación de la configuración: el dispositivo lo rechazó (E_LOCKED: configuration locked)',
    );
    expect(
      failureReasonText(
        { cause: 'noAnswer', step: 'firmware', place: 'step', percent: null, tries: 2, link: 'udp:10.0.0.7' },
        createTranslator('de'),
      ),
    ).toBe('an udp:10.0.0.7 antwortet kein Gerät (2 Versuche); nichts wurde gesendet');
  });

  it('says a wait in the language’s units, and a cancelled upload at its percent', () => {
    const gone: FailureReason = {
      cause: 'deviceGone',
      step: 'firmware',
      place: 'reboot',
      percent: null,
      waitedSeconds: 72,
    };
    expect(failureReasonText(gone, createTranslator('zh'))).toBe('设备重启后未恢复连接：设备在 1 分 12 秒内未恢复连接');
    expect(
      failureReasonText({ cause: 'cancelled', step: 'firmware', place: 'upload', percent: 40 }, createTranslator('de')),
    ).toBe('bei 40\u00a0% der Übertragung abgebrochen');
  });

  it('maps a job’s phase to where it failed', () => {
    expect(
      ['uploading', 'applying', 'rebooting', 'checking', 'verifying-parameters', 'downloading', 'confirming'].map(
        failurePlace,
      ),
    ).toEqual(['upload', 'apply', 'reboot', 'readBack', 'parameters', 'fetch', 'step']);
  });
});
