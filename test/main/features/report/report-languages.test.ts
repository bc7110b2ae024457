import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { renderReportPdf } from '../../../../main/features/report';
import { CJK_FONT_VARIABLE, ReportFontError } from '../../../../main/features/report/pdf-fonts';
import { REPORT_IMAGE, REPORT_SYNC, sampleCommissioningReport } from '../../../fixtures/commissioning-report';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * The commissioning report in German and in Chinese (issue 29), read back with poppler's
 * pdftotext: the translated headings and sentences are there, the data (serial numbers, syncIds,
 * hashes, a configuration's name) is there as it is, the report names its language, and the
 * fonts it embeds are what the language needs (pdffonts): none for German, a subset of the CJK
 * font for Chinese.
 */

const run = promisify(execFile);
const scratch = useScratchDir('report-languages');

async function written(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(scratch.dir, name);
  await writeFile(path, bytes);
  // To look at one: PROVISIONER_KEEP_REPORT=/tmp/report npx vitest run test/main/features/report/report-languages.test.ts
  if (process.env.PROVISIONER_KEEP_REPORT) await writeFile(`${process.env.PROVISIONER_KEEP_REPORT}-${name}`, bytes);
  return path;
}

async function pdfText(path: string): Promise<string> {
  return (await run('pdftotext', ['-layout', path, '-'])).stdout;
}

/** pdffonts' table: one line per font, "name type encoding emb sub uni". */
async function pdfFonts(path: string): Promise<string[]> {
  return (await run('pdffonts', [path])).stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '');
}

/** The TrueType fonts embedded in a PDF (FontFile2 streams), as fontkit reads them. */
async function embeddedTrueTypeFonts(path: string): Promise<fontkit.Font[]> {
  const doc = await PDFDocument.load(await readFile(path));
  const fonts: fontkit.Font[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const file = object.get(PDFName.of('FontFile2'));
    if (file === undefined) continue;
    const stream = doc.context.lookup(file);
    if (!(stream instanceof PDFRawStream)) throw new Error('a FontFile2 that is not a stream');
    const filter = stream.dict.get(PDFName.of('Filter'));
    fonts.push(fontkit.create(filter === undefined ? stream.contents : inflateSync(stream.contents)));
  }
  return fonts;
}

const original = process.env[CJK_FONT_VARIABLE];
afterEach(() => {
  if (original === undefined) delete process.env[CJK_FONT_VARIABLE];
  else process.env[CJK_FONT_VARIABLE] = original;
});

