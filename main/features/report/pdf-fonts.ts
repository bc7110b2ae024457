import { access, readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type Color, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { breakable, CJK } from '../../../domain/i18n/line-breaks.js';

/**
 * The fonts a report needs, and text drawn through them. Latin text (English, and German, French
 * and Spanish with their ä ö ü ß é è ç ñ « ») is set in the PDF standard fonts Helvetica and
 * Courier, whose WinAnsi encoding holds all of it: nothing is embedded and every reader has them.
 * Chinese needs a CJK font: DroidSansFallbackFull.ttf from Debian's fonts-droid-fallback (a plain
 * TrueType file; docs/decisions.md says why this one), embedded as a subset of the glyphs the
 * report uses (@pdf-lib/fontkit), so a report grows by tens of kilobytes, not four megabytes.
 *
 * The CJK font has no Latin letters, so a line is drawn in runs: each character in the standard
 * font when WinAnsi has it, else in the CJK font when that has it, else as "?" (a character no
 * font here can show stays visible as missing, never silently dropped).
 */

export type FontName = 'regular' | 'bold' | 'mono';

/**
 * Where a CJK TrueType font is found: Debian's fonts-droid-fallback first (the package .ci/run and
 * the README install), then plain .ttf files with Chinese glyphs that Windows and macOS ship, for
 * the desktop app there (collections, .ttc, cannot be embedded as they are).
 */
export const CJK_FONT_PATHS = [
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  '/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf',
  'C:\\Windows\\Fonts\\simhei.ttf',
  '/System/Library/Fonts/Supplemental/Arial Unicode.ttf',
  '/Library/Fonts/Arial Unicode.ttf',
] as const;

/** Set to a .ttf or .otf file with Chinese glyphs to use it instead of the Debian package's. */
export const CJK_FONT_VARIABLE = 'PROVISIONER_CJK_FONT';

/** A report that needs a font this machine lacks, said with how to get it. */
export class ReportFontError extends Error {
  override readonly name = 'ReportFontError';
}

/** Whether a text has any character only a CJK font can show. */
export function needsCjkFont(text: string): boolean {
  return CJK.test(text);
}

/** The first CJK font file that exists: the one named by PROVISIONER_CJK_FONT, else Debian's. Null when there is none. */
export async function findCjkFont(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string | null> {
  const asked = environment[CJK_FONT_VARIABLE];
  const candidates = asked ? [asked] : CJK_FONT_PATHS;
  for (const path of candidates) {
    try {
      await access(path);
      return path;
    } catch {
      // Not there: the next one.
    }
  }
  return null;
}

interface SubsetPrototype {
  _addGlyph(this: { glyf: Uint8Array[]; offset: number }, gid: number): number;
  evenGlyphs?: true;
}

/**
 * Works around a bug of @pdf-lib/fontkit 1.1.1's TrueType subsetter: it copies each glyph's bytes
 * as they are, and when the subset is small enough for the short `loca` format (offsets stored
 * halved) an odd-length glyph makes every offset after it odd, and halving them shifts every
 * later glyph: most of the Chinese characters then print blank (pdftotext still reads them, from
 * the ToUnicode map, so only the eye sees it). DroidSansFallbackFull.ttf has odd-length glyphs.
 * Each glyph is padded with a zero byte to an even length, as the TrueType format allows; the
 * test reads every glyph of the embedded subset back. Patched once, on the subsetter's prototype.
 */
function evenGlyphsInSubsets(fontBytes: Uint8Array): void {
  const subset = fontkit.create(fontBytes).createSubset();
  const prototype = Object.getPrototypeOf(subset) as SubsetPrototype;
  if (prototype.evenGlyphs) return;
  const addGlyph = prototype._addGlyph;
  prototype._addGlyph = function (gid) {
    const index = addGlyph.call(this, gid);
    const glyph = this.glyf[index];
    if (glyph !== undefined && glyph.length % 2 === 1) {
      // The subsetter's own Buffer class (its bundled one, not Node's): its encoder takes no other.
      const BufferClass = glyph.constructor as unknown as {
        concat(list: Uint8Array[]): Uint8Array;
        alloc(size: number): Uint8Array;
      };
      this.glyf[index] = BufferClass.concat([glyph, BufferClass.alloc(1)]);
      this.offset += 1;
    }
    return index;
  };
  prototype.evenGlyphs = true;
}

/** Stand-ins for the few characters our own messages use that WinAnsi lacks. */
const STAND_INS: Readonly<Record<string, string>> = {
  '→': '->',
  '\u202f': ' ',
  '\u2009': ' ',
  '\u00a0': ' ',
  '\u3000': ' ',
};

interface Run {
  text: string;
  font: PDFFont;
}

/** The report's fonts, and how a text is measured, wrapped and drawn with them. */
export class ReportFonts {
  private readonly winAnsi: ReadonlySet<number>;
  private readonly cjkGlyphs: ReadonlySet<number>;

  private constructor(
    private readonly latin: Record<FontName, PDFFont>,
    private readonly cjk: PDFFont | null,
  ) {
    this.winAnsi = new Set(latin.regular.getCharacterSet());
    this.cjkGlyphs = new Set(cjk?.getCharacterSet() ?? []);
  }

  /**
   * Embeds the fonts `texts` need: the standard ones always, the CJK font (as a subset) when
   * `cjk` is 'required' (a Chinese report) or when some text has a CJK character and the font
   * is on this machine. A Chinese report without the font is refused, saying how to install it.
   */
  static async embed(doc: PDFDocument, cjk: 'required' | 'if-used' | 'no', texts: () => string): Promise<ReportFonts> {
    const latin = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      mono: await doc.embedFont(StandardFonts.Courier),
    };
    const wanted = cjk === 'required' || (cjk === 'if-used' && needsCjkFont(texts()));
    if (!wanted) return new ReportFonts(latin, null);
    const path = await findCjkFont();
    if (path === null) {
      if (cjk === 'required') {
        throw new ReportFontError(
          `A report in Chinese needs a font with Chinese characters, and none is installed: install the Debian package fonts-droid-fallback (apt-get install fonts-droid-fallback), or set ${CJK_FONT_VARIABLE} to a .ttf or .otf file with Chinese glyphs.`,
        );
      }
      return new ReportFonts(latin, null);
    }
    doc.registerFontkit(fontkit);
    const bytes = await readFile(path);
    evenGlyphsInSubsets(bytes);
    return new ReportFonts(latin, await doc.embedFont(bytes, { subset: true }));
  }

  /** The text cut into runs of one font each. */
  private runs(text: string, name: FontName): Run[] {
    const runs: Run[] = [];
    for (const character of text) {
      const codePoint = character.codePointAt(0) ?? 0x3f;
      let font = this.latin[name];
      let shown = character;
      if (!this.winAnsi.has(codePoint)) {
        if (this.cjk !== null && this.cjkGlyphs.has(codePoint)) font = this.cjk;
        else shown = STAND_INS[character] ?? '?';
      }
      const last = runs.at(-1);
      if (last && last.font === font) last.text += shown;
      else runs.push({ text: shown, font });
    }
    return runs;
  }

  width(text: string, name: FontName, size: number): number {
    return this.runs(text, name).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
  }

  draw(page: PDFPage, text: string, at: { x: number; y: number; size: number; font: FontName; color: Color }): void {
    let x = at.x;
    for (const run of this.runs(text, at.font)) {
      page.drawText(run.text, { x, y: at.y, size: at.size, font: run.font, color: at.color });
      x += run.font.widthOfTextAtSize(run.text, at.size);
    }
  }

  /**
   * Lines of at most `width` points. Latin text breaks at spaces; Chinese, which has none, between
   * any two characters, but never before closing punctuation nor after opening punctuation. A word
   * longer than a line (a hash) stands on a line of its own.
   */
  wrap(text: string, name: FontName, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const token of breakable(text)) {
      const next = line === '' ? token.text : `${line}${token.gap}${token.text}`;
      if (line === '' || this.width(next, name, size) <= width) line = next;
      else {
        lines.push(line);
        line = token.text;
      }
    }
    lines.push(line);
    return lines;
  }
}

// Where a line may break (Latin at spaces, Chinese between characters but not around its
// punctuation) is the same rule as the CLI's --help: domain/i18n/line-breaks.ts.
export { breakable };
