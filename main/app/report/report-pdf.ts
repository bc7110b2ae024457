import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { commissioningText } from '../../../domain/ledger-commissioning';
import { parameterValueText, type ParameterValue } from '../../../domain/running-parameters';
import type { CommissioningReport, ReportDevice, ReportPerson } from './report-model';
import { dateTimeText, deployStatusText, namesText } from './report-words';

/**
 * The commissioning report as a PDF (pdf-lib, docs/decisions.md): A4, the standard fonts only, so
 * it needs no font files and reads the same everywhere. People's words first (issue 32): statuses,
 * times with their zone, who did the work, a sign-off block. The exact values a machine checks
 * (ledger entry hashes, image SHA-256, syncIds, ids) are in the appendix, each in a fixed-width
 * font on a line of its own, so a person can compare them with `provisioner ledger verify --entry`
 * character by character and a program can read them back (pdftotext).
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT = A4.width - 2 * MARGIN;
const RED = rgb(0.7, 0.05, 0.05);
const GREEN = rgb(0.05, 0.45, 0.15);
const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.35, 0.35, 0.35);
const RULE = rgb(0.75, 0.75, 0.75);

type Colour = ReturnType<typeof rgb>;
type FontName = 'regular' | 'bold' | 'mono';

/** The standard fonts encode WinAnsi only: anything else is written in ASCII words or marked. */
function printable(text: string): string {
  return text
    .replace(/→/g, '->')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[\u202f\u2009]/g, ' ')
    .replace(/[^\x20-\x7e\xa0-\xff…–—]/g, '?');
}

