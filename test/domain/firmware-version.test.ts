import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../domain/firmware-version';

describe('compareVersions', () => {
  it('orders numeric parts as numbers and a pre-release before its release', () => {
    expect(['2.9.1', '2.10.0', '2.10.0-rc1', '10.0', '1.0.0'].sort(compareVersions)).toEqual([
      '1.0.0',
      '2.9.1',
      '2.10.0-rc1',
      '2.10.0',
      '10.0',
    ]);
  });

  it('treats missing parts as zero, ignores a leading v and orders pre-releases numerically', () => {
    expect(compareVersions('2.1', '2.1.0')).toBe(0);
    expect(compareVersions('v2.1.0', '2.1.0')).toBe(0);
    expect(compareVersions('2.0.0-rc2', '2.0.0-rc10')).toBe(-1);
    expect(compareVersions('3.0.0', '2.99.99')).toBe(1);
  });

  it('is the one order of versions: the cases where the service once ordered differently', () => {
    // server/store/firmware.ts had a second compareVersions that read pre-releases as text and kept 'v' and '+'.
    expect(compareVersions('2.0.0-rc10', '2.0.0-rc2')).toBe(1);
    expect(compareVersions('v2.1.0', '2.0.9')).toBe(1);
    expect(compareVersions('1.0+10', '1.0+9')).toBe(1);
  });
});
