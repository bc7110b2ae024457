import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VIOLATION_CODES } from '../../domain';

const doc = readFileSync(new URL('../../docs/configuration-rules.md', import.meta.url), 'utf8');

describe('docs/configuration-rules.md', () => {
  it('lists every violation code', () => {
    const missing = VIOLATION_CODES.filter((code) => !doc.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('names no code the domain does not have', () => {
    const named = [...doc.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]);
    const known = new Set<string>(VIOLATION_CODES);
    const enumValuesAndNames = /^BITRATE_|^VOLTAGE_|^BAUDRATE_|^NOT_USED$|^ESTOP_|^VIOLATION_CODES$/;
    expect(named.filter((code) => code !== undefined && !known.has(code) && !enumValuesAndNames.test(code))).toEqual([]);
  });

  it('has unique codes', () => {
    expect(new Set(VIOLATION_CODES).size).toBe(VIOLATION_CODES.length);
  });
});
