import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CATALOGS, LANGUAGES, NAMESPACES } from '../../../domain/i18n/index.js';

/** Each argument a message takes, with its kind (plain, number, plural, select…). */
function argumentsOf(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      argumentsOf(element.children, into);
      continue;
    }
    into.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

function placeholders(message: string): string[] {
  return [...argumentsOf(parse(message, { ignoreTag: true }))].sort();
}

describe('the catalogs', () => {
  for (const language of LANGUAGES) {
    for (const namespace of NAMESPACES) {
      const catalog = CATALOGS[language][namespace];
      const english = CATALOGS.en[namespace];
      it(`${language}/${namespace}: every message is valid ICU MessageFormat`, () => {
        for (const [key, message] of Object.entries(catalog)) {
          expect(() => parse(message, { ignoreTag: true }), `${language}/${namespace}.json "${key}"`).not.toThrow();
          expect(message.trim(), `${language}/${namespace}.json "${key}" is empty`).not.toBe('');
        }
      });
      if (language === 'en') continue;
      it(`${language}/${namespace}: has every English key and no other`, () => {
        expect(Object.keys(catalog).sort(), `keys of ${language}/${namespace}.json`).toEqual(
          Object.keys(english).sort(),
        );
      });
      it(`${language}/${namespace}: each message takes the same arguments as the English one`, () => {
        for (const [key, message] of Object.entries(english)) {
          const translated = catalog[key];
          if (translated === undefined) continue;
          expect(placeholders(translated), `${language}/${namespace}.json "${key}"`).toEqual(placeholders(message));
        }
      });
    }
  }

  it('every key the code asks for by name is in the English catalog', () => {
    // `t('namespace:key'` literals across the source; keys built at run time are checked by the
    // tests of the code that builds them.
    const roots = ['domain', 'main', 'renderer', 'server', 'contract'];
    const missing: string[] = [];
    const walk = (directory: string): void => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'node_modules') walk(path);
        } else if (/\.(ts|tsx)$/.test(name)) {
          const text = readFileSync(path, 'utf8');
          for (const match of text.matchAll(/\bt\(\s*['"`]([a-z]+):([^'"`$]+)['"`]/g)) {
            const [, namespace, key] = match;
            const catalog = (CATALOGS.en as Record<string, Record<string, string>>)[namespace!];
            if (catalog === undefined || catalog[key!] === undefined) missing.push(`${path}: ${namespace}:${key}`);
          }
        }
      }
    };
    for (const root of roots) walk(root);
    expect(missing).toEqual([]);
  });
});
