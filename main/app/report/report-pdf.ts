import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { commissioningText } from '../../../domain/ledger-commissioning';
import type { CommissioningReport, ReportDevice } from './report-model';

/**
 * The commissioning report as a PDF (pdf-lib, docs/decisions.md): A4, the standard fonts only, so
 * it needs no font files and reads the same everywhere. Hashes and syncIds in a fixed-width font on
 * lines of their own, so a person can compare them with `provisioner ledger verify` character by
 * character, and a program can read them back (pdftotext).
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const RED = rgb(0.7, 0.05, 0.05);
const GREEN = rgb(0.05, 0.45, 0.15);
const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.35, 0.35, 0.35);

/** The standard fonts encode WinAnsi only: anything else is written in ASCII words or marked. */
function printable(text: string): string {
  return text
    .replace(/→/g, '->')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[^\x20-\x7e\xa0-\xff…–—]/g, '?');
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont; mono: PDFFont },
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  private room(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** One paragraph, wrapped at the margin. */
  text(value: string, options: { size?: number; font?: 'regular' | 'bold' | 'mono'; color?: ReturnType<typeof rgb>; indent?: number } = {}): void {
    const size = options.size ?? 10;
    const font = this.fonts[options.font ?? 'regular'];
    const indent = options.indent ?? 0;
    const width = A4.width - 2 * MARGIN - indent;
    for (const line of wrap(printable(value), font, size, width)) {
      this.room(size * 1.35);
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? BLACK });
    }
  }

  gap(points = 6): void {
    this.y -= points;
  }

  /** Keep a block of about `height` points on one page. */
  keep(height: number): void {
    this.room(height);
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

function deviceBlock(w: Writer, device: ReportDevice): void {
  w.keep(260);
  w.text(`${device.serialNumber}  ${device.deviceType}${device.model ? ` ${device.model}` : ''}${device.name && device.name !== device.serialNumber ? `  (${device.name})` : ''}`, { size: 12, font: 'bold' });
  const commissioned = device.commissioning === 'commissioned';
  w.text(`Status: ${commissioningText({ state: device.commissioning, missing: device.missingSteps })}`, { color: commissioned ? GREEN : RED, font: 'bold', indent: 10 });
  w.text(`Firmware: ${device.firmware.version ?? 'not recorded'}${device.firmware.installedAt ? `, installed ${device.firmware.installedAt}` : ''}`, { indent: 10 });
  w.text('Image SHA-256:', { indent: 10, color: GREY, size: 9 });
  w.text(device.firmware.imageSha256 ?? 'not known on this workstation (no ledger entry of its install names it, and its bundle is not in the firmware cache)', { indent: 20, font: device.firmware.imageSha256 ? 'mono' : 'regular', size: 8 });
  w.text(`Signed by release key: ${device.firmware.signedBy ?? 'not known'}`, { indent: 10 });
  w.text(`Configuration: ${device.configuration.deployStatus}${device.configuration.appliedAt ? `, applied ${device.configuration.appliedAt}` : ''}${device.configuration.appliedBy ? ` by ${device.configuration.appliedBy}` : ''}${device.configuration.workstation ? ` on workstation ${device.configuration.workstation}` : ''}`, { indent: 10 });
  w.text('syncId:', { indent: 10, color: GREY, size: 9 });
  w.text(device.configuration.syncId ?? 'none applied', { indent: 20, font: 'mono', size: 9 });
  const test = device.functionTest;
  if (test.result === null) w.text('Function test: not done since the configuration was applied', { indent: 10, color: RED });
  else {
    w.text(`Function test: ${test.result === 'pass' ? 'PASSED' : 'FAILED'} ${test.at ?? ''}${test.workstation ? ` on workstation ${test.workstation}` : ''}`, { indent: 10, color: test.result === 'pass' ? GREEN : RED });
    if (test.reactions) w.text(`Receivers (reaction observed): ${test.reactions}`, { indent: 20 });
    if (test.note) w.text(`Note: ${test.note}`, { indent: 20 });
  }
  parametersBlock(w, device);
  w.text('Ledger entries:', { indent: 10, color: GREY, size: 9 });
  const hashes: [string, string | null][] = [
    ['firmware', device.ledgerHashes.firmwareInstall],
    ['apply   ', device.ledgerHashes.configurationApply],
    ['test    ', device.ledgerHashes.functionTest],
  ];
  for (const [what, hash] of hashes) w.text(`${what} ${hash ?? '-'}`, { indent: 20, font: 'mono', size: 8 });
  w.gap(10);
}

/** The verified parameter table, both checksums, who confirmed and when, and the tool (issue 26). */
function parametersBlock(w: Writer, device: ReportDevice): void {
  const p = device.parameters;
  if (!p) {
    w.text('Parameters: not read back from the device since the configuration was applied', { indent: 10, color: RED });
    return;
  }
  const confirmed = p.match && p.confirmedBy !== null;
  const verdict = !p.match ? 'DIFFER from the configuration' : confirmed ? `verified, confirmed by ${p.confirmedBy} ${p.confirmedAt ?? ''}` : 'match, but no one confirmed them';
  w.keep(40 + p.rows.length * 11);
  w.text(`Parameters: ${verdict}`, { indent: 10, color: confirmed ? GREEN : RED });
  w.text(`Checksum intended ${p.intendedChecksum.slice(-8).toUpperCase()}, running ${p.checksumShort} (${p.checksumBy === 'device' ? 'by the device' : 'by the tool, from the values read'}); read ${p.at} on workstation ${p.workstation}`, { indent: 20, size: 9 });
  w.text(`Tool: ${p.tool}`, { indent: 20, size: 9 });
  for (const row of p.rows) {
    const value = (v: unknown) => (v === null ? '-' : `${String(v)}${row.unit ? ` ${row.unit}` : ''}`);
    w.text(`${row.match ? ' ' : 'X'} ${row.label}: ${value(row.intended)}${row.match ? '' : ` intended, ${value(row.running)} running`}`, { indent: 20, size: 8, ...(row.match ? {} : { color: RED }) });
  }
}

export async function renderReportPdf(report: CommissioningReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Commissioning report: ${printable(report.configuration.name)}`);
  doc.setCreator('Provisioner');
  doc.setCreationDate(new Date(report.generatedAt));
  const w = new Writer(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  });
  w.text('Commissioning report', { size: 18, font: 'bold' });
  w.text(`Configuration "${report.configuration.name}" (${report.configuration.id})`, { size: 12 });
  w.text(`Service: ${report.service}`);
  w.text(`Made ${report.generatedAt} on workstation ${report.workstation}`);
  w.text(
    report.ledger.intact
      ? `Ledger: ${report.ledger.entries} entries, every link holds; made from its head: entry ${report.ledger.headSeq}, hash ${report.ledger.head}`
      : `Ledger: BROKEN at ${report.ledger.broken ?? 'an entry'}: entries from there on are not proven`,
    { color: report.ledger.intact ? BLACK : RED, size: 9 },
  );
  w.gap(8);
  w.text('Safety parameters', { size: 13, font: 'bold' });
  for (const parameter of report.safetyParameters) w.text(`${parameter.label}: ${parameter.value}`, { indent: 10 });
  w.gap(8);
  const commissioned = report.devices.filter((d) => d.commissioning === 'commissioned').length;
  w.text(`Devices (${commissioned} of ${report.devices.length} commissioned)`, { size: 13, font: 'bold' });
  w.gap(4);
  for (const device of report.devices) deviceBlock(w, device);
  return doc.save();
}