/** One cell of a table: its text and, when not the table's, its font and colour. */
interface Cell {
  text: string;
  font?: FontName;
  color?: Colour;
  size?: number;
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Record<FontName, PDFFont>,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  private room(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** One paragraph, wrapped at the margin. */
  text(value: string, options: { size?: number; font?: FontName; color?: Colour; indent?: number } = {}): void {
    const size = options.size ?? 10;
    const font = this.fonts[options.font ?? 'regular'];
    const indent = options.indent ?? 0;
    for (const line of wrap(printable(value), font, size, CONTENT - indent)) {
      this.room(size * 1.35);
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? BLACK });
    }
  }

  /**
   * Rows of cells in columns of the given widths, each cell wrapped in its column; a row is never
   * split across pages. With `header`, the first row is bold and ruled off, and drawn again at the
   * top of each page the table goes on to.
   */
  table(widths: readonly number[], rows: readonly (readonly Cell[])[], options: { size?: number; indent?: number; header?: boolean } = {}): void {
    const size = options.size ?? 9;
    const indent = options.indent ?? 0;
    const lineHeight = size * 1.35;
    const laidOut = (row: readonly Cell[], bold: boolean) => {
      const cells = row.map((cell, column) => {
        const font = this.fonts[bold ? 'bold' : (cell.font ?? 'regular')];
        const cellSize = cell.size ?? size;
        return { cell, font, size: cellSize, lines: wrap(printable(cell.text), font, cellSize, (widths[column] ?? 100) - 6) };
      });
      return { cells, bold, height: Math.max(...cells.map((c) => c.lines.length)) * lineHeight + 2 };
    };
    const draw = ({ cells, bold, height }: ReturnType<typeof laidOut>) => {
      const top = this.y;
      let x = MARGIN + indent;
      cells.forEach((c, column) => {
        c.lines.forEach((line, n) => this.page.drawText(line, { x, y: top - (n + 1) * lineHeight, size: c.size, font: c.font, color: c.cell.color ?? BLACK }));
        x += widths[column] ?? 100;
      });
      this.y = top - height;
      if (bold) this.rule(indent, widths.reduce((a, b) => a + b, 0));
    };
    const header = options.header === true && rows[0] ? laidOut(rows[0], true) : undefined;
    if (header) {
      // A header is never left alone at the foot of a page.
      this.room(header.height + lineHeight * 2);
      draw(header);
    }
    for (const row of header ? rows.slice(1) : rows) {
      const line = laidOut(row, false);
      if (this.y - line.height < MARGIN) {
        this.newPage();
        if (header) draw(header);
      }
      draw(line);
    }
  }

  /** A thin line across `width` points, just below the current line. */
  rule(indent: number, width: number): void {
    this.page.drawLine({ start: { x: MARGIN + indent, y: this.y }, end: { x: MARGIN + indent + width, y: this.y }, thickness: 0.5, color: RULE });
    this.y -= 2;
  }

  /** A labelled line to write on by hand: "Name: ____". */
  blank(x: number, label: string, width: number, filled: string | null): void {
    const size = 10;
    const font = this.fonts.regular;
    this.page.drawText(label, { x: MARGIN + x, y: this.y, size, font, color: GREY });
    const start = MARGIN + x + font.widthOfTextAtSize(label, size) + 6;
    if (filled) this.page.drawText(printable(filled), { x: start + 2, y: this.y + 2, size, font, color: BLACK });
    this.page.drawLine({ start: { x: start, y: this.y - 2 }, end: { x: MARGIN + x + width, y: this.y - 2 }, thickness: 0.7, color: BLACK });
  }

  /** Texts side by side on one line, each at its x (points from the margin). */
  side(parts: readonly { x: number; text: string }[], options: { size?: number; font?: FontName } = {}): void {
    const size = options.size ?? 10;
    this.room(size * 1.35);
    this.y -= size * 1.35;
    for (const part of parts) this.page.drawText(printable(part.text), { x: MARGIN + part.x, y: this.y, size, font: this.fonts[options.font ?? 'regular'], color: BLACK });
  }

  down(points: number): void {
    this.y -= points;
  }

  gap(points = 6): void {
    this.y -= points;
  }

  /** Keep a block of about `height` points on one page. */
  keep(height: number): void {
    this.room(height);
  }

  /** "Commissioning report "Loader 7" · page 2 of 3" at the foot of every page, once all are written. */
  footers(title: string): void {
    const pages = this.doc.getPages();
    pages.forEach((page, index) => {
      page.drawText(printable(`${title} - page ${index + 1} of ${pages.length}`), { x: MARGIN, y: MARGIN / 2, size: 8, font: this.fonts.regular, color: GREY });
    });
  }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

/** Turns ids into words: "this workstation" for the one that made the report, else its short id (in full in the appendix). */
class Words {
  constructor(private readonly report: CommissioningReport) {}

  time(iso: string): string {
    return dateTimeText(iso, this.report.timeZone);
  }

  workstation(id: string): string {
    return id === this.report.workstation ? 'this workstation' : `workstation ${id.slice(0, 8)} (see the appendix)`;
  }

  /** ", applied 28 Nov 2026, 17:05 UTC on this workstation, signed in as "cli"" */
  when(at: string | null, workstation: string | null, by: string | null): string {
    return `${at ? ` ${this.time(at)}` : ''}${workstation ? ` on ${this.workstation(workstation)}` : ''}${by ? `, signed in as "${by}"` : ''}`;
  }
}

/** "Ada Lovelace (confirmed the parameters of EPC000101, EPC000102)" */
function personText(person: ReportPerson): string {
  return person.role === 'confirmed the parameters'
    ? `${person.name} (confirmed the parameters of ${person.serialNumbers.join(', ')})`
    : `signed in to the service as "${person.name}" (${person.serialNumbers.join(', ')})`;
}

