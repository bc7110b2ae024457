import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../domain/i18n/index.js';
import { compareParameters, parameterChecksum, type ParameterValues } from '../../domain/running-parameters';
import { keptApartText, parametersDifferReason, type KeptApartReason } from '../../domain/station-kept-apart';

/**
 * Why a Station lane is kept apart, as codes and values (issue 29): the English is the sentence the
 * station core wrote before, and another language names the parameters and their choices in its
 * own words while the figures stay as the device sent them.
 */

const timeout: KeptApartReason = {
  kind: 'parametersDiffer',
  rows: [
    { key: 'safety.timeout', unit: 'ms', first: 500, second: 1024 },
    { key: 'device.role', unit: '', first: 'Receiver', second: 'Sender' },
  ],
};

describe('a kept-apart lane in words', () => {
  it('says in English what the station said before', () => {
    expect(keptApartText(timeout)).toBe(
      'The device took its configuration file but does not run its parameters: Safety timeout 500 ms intended, 1024 ms running; Device role Receiver intended, Sender running.',
    );
    expect(
      keptApartText({ kind: 'shiftChanged', rows: [{ key: 'safety.timeout', unit: 'ms', first: 750, second: 500 }] }),
    ).toBe(
      'It runs parameters no one confirmed for this shift: the configuration changed since the shift began (Safety timeout 750 ms now, 500 ms confirmed).',
    );
    expect(keptApartText({ kind: 'shiftChecksumChanged', now: '0A1B2C3D', confirmed: '99887766' })).toBe(
      'It runs parameters no one confirmed for this shift: the configuration changed since the shift began (intended checksum 0A1B2C3D now, 99887766 confirmed).',
    );
    expect(keptApartText({ kind: 'checksumsDiffer' })).toBe(
      'The device took its configuration file but does not run its parameters: the checksums differ.',
    );
  });

  it('names the parameters and choices in German and Chinese, the figures as the device sent them', () => {
    const german = keptApartText(timeout, createTranslator('de'));
    expect(german).toContain('Sicherheits-Timeout vorgesehen 500 ms, im Gerät 1024 ms');
    expect(german).toContain('Geräterolle');
    expect(german).not.toMatch(/Safety timeout|intended|running|Receiver intended/);
    const chinese = keptApartText(timeout, createTranslator('zh'));
    expect(chinese).toContain('安全超时 预期 500 ms，实际运行 1024 ms；');
    expect(chinese).not.toMatch(/[A-Za-z]{4,} (intended|running)/);
  });

  it('is made from a comparison: the differing rows, else which checksum failed', () => {
    const intended: ParameterValues = { 'device.serialNumber': 'EPC000101', 'safety.timeout': 500 };
    const running: ParameterValues = { 'device.serialNumber': 'EPC000101', 'safety.timeout': 1024 };
    const differing = compareParameters(intended, {
      values: running,
      checksum: parameterChecksum(running),
      checksumBy: 'device',
    });
    expect(parametersDifferReason(differing)).toEqual({
      kind: 'parametersDiffer',
      rows: [{ key: 'safety.timeout', unit: 'ms', first: 500, second: 1024 }],
    });
    // Every value as intended, but the device's checksum is not that of its values.
    const garbled = compareParameters(intended, {
      values: intended,
      checksum: parameterChecksum(running),
      checksumBy: 'device',
    });
    expect(parametersDifferReason(garbled).kind).toMatch(/^checksum/);
  });
});
