import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../domain/firmware-version';

describe('compareVersions', () => {
  it('orders numeric parts as numbers and a pre-release before its release', () => {
    expect(['2.9.1', '2.10.0', '2.10.0-rc1', '10.0', '1.0.0'].sort(compareVersions)).toEqual(['1.0.0', '2.9.1', '2.10.0-rc1', '2.10.0', '10.0']);
  });

  it('treats missing parts as zero, ignores a leading v and orders pre-releases numerically', () => {
    expect(compareVersions('2.1', '2.1.0')).toBe(0);
    expect(compareVersions('v2.1.0', '2.1.0')).toBe(0);
    expect(compareVersions('2.0.0-rc2', '2.0.0-rc10')).toBe(-1);
    expect(compareVersions('3.0.0', '2.99.99')).toBe(1);
  });
});