function deviceBlock(w: Writer, device: ReportDevice, words: Words): void {
  w.keep(200);
  w.text(`${device.serialNumber}  ${device.deviceType}${device.model ? ` ${device.model}` : ''}${device.name && device.name !== device.serialNumber ? `  (${device.name})` : ''}`, { size: 12, font: 'bold' });
  const commissioned = device.commissioning === 'commissioned';
  w.text(`Status: ${commissioningText({ state: device.commissioning, missing: device.missingSteps })}`, { color: commissioned ? GREEN : RED, font: 'bold', indent: 10 });
  const firmware = device.firmware;
  const signer = firmware.signedBy ? `signed by release key "${firmware.signedBy.replace(/ \([0-9a-f]+\)$/, '')}"` : 'its release key is not known on this workstation';
  w.text(
    firmware.version
      ? `Firmware: version ${firmware.version}${firmware.installedAt ? `, installed${words.when(firmware.installedAt, null, firmware.installedBy)}` : ', not installed from this workstation'}; ${signer}.`
      : 'Firmware: version not recorded.',
    { indent: 10 },
  );
  const configuration = device.configuration;
  const applied = configuration.appliedAt !== null || configuration.syncId !== null;
  w.text(
    applied
      ? `Configuration: ${deployStatusText(configuration.deployStatus)}${configuration.appliedAt ? `, applied${words.when(configuration.appliedAt, configuration.workstation, configuration.appliedBy)}` : ''}.`
      : `Configuration: ${deployStatusText(configuration.deployStatus)}; no configuration applied yet.`,
    { indent: 10 },
  );
  parametersBlock(w, device, words);
  const test = device.functionTest;
  if (test.result === null) w.text('Function test: not done since the configuration was applied.', { indent: 10, color: RED });
  else {
    w.text(`Function test: ${test.result === 'pass' ? 'PASSED' : 'FAILED'}${test.at ? ' on' : ''}${words.when(test.at, test.workstation, test.by)}.`, { indent: 10, color: test.result === 'pass' ? GREEN : RED });
    if (test.reactions) w.text(`Receivers and their reaction times: ${test.reactions}`, { indent: 20 });
    if (test.note) w.text(`Note: ${test.note}`, { indent: 20 });
  }
  w.gap(12);
}

/** Who confirmed the parameters and when, in words, then the verified table with both values (issue 26). */
function parametersBlock(w: Writer, device: ReportDevice, words: Words): void {
  const p = device.parameters;
  if (!p) {
    w.text('Parameters: not read back from the device since the configuration was applied.', { indent: 10, color: RED });
    return;
  }
  const confirmed = p.match && p.confirmedBy !== null;
  const verdict = !p.match
    ? 'they DIFFER from the configuration'
    : confirmed
      ? `verified, confirmed by ${p.confirmedBy}${p.confirmedAt ? ` on ${words.time(p.confirmedAt)}` : ''}`
      : 'they match, but no one confirmed them';
  w.text(`Parameters: ${verdict}.`, { indent: 10, color: confirmed ? GREEN : RED });
  const checksum = p.match ? `checksum ${p.checksumShort} as intended` : `checksum ${p.checksumShort} running, ${p.intendedChecksum.slice(-8).toUpperCase()} intended`;
  w.text(`Read back${words.when(p.at, p.workstation, null)} with ${p.toolRelease}; ${checksum} (${p.checksumBy === 'device' ? 'computed by the device' : 'computed by the tool from the values read'}).`, { indent: 20, size: 9 });
  w.gap(2);
  const rows: Cell[][] = [[{ text: 'Parameter' }, { text: 'Intended' }, { text: 'Running on the device' }, { text: '' }]];
  for (const row of p.rows) {
    const color = row.match ? BLACK : RED;
    rows.push([{ text: row.label, color }, { text: pdfValue(row.intended, row.unit, row.key), color }, { text: pdfValue(row.running, row.unit, row.key), color }, { text: row.match ? 'same' : 'DIFFERS', color: row.match ? GREY : RED }]);
  }
  w.table([170, 120, 120, 50], rows, { size: 8, indent: 20, header: true });
  w.gap(4);
}

