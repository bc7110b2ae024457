import { describe, expect, it } from 'vitest';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { syncDetail } from '../../../../main/hosts/cli/sync-words';
import type { SyncFinding } from '../../../../domain/sync-detail';

/** `device list`'s notes and `device verify`'s verdicts say a device's sync detail in the run's language. */

const behind = {
  text: 'firmware behind (device 1.0.0, service expects 1.1.0)',
  findings: [{ kind: 'firmwareBehind', version: '1.0.0', expected: '1.1.0' }] satisfies SyncFinding[],
};

describe('syncDetail', () => {
  it('keeps the core’s sentence in English and says the findings in another language', () => {
    expect(inCliLanguage('en', () => syncDetail(behind))).toBe(behind.text);
    expect(inCliLanguage('de', () => syncDetail(behind))).toBe(
      'Firmware veraltet (Gerät 1.0.0, Dienst erwartet 1.1.0)',
    );
    expect(inCliLanguage('es', () => syncDetail(behind))).toBe(
      'firmware desactualizado (dispositivo 1.0.0, el servicio espera 1.1.0)',
    );
  });

  it('keeps the core’s sentence where the core sent no findings', () => {
    expect(inCliLanguage('zh', () => syncDetail({ text: behind.text }))).toBe(behind.text);
  });
});
