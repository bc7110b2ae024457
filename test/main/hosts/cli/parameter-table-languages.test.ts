import { describe, expect, it } from 'vitest';
import { compareParameters, parameterChecksum, type ParameterValues } from '../../../../domain/running-parameters';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { parameterTableLines } from '../../../../main/hosts/cli/parameter-table';

/**
 * The parameter table the technician confirms (issue 26) in the run's language (issue 29): the
 * headline, the columns, each parameter's label, value and group, and the checksum lines, read
 * back in German and Chinese; English is as it was. The values and checksums are data and stay.
 */

const intended: ParameterValues = { 'safety.timeout': 500, 'safety.stopCategory': 'CAT0' };
const differing = compareParameters(intended, {
  values: { ...intended, 'safety.timeout': 1000 },
  checksum: parameterChecksum({ ...intended, 'safety.timeout': 1000 }),
  checksumBy: 'device',
});

describe('the parameter table', () => {
  it('is in English as before', () => {
    const lines = inCliLanguage('en', () => parameterTableLines('EPC000101', differing));
    expect(lines[0]).toBe('EPC000101: parameters DIFFER from the configuration');
    expect(lines[1]).toMatch(/^ {2}parameter +intended +running on the device$/);
    expect(lines.find((line) => line.startsWith('✗ Safety timeout'))).toMatch(/500 ms +1000 ms {3}← differs$/);
    expect(lines.find((line) => line.includes('checksum running'))).toMatch(
      /\(computed by the device\) {3}✗ the checksums differ$/,
    );
  });

  it('is in German, its labels from the domain catalog, its values and checksums as they are', () => {
    const lines = inCliLanguage('de', () => parameterTableLines('EPC000101', differing));
    expect(lines[0]).toBe('EPC000101: Parameter WEICHEN von der Konfiguration AB');
    expect(lines[1]).toMatch(/^ {2}Parameter +vorgesehen +auf dem Gerät aktiv$/);
    expect(lines.find((line) => line.startsWith('✗ Sicherheits-Timeout'))).toMatch(/500 ms +1000 ms {3}← weicht ab$/);
    expect(lines.find((line) => line.includes('Prüfsumme aktiv'))).toContain(
      `(vom Gerät berechnet)   ✗ die Prüfsummen weichen ab`,
    );
    expect(lines.join('\n')).not.toMatch(/intended|running on the device|differs/);
  });

  it('is in Chinese', () => {
    const lines = inCliLanguage('zh', () => parameterTableLines('EPC000101', differing));
    expect(lines[0]).toBe('EPC000101：参数与配置不一致');
    expect(lines.find((line) => line.includes('安全超时'))).toMatch(/^✗ 安全超时/);
    expect(lines.some((line) => line.includes('运行校验和'))).toBe(true);
  });
});
