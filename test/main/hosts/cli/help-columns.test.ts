import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { createTranslator } from '../../../../domain/i18n/index.js';

/**
 * `--help` fits a terminal of 80 columns in every language (main/hosts/cli/cli-help.ts). Commander
 * counts one column per character and breaks at spaces only, so a Chinese description ran past
 * the edge; now it breaks between characters. Output that is not a terminal (as here) is laid out
 * for 80 columns. The columns are counted here by their own rule, not by the code under test: a
 * CJK character or fullwidth sign is two, anything else one.
 */

const WIDE = /[\u1100-\u115f\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const columns = (line: string) => [...line].reduce((sum, character) => sum + (WIDE.test(character) ? 2 : 1), 0);
/** Punctuation a Chinese line must not start with. */
const CLOSING = /^\s*[，。、：；！？）》”]/u;

const COMMANDS = [
  [],
  ['device'],
  ['device', 'configuration', 'update'],
  ['device', 'firmware', 'download'],
  ['station'],
  ['cache'],
  ['package', 'import'],
  ['ledger'],
  ['report'],
] as const;

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cli-help-columns-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const help = async (locale: string, command: readonly string[]) => {
  const run = await runCliIn(home, [...command, '--help'], { env: { PATH: process.env.PATH, LANG: locale } });
  expect(run.code).toBe(0);
  return run.stdout;
};

describe('--help at 80 columns', () => {
  for (const [language, locale] of [
    ['zh', 'zh_CN.UTF-8'],
    ['de', 'de_DE.UTF-8'],
    ['fr', 'fr_FR.UTF-8'],
    ['es', 'es_ES.UTF-8'],
    ['en', 'en_GB.UTF-8'],
  ] as const) {
    it(`no line of ${language} help is wider than 80 columns`, async () => {
      for (const command of COMMANDS) {
        const text = await help(locale, command);
        for (const line of text.split('\n')) {
          expect(columns(line), `${command.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
          expect(line, `${command.join(' ')}: a line starts with closing punctuation`).not.toMatch(CLOSING);
        }
      }
    });
  }

  it('breaks the station’s long Chinese description between characters and loses none of it', async () => {
    const text = await help('zh_CN.UTF-8', ['--help']);
    const description = createTranslator('zh').t('cli:help.station');
    // The description column, its lines joined again without the indentation and the breaks.
    const start = text.indexOf('  station [options]');
    const block = text.slice(start).split('\n');
    const lines = [block[0]!.replace(/^ {2}station \[options\] +/, '')];
    for (const line of block.slice(1)) {
      if (!/^ {20,}\S/.test(line)) break;
      lines.push(line.trim());
    }
    expect(lines.length).toBeGreaterThan(5);
    // A break inside Chinese drops nothing; a break at a space drops the space.
    expect(lines.join('').replace(/ /g, '')).toBe(description.replace(/ /g, ''));
  });
});
