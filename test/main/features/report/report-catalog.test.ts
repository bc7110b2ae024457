import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGS, createTranslator, LANGUAGES } from '../../../../domain/i18n/index.js';
import type { CommissioningState, CommissioningStep } from '../../../../domain/ledger-commissioning';
import { commissioningStatusText, deployStatusText } from '../../../../main/features/report/report-words';

/**
 * The report namespace's keys built at run time (a deploy status, a commissioning state, a step)
 * exist in every language, and every key of the namespace is asked for by the code that writes
 * reports: a key no code asks for is a sentence a translator keeps up for nothing.
 */

const SOURCES = [
  'main/features/report/report-pdf.ts',
  'main/features/report/report-words.ts',
  'main/hosts/cli/commands/report.ts',
];
const STATES: CommissioningState[] = [
  'commissioned',
  'not-commissioned',
  'parameters-differ',
  'untested',
  'unverified',
];
const STEPS: CommissioningStep[] = ['configuration apply', 'parameter verification', 'function test'];

describe('the report catalog', () => {
  it('has words for every deploy status, commissioning state and missing step in every language', () => {
    for (const language of LANGUAGES) {
      const words = createTranslator(language);
      for (const status of ['NotDeployed', 'Outdated', 'Deployed', 'Failed'])
        expect(deployStatusText(status, words), `${language} ${status}`).not.toMatch(/^report:|deployStatus\./);
      for (const state of STATES)
        expect(commissioningStatusText(state, STEPS, words), `${language} ${state}`).not.toMatch(
          /report:|commissioning(Step)?\./,
        );
    }
  });

  it('has no key that no code asks for', () => {
    const text = SOURCES.map((path) => readFileSync(path, 'utf8')).join('\n');
    const literal = new Set([...text.matchAll(/['"`]report:([^'"`$]+)['"`]/g)].map((match) => match[1]!));
    const prefixes = [...text.matchAll(/`report:([^`$]+)\$\{/g)].map((match) => match[1]!);
    expect(prefixes.sort()).toEqual(['commissioning.', 'commissioningStep.', 'deployStatus.']);
    const unused = Object.keys(CATALOGS.en.report).filter(
      (key) => !literal.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
    // And each literal key the code asks for exists (the catalog test checks t('…') calls; these include keys passed to a helper).
    expect([...literal].filter((key) => CATALOGS.en.report[key] === undefined)).toEqual([]);
  });
});