/** For the one who did the work and the one who accepts it: name, date, signature line. */
function signOff(w: Writer, report: CommissioningReport): void {
  w.keep(170);
  w.text('Sign-off', { size: 13, font: 'bold' });
  w.text('By signing, the technician confirms the work described in this report was done as described, and the person accepting it confirms the system was handed over in this state.', { size: 9, color: GREY });
  w.gap(10);
  const half = CONTENT / 2;
  w.side([{ x: 0, text: 'Work done by (technician)' }, { x: half + 10, text: 'Accepted by (customer or site manager)' }], { font: 'bold' });
  // The person named by the ledger as having confirmed the parameters is the one who did the work.
  const technicians = report.people.filter((p) => p.role === 'confirmed the parameters').map((p) => p.name);
  for (const [label, technician] of [
    ['Name:', technicians.length > 0 ? namesText(technicians) : null],
    ['Date:', null],
    ['Signature:', null],
  ] as const) {
    w.down(28);
    w.blank(0, label, half - 20, technician);
    w.blank(half + 10, label, half - 10, null);
  }
  w.down(16);
}

/** "Europe/Berlin (CET)"; "UTC" alone. */
function zoneText(zone: string, shortName: string): string {
  return shortName === '' || shortName === zone ? zone : `${zone} (${shortName})`;
}

/** The exact values, each where `ledger verify --entry` and the service's records can be checked against it. */
function appendix(w: Writer, report: CommissioningReport, words: Words): void {
  w.newPage();
  w.text('Appendix: exact values, to check against the ledger', { size: 13, font: 'bold' });
  w.gap(4);
  const hashes = report.devices.flatMap((d) => d.ledgerEntries.map((e) => e.hash));
  w.text(
    `Every line of this report comes from entries of the ledger of workstation ${report.workstation} (the one that made it). To check them, run on that workstation:`,
    { size: 9 },
  );
  w.text(`provisioner ledger verify --entry HASH${hashes.length > 1 ? ' --entry HASH ...' : ''}`, { font: 'mono', size: 9, indent: 10 });
  w.text(
    'with the entry hashes below. It must say that every link of the local ledger holds and, for each hash, "in this ledger, every link up to it holds" with the entry number printed here. A hash it does not find, or a broken link before it, means that line of the report is not proven.',
    { size: 9 },
  );
  w.gap(4);
  w.text(
    report.ledger.intact
      ? `The ledger held ${report.ledger.entries} entries of this workstation and every link held. The report was made from its head: entry ${report.ledger.headSeq}, hash`
      : `The ledger is BROKEN at ${report.ledger.broken ?? 'an entry'}: entries from there on are not proven. The report was made from its head: entry ${report.ledger.headSeq}, hash`,
    { size: 9, color: report.ledger.intact ? BLACK : RED },
  );
  w.text(report.ledger.head, { font: 'mono', size: 8, indent: 10 });
  w.text('Entries added later follow it; "provisioner ledger verify --json" names the current head ("local.head").', { size: 9, color: GREY });
  w.gap(8);
  const label = 180;
  const valueWidth = CONTENT - label;
  const mono = (text: string): Cell => ({ text, font: 'mono', size: 8 });
  w.table(
    [label, valueWidth],
    [
      [{ text: 'Report made' }, mono(report.generatedAt)],
      [{ text: 'Configuration id' }, mono(report.configuration.id)],
      [{ text: 'Organization' }, mono(report.orgId)],
      [{ text: 'Workstation' }, mono(report.workstation)],
      [{ text: 'Times in this report' }, { text: zoneText(report.timeZone, words.time(report.generatedAt).split(' ').at(-1) ?? '') }],
    ],
  );
  for (const device of report.devices) {
    w.gap(8);
    const rows: Cell[][] = [[{ text: device.serialNumber }, { text: '' }]];
    rows.push([{ text: 'Firmware image SHA-256' }, device.firmware.imageSha256 ? mono(device.firmware.imageSha256) : { text: 'not known on this workstation (no ledger entry of its install names it, and its bundle is not in the firmware cache)' }]);
    if (device.firmware.signedBy) rows.push([{ text: 'Release key (name and key id)' }, mono(device.firmware.signedBy)]);
    rows.push([{ text: 'syncId of the configuration' }, device.configuration.syncId ? mono(device.configuration.syncId) : { text: 'none: no configuration applied yet' }]);
    for (const workstation of new Set([device.configuration.workstation, device.functionTest.workstation, device.parameters?.workstation ?? null])) {
      if (workstation && workstation !== report.workstation) rows.push([{ text: `Workstation ${workstation.slice(0, 8)}` }, mono(workstation)]);
    }
    if (device.parameters) {
      rows.push([{ text: 'Parameter checksum, running' }, mono(device.parameters.runningChecksum)]);
      rows.push([{ text: 'Parameter checksum, intended' }, mono(device.parameters.intendedChecksum)]);
      rows.push([{ text: 'Tool build' }, mono(`${device.parameters.toolRelease} (${device.parameters.toolBuild})`)]);
    }
    if (device.ledgerEntries.length === 0) rows.push([{ text: 'Ledger entries' }, { text: 'none on this workstation' }]);
    for (const entry of device.ledgerEntries) rows.push([{ text: `Ledger entry ${entry.seq}: ${entry.step}, ${words.time(entry.at)}` }, mono(entry.hash)]);
    w.table([label, valueWidth], rows, { header: true });
  }
}

