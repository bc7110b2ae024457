import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../domain/i18n/index.js';
import { resultText, stepSummaryText } from '../../../renderer/workbench/step-words';

/** The core's English step summaries, said in the reader's language on the Workbench (issue 29). */
describe('step summaries in words', () => {
  it('reads a known sentence back with its figures and says it in German and Chinese', () => {
    expect(stepSummaryText('configuration 5bbf3c5a applied', createTranslator('de'))).toBe(
      'Konfiguration 5bbf3c5a aufgespielt',
    );
    expect(
      resultText(
        'firmware 1.1.0 installed (was 1.0.0); the upload resumed at 37%; configuration 5bbf3c5a applied',
        createTranslator('de'),
      ),
    ).toBe(
      'Firmware 1.1.0 installiert (vorher 1.0.0); die Übertragung wurde bei 37\u00a0% fortgesetzt; Konfiguration 5bbf3c5a aufgespielt',
    );
    expect(resultText('firmware 1.1.0 installed (was 1.0.0); the upload resumed at 37%')).toBe(
      'firmware 1.1.0 installed (was 1.0.0); the upload resumed at 37%',
    );
    expect(stepSummaryText('confirmed to the service', createTranslator('zh'))).toBe('已向服务确认');
  });

  it('is the identity in English, and keeps a sentence it does not know as the core wrote it', () => {
    for (const sentence of [
      'the device reports firmware 1.1.0',
      'parameters match the configuration, checksum 2DB5856E: a person confirms them',
    ]) {
      expect(stepSummaryText(sentence)).toBe(sentence);
    }
    expect(stepSummaryText('something new the core says', createTranslator('fr'))).toBe('something new the core says');
  });
});
