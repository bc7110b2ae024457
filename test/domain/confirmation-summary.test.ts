import { describe, expect, it } from 'vitest';
import { confirmationSummaryOf, confirmationSummaryText } from '../../domain/confirmation-summary';
import { createTranslator } from '../../domain/i18n/index.js';

/**
 * What an outbox entry confirms, in one line (issue 29): the English is the line the core's
 * Outbox view sent before; other languages say it in their words, the version, the syncId's start
 * and the device's error as they are.
 */

const at = '2026-11-29T06:00:00.000Z';
const syncId = '3f9a0c12-0000-4000-8000-000000000001';
const firmware = (deployed: boolean, extra: { error?: string; reason?: 'observation' } = {}) =>
  confirmationSummaryOf({
    kind: 'firmware',
    payload: { firmwareFileSuccessfullyDeployed: deployed, firmwareVersion: '1.1.0', applyTimeStamp: at, ...extra },
  });
const configuration = (deployed: boolean, extra: { error?: string; reason?: 'observation' } = {}) =>
  confirmationSummaryOf({
    kind: 'configuration',
    payload: { configurationFileSuccessfullyDeployed: deployed, syncId, applyTimeStamp: at, ...extra },
  });

describe('an outbox entry in one line', () => {
  it('says in English what the Outbox view said before', () => {
    expect(confirmationSummaryText(firmware(true))).toBe('Firmware 1.1.0 applied');
    expect(confirmationSummaryText(firmware(true, { reason: 'observation' }))).toBe('Firmware 1.1.0 observed');
    expect(confirmationSummaryText(firmware(false, { error: 'power lost' }))).toBe('Firmware failed: power lost');
    expect(confirmationSummaryText(configuration(true))).toBe('Configuration 3f9a0c12 applied');
    expect(confirmationSummaryText(configuration(false))).toBe('Configuration failed: no reason given');
  });

  it('says it in German and Chinese, the data as it is', () => {
    const de = createTranslator('de');
    expect(confirmationSummaryText(configuration(true), de)).toBe('Konfiguration 3f9a0c12 angewendet');
    expect(confirmationSummaryText(firmware(false, { error: 'power lost' }), de)).toBe(
      'Firmware fehlgeschlagen: power lost',
    );
    expect(confirmationSummaryText(configuration(false), createTranslator('zh'))).toBe('配置失败：未给出原因');
  });
});