export async function renderReportPdf(report: CommissioningReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = `Commissioning report: ${report.configuration.name}`;
  doc.setTitle(printable(title));
  doc.setCreator('Provisioner');
  doc.setCreationDate(new Date(report.generatedAt));
  const w = new Writer(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  });
  const words = new Words(report);
  const commissioned = report.devices.filter((d) => d.commissioning === 'commissioned').length;
  w.text('Commissioning report', { size: 18, font: 'bold' });
  w.text(`Configuration "${report.configuration.name}"`, { size: 12 });
  w.gap(6);
  const people = report.people.map(personText);
  w.table(
    [110, CONTENT - 110],
    [
      [{ text: 'Result' }, { text: `${commissioned} of ${report.devices.length} devices commissioned`, color: commissioned === report.devices.length && commissioned > 0 ? GREEN : RED }],
      [{ text: 'Work done by' }, { text: people.length > 0 ? people.join('; ') : 'no one is named in the ledger entries of these devices' }],
      [{ text: 'Made' }, { text: `${words.time(report.generatedAt)} on this workstation` }],
      [{ text: 'Service' }, { text: report.service }],
      [
        { text: 'Ledger' },
        report.ledger.intact
          ? { text: `${report.ledger.entries} entries, every link holds; the appendix says how to check each line of this report against it` }
          : { text: `BROKEN at ${(report.ledger.broken ?? 'an entry').replace(/ \(hash [0-9a-f]+…\)/, '')}: entries from there on are not proven (the appendix names the entry by its hash)`, color: RED },
      ],
    ],
    { size: 10 },
  );
  w.gap(8);
  w.text('Safety parameters', { size: 13, font: 'bold' });
  w.table([200, CONTENT - 210], [[{ text: 'Parameter' }, { text: 'Value in the configuration' }], ...report.safetyParameters.map((p) => [{ text: p.label }, { text: p.value }])], { indent: 10, header: true });
  w.gap(8);
  w.text(`Devices (${commissioned} of ${report.devices.length} commissioned)`, { size: 13, font: 'bold' });
  w.gap(4);
  for (const device of report.devices) deviceBlock(w, device, words);
  signOff(w, report);
  appendix(w, report, words);
  w.footers(title);
  return doc.save();
}

/** A parameter's value as the screens show it ('500 ms', 'CANopen'), with a plain '-' for unset in the PDF's standard fonts. */
function pdfValue(value: ParameterValue, unit: string, key: string): string {
  return value === null ? '-' : parameterValueText(value, unit, key);
}
