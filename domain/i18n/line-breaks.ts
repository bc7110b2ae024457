/**
 * Where a line of text may break, and how wide it is on a terminal, in every language we speak.
 * Latin text breaks at spaces. Chinese has no spaces: it breaks between any two characters, but
 * never before closing punctuation (，。：）…) nor after opening punctuation (（“《…), the rule
 * Chinese typesetting calls 避头尾. A Chinese character takes two columns of a terminal, a Latin
 * letter one. Pure: the CLI's --help (main/hosts/cli/cli-help.ts) and the PDF reports
 * (main/features/report/pdf-fonts.ts) use it.
 */

/** Characters of the CJK scripts and their punctuation, between any two of which a line may break. */
export const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;
/** Characters a line must not start with (CJK closing punctuation): they stay with the one before. */
const CLOSING = /[，。、：；！？）」』】〕〉》”’…·%]/u;
/** Characters a line must not end with (CJK opening punctuation): they stay with the one after. */
const OPENING = /[（「『【〔〈《“‘]/u;

/** The pieces a line may break between, each with the spaces before it. */
export function breakable(text: string): { gap: string; text: string }[] {
  const tokens: { gap: string; text: string }[] = [];
  let gap = '';
  let current: { gap: string; text: string } | null = null;
  for (const character of text) {
    if (character === ' ') {
      current = null;
      gap += ' ';
      continue;
    }
    const previous = current ? [...current.text].at(-1) : undefined;
    const cjkBoundary =
      previous !== undefined &&
      (CJK.test(character) || CJK.test(previous)) &&
      !CLOSING.test(character) &&
      !OPENING.test(previous);
    if (current === null || cjkBoundary) {
      current = { gap, text: '' };
      tokens.push(current);
      gap = '';
    }
    current.text += character;
  }
  return tokens;
}

/**
 * Code points a terminal draws two columns wide: the Wide and Fullwidth classes of Unicode's East
 * Asian Width (UAX #11) for Hangul, the CJK scripts, their punctuation and fullwidth forms, and
 * the emoji blocks drawn as pictures.
 */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Combining marks, zero-width spaces and joiners, variation selectors: drawn on the character before. */
// Variation selectors are marks (\p{M}) too.
const ZERO_WIDTH = /^(?:\p{M}|[\u200b-\u200f\u2060])$/u;

// The escape sequences that colour terminal text take no columns (ESC [ … m).
// eslint-disable-next-line no-control-regex
const COLOUR = /\u001b\[[\d;]*m/g;

/** Columns one character takes on a terminal: 0, 1 or 2. */
export function characterWidth(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x20 || ZERO_WIDTH.test(character)) return 0;
  for (const [first, last] of WIDE) if (code >= first && code <= last) return 2;
  return 1;
}

/** Columns a line of text takes on a terminal; colour escape sequences take none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text.replace(COLOUR, '')) width += characterWidth(character);
  return width;
}

/**
 * Text wrapped to lines of at most `width` columns, its own line breaks kept: at spaces, and in
 * Chinese between characters (see breakable). A line's indentation stays; the spaces at a break
 * go. A word wider than a line (a path, an environment variable) stands on a line of its own.
 */
export function wrapColumns(text: string, width: number): string {
  const wrapped: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let current = '';
    let first = true;
    for (const token of breakable(line)) {
      const next = first ? token.gap + token.text : `${current}${token.gap}${token.text}`;
      if (!first && displayWidth(next) > width) {
        wrapped.push(current);
        current = token.text;
      } else current = next;
      first = false;
    }
    wrapped.push(current);
  }
  return wrapped.join('\n');
}
