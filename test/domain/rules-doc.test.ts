import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationRuleSource, VIOLATION_CODES } from '../../domain';

const doc = readFileSync(new URL('../../docs/configuration-rules.md', import.meta.url), 'utf8');

const CODE = /`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`/g;
/** The sections whose rules are configuration rules: there a rule of ours only warns. */
const CONFIGURATION_SECTIONS = [
  'Configuration settings',
  'Device in a configuration',
  'Devices together',
  'Completeness',
];

/** Every row of a table that has a Source column: its section, the codes it names, and its source. */
function ruleRows(): Array<{ section: string; codes: string[]; source: string; line: string }> {
  const rows: Array<{ section: string; codes: string[]; source: string; line: string }> = [];
  let section = '';
  let sourceColumn = -1;
  for (const line of doc.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('|')) {
      sourceColumn = -1;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (sourceColumn < 0) {
      sourceColumn = cells.indexOf('Source');
      continue;
    }
    if (/^-+$/.test(cells[0] ?? '')) continue;
    // The codes a row is about are in its first cells, before the field and rule texts.
    const codes = [...cells.slice(0, 2).join(' ').matchAll(CODE)]
      .map((m) => m[1]!)
      .filter((c) => (VIOLATION_CODES as readonly string[]).includes(c));
    rows.push({ section, codes, source: cells[sourceColumn] ?? '', line });
  }
  return rows;
}

describe('docs/configuration-rules.md', () => {
  it('lists every violation code', () => {
    const missing = VIOLATION_CODES.filter((code) => !doc.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('names no code the domain does not have', () => {
    const named = [...doc.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]);
    const known = new Set<string>(VIOLATION_CODES);
    const enumValuesAndNames = /^BITRATE_|^VOLTAGE_|^BAUDRATE_|^NOT_USED$|^ESTOP_|^VIOLATION_CODES$/;
    expect(named.filter((code) => code !== undefined && !known.has(code) && !enumValuesAndNames.test(code))).toEqual(
      [],
    );
  });
});

describe('docs/configuration-rules.md names the source of every rule', () => {
  const rows = ruleRows();

  it('every code is in a table that names sources', () => {
    const named = new Set(rows.flatMap((r) => r.codes));
    expect(VIOLATION_CODES.filter((code) => !named.has(code))).toEqual([]);
  });

  it('every rule row says interface or ours', () => {
    expect(rows.filter((r) => !/^(interface|ours|as the kinds it mixes)\b/.test(r.source)).map((r) => r.line)).toEqual(
      [],
    );
  });

  it('a configuration rule is ours in the doc exactly when the domain makes it a warning', () => {
    const mismatched = rows
      .filter((r) => CONFIGURATION_SECTIONS.includes(r.section))
      .flatMap((r) =>
        r.codes.map((code) => ({ code, doc: r.source.split(/\W/)[0], domain: configurationRuleSource(code) })),
      )
      .filter((m) => m.doc !== m.domain);
    expect(mismatched).toEqual([]);
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