describe('the commissioning report in another language', () => {
  it('in German: the headings and sentences in German, umlauts intact, data as it is, and it says it is German', async () => {
    const { report, entries } = await sampleCommissioningReport(join(scratch.dir, 'de'), 'Förderband Süd');
    const path = await written('de.pdf', await renderReportPdf(report, { language: 'de' }));
    const text = await pdfText(path);
    const flat = text.replace(/\s+/g, ' ');
    for (const heading of [
      'Inbetriebnahmeprotokoll',
      'Sicherheitsparameter',
      'Abnahme',
      'Anhang: genaue Werte zur Prüfung am Protokollbuch',
    ])
      expect(text).toContain(heading);
    expect(flat).toContain('Sprache Deutsch (de)');
    expect(flat).toContain('Sprache dieses Protokolls de');
    expect(flat).toContain('Konfiguration „Förderband Süd“');
    expect(flat).toContain('Ergebnis 1 von 2 Geräten in Betrieb genommen');
    expect(flat).toContain(
      'Funktionsprüfung: BESTANDEN am 28. Nov. 2026, 17:09 UTC an diesem Arbeitsplatz, angemeldet als „bench key“.',
    );
    expect(flat).toContain('Parameter: geprüft, bestätigt von Ada Lovelace am 28. Nov. 2026, 17:06 UTC.');
    expect(flat).toContain('Konfiguration: Noch nicht aufgespielt; noch keine Konfiguration aufgespielt.');
    // The domain's words from the domain catalog: a field label and a choice.
    expect(flat).toContain('Sicherheits-Timeout');
    expect(flat).toMatch(/CAN-Modus\s+CANopen/);
    expect(flat).toMatch(/Rolle des Partnergeräts EPC000102\s+Empfänger\s+Empfänger\s+gleich/);
    // Data stays as it is: serial numbers, the syncId, hashes.
    expect(text).toContain('EPC000101');
    expect(text).toContain('EPC000102');
    expect(text).toContain(REPORT_SYNC);
    expect(text).toContain(REPORT_IMAGE);
    expect(text).toContain(entries.test.hash);
    expect(text).not.toContain('Commissioning report');
    expect(text).toMatch(/Inbetriebnahmeprotokoll: Förderband Süd – Seite 1 von \d/);
    // Latin languages need no embedded font: the standard ones hold ä ö ü ß.
    const fonts = await pdfFonts(path);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font, 'a German report embeds no font').toMatch(/^(Helvetica|Courier)/);
  });

  it('in Chinese: the headings in Chinese from an embedded subset of a CJK font, data as it is, and it says it is Chinese', async () => {
    const { report, entries } = await sampleCommissioningReport(join(scratch.dir, 'zh'), 'Conveyor 2 stations');
    const bytes = await renderReportPdf(report, { language: 'zh' });
    const path = await written('zh.pdf', bytes);
    const text = await pdfText(path);
    const flat = text.replace(/\s+/g, ' ');
    for (const heading of ['调试报告', '安全参数', '签字确认', '附录：精确值，用于与操作记录簿核对'])
      expect(text).toContain(heading);
    expect(flat).toContain('语言 简体中文（zh）');
    expect(flat).toContain('配置“Conveyor 2 stations”');
    expect(flat).toContain('2 台设备中已调试 1 台');
    expect(flat).toContain('安全超时');
    expect(flat).toMatch(/功能测试：通过/);
    expect(flat).toMatch(/状态：已调试/);
    // A list in Chinese is joined with 、, not run together nor joined with a Latin comma.
    expect(flat).toContain('（缺少：应用配置、参数验证、功能测试）');
    expect(flat).toContain('Ada Lovelace（确认了 EPC000101 的参数）；以“bench key”登录服务');
    expect(text).toContain('EPC000101');
    expect(text).toContain('EPC000102');
    expect(text).toContain(REPORT_SYNC);
    expect(text).toContain(REPORT_IMAGE);
    expect(text).toContain(entries.apply.hash);
    // The CJK font is embedded, as a subset: a few dozen kilobytes, not the font's four megabytes.
    const fonts = await pdfFonts(path);
    const cjk = fonts.filter((line) => /Droid/i.test(line));
    expect(cjk, fonts.join('\n')).toHaveLength(1);
    expect(cjk[0], 'embedded, with a ToUnicode map').toMatch(/\byes\s+\S+\s+yes\s+\d+\s+\d+\s*$/);
    expect(bytes.length).toBeLessThan(400_000);
    // Every glyph of the subset has its outline: pdftotext reads the characters from the ToUnicode
    // map even when the glyphs are broken, so the glyphs themselves are read back here.
    const [subset, ...others] = await embeddedTrueTypeFonts(path);
    expect(others).toHaveLength(0);
    expect(subset!.numGlyphs).toBeGreaterThan(100);
    expect(subset!.numGlyphs).toBeLessThan(1000);
    const blank: number[] = [];
    for (let id = 1; id < subset!.numGlyphs; id++) if (subset!.getGlyph(id).path.toSVG() === '') blank.push(id);
    expect(blank, 'glyphs of the subset with no outline').toEqual([]);
  });

  it('refuses a Chinese report on a machine without a CJK font, saying how to install one', async () => {
    const { report } = await sampleCommissioningReport(join(scratch.dir, 'no-font'));
    process.env[CJK_FONT_VARIABLE] = join(scratch.dir, 'no-such-font.ttf');
    const made = renderReportPdf(report, { language: 'zh' });
    await expect(made).rejects.toBeInstanceOf(ReportFontError);
    await expect(made).rejects.toThrow(/fonts-droid-fallback/);
    // The other languages do not need it.
    await expect(renderReportPdf(report, { language: 'fr' })).resolves.toBeInstanceOf(Uint8Array);
  });

  it('in English, a configuration named in Chinese still prints its name through the CJK font', async () => {
    const { report } = await sampleCommissioningReport(join(scratch.dir, 'en-cjk'), '苏州 输送线 2');
    const path = await written('en-cjk.pdf', await renderReportPdf(report));
    const text = await pdfText(path);
    expect(text).toContain('Commissioning report');
    expect(text).toContain('苏州 输送线 2');
  });
});
