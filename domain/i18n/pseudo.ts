import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import type { Catalog } from './catalogs.js';

/**
 * The pseudo-locale (en-XA): every literal of an English message accented and padded to about
 * 140 % of its length, between brackets, so that a screen shows at a glance which text came from
 * a catalog (accented, bracketed) and which did not (plain), and whether the longer words of
 * German or French would fit. Placeholders, plurals and selects are kept as they are.
 */

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** The marks that open and close every pseudo-localized message. */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

function accentLiteral(text: string): string {
  return [...text].map((character) => ACCENTED[character] ?? character).join('');
}

/** The letters of the longest way through a message: its literals, and its longest branch. */
function letterCount(elements: readonly MessageFormatElement[]): number {
  let count = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) count += element.value.replace(/[^A-Za-z]/g, '').length;
    else if (element.type === TYPE.plural || element.type === TYPE.select) {
      count += Math.max(0, ...Object.values(element.options).map((option) => letterCount(option.value)));
    } else if (element.type === TYPE.tag) count += letterCount(element.children);
  }
  return count;
}

function accentElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accentLiteral(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [
          key,
          { ...option, value: accentElements(option.value) },
        ]),
      );
      return { ...element, options };
    }
    if (element.type === TYPE.tag) return { ...element, children: accentElements(element.children) };
    return element;
  });
}

export function pseudoLocalizeMessage(message: string): string {
  const ast = parse(message, { ignoreTag: true });
  // About 40 % longer, at the end: German and French run that much longer than English.
  const padding = '~'.repeat(Math.ceil(letterCount(ast) * 0.4));
  return `${PSEUDO_OPEN}${printAST(accentElements(ast))}${padding}${PSEUDO_CLOSE}`;
}

export function pseudoLocalizeCatalog(catalog: Catalog): Catalog {
  return Object.fromEntries(Object.entries(catalog).map(([key, message]) => [key, pseudoLocalizeMessage(message)]));
}
