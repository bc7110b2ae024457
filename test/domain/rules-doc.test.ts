import { readdirSync, readFileSync } from 'node:fs';
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
});

describe('violation codes', () => {
  it('are unique', () => {
    expect(new Set(VIOLATION_CODES).size).toBe(VIOLATION_CODES.length);
  });

  it('are each asserted by a domain test or a typical-flow mistake', () => {
    const dir = new URL('./', import.meta.url);
    const tests = readdirSync(dir)
      .filter((name) => name.endsWith('.test.ts') && name !== 'rules-doc.test.ts')
      .map((name) => readFileSync(new URL(name, dir), 'utf8'))
      .concat(readFileSync(new URL('../fixtures/typical-flows.ts', import.meta.url), 'utf8'))
      .join('\n');
    expect(VIOLATION_CODES.filter((code) => !tests.includes(`'${code}'`))).toEqual([]);
  });
});
