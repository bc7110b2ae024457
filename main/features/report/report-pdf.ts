import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { fieldLabel } from '../../../domain/field-labels';
import { canModeLabel } from '../../../domain/choice-labels';
import { CAN_MODES, type CanMode } from '../../../domain/enums';
import {
  createTranslator,
  LANGUAGE_NAMES,
  PSEUDO_LANGUAGE,
  SOURCE_LANGUAGE,
  type CatalogLanguage,
  type Translator,
} from '../../../domain/i18n/index.js';
import { parameterLabel, parameterValueLabel } from '../../../domain/parameter-labels';
import type { ParameterValue } from '../../../domain/running-parameters';
import { ReportFonts, type FontName } from './pdf-fonts';
import type {
  CommissioningReport,
  ReportDevice,
  ReportLedgerEntry,
  ReportPerson,
  ReportSafetyParameter,
} from './report-model';
import {
  commissioningStatusText,
  dateTimeText,
  deployStatusText,
  listText,
  namesText,
  timeZoneShortName,
} from './report-words';

/**
 * The commissioning report as a PDF (pdf-lib, docs/decisions.md): A4, in the language asked for
 * (English unless told), which it names on its first page, in its appendix and in the PDF's own
 * language entry. Latin text is set in the standard fonts; Chinese in a subset of a CJK font
 * (pdf-fonts.ts). People's words first (issue 32): statuses, times with their zone, who did the
 * work, a sign-off block. The exact values a machine checks (ledger entry hashes, image SHA-256,
 * syncIds, ids) are in the appendix, each in a fixed-width font on a line of its own, so a person
 * can compare them with `provisioner ledger verify --entry` character by character and a program
 * can read them back (pdftotext). Data (serial numbers, names, versions, hashes) is never
 * translated.
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

export interface ReportPdfOptions {
  /** The language the report is written in; English when not given. */
  language?: CatalogLanguage;
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
    private readonly fonts: ReportFonts,
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
    const font = options.font ?? 'regular';
    const indent = options.indent ?? 0;
    for (const line of this.fonts.wrap(value, font, size, CONTENT - indent)) {
      this.room(size * 1.35);
      this.y -= size * 1.35;
      this.fonts.draw(this.page, line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? BLACK });
    }
  }

  /**
   * Rows of cells in columns of the given widths, each cell wrapped in its column; a row is never
   * split across pages. With `header`, the first row is bold and ruled off, and drawn again at the
   * top of each page the table goes on to.
   */
  table(
    widths: readonly number[],
    rows: readonly (readonly Cell[])[],
    options: { size?: number; indent?: number; header?: boolean } = {},
  ): void {
    const size = options.size ?? 9;
    const indent = options.indent ?? 0;
    const lineHeight = size * 1.35;
    const laidOut = (row: readonly Cell[], bold: boolean) => {
      const cells = row.map((cell, column) => {
        const font: FontName = bold ? 'bold' : (cell.font ?? 'regular');
        const cellSize = cell.size ?? size;
        return {
          cell,
          font,
          size: cellSize,
          lines: this.fonts.wrap(cell.text, font, cellSize, (widths[column] ?? 100) - 6),
        };
      });
      return { cells, bold, height: Math.max(...cells.map((c) => c.lines.length)) * lineHeight + 2 };
    };
    const draw = ({ cells, bold, height }: ReturnType<typeof laidOut>) => {
      const top = this.y;
      let x = MARGIN + indent;
      cells.forEach((c, column) => {
        c.lines.forEach((line, n) =>
          this.fonts.draw(this.page, line, {
            x,
            y: top - (n + 1) * lineHeight,
            size: c.size,
            font: c.font,
            color: c.cell.color ?? BLACK,
          }),
        );
        x += widths[column] ?? 100;
      });
      this.y = top - height;
      if (bold)
        this.rule(
          indent,
          widths.reduce((a, b) => a + b, 0),
        );
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
    this.page.drawLine({
      start: { x: MARGIN + indent, y: this.y },
      end: { x: MARGIN + indent + width, y: this.y },
      thickness: 0.5,
      color: RULE,
    });
    this.y -= 2;
  }

  /** A labelled line to write on by hand: "Name: ____". */
  blank(x: number, label: string, width: number, filled: string | null): void {
    const size = 10;
    this.fonts.draw(this.page, label, { x: MARGIN + x, y: this.y, size, font: 'regular', color: GREY });
    const start = MARGIN + x + this.fonts.width(label, 'regular', size) + 6;
    if (filled)
      this.fonts.draw(this.page, filled, { x: start + 2, y: this.y + 2, size, font: 'regular', color: BLACK });
    this.page.drawLine({
      start: { x: start, y: this.y - 2 },
      end: { x: MARGIN + x + width, y: this.y - 2 },
      thickness: 0.7,
      color: BLACK,
    });
  }

  /** Texts side by side on one line, each at its x (points from the margin). */
  side(parts: readonly { x: number; text: string }[], options: { size?: number; font?: FontName } = {}): void {
    const size = options.size ?? 10;
    this.room(size * 1.35);
    this.y -= size * 1.35;
    for (const part of parts)
      this.fonts.draw(this.page, part.text, {
        x: MARGIN + part.x,
        y: this.y,
        size,
        font: options.font ?? 'regular',
        color: BLACK,
      });
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

  /** "Commissioning report: Loader 7 - page 2 of 3" at the foot of every page, once all are written. */
  footers(footer: (page: number, pages: number) => string): void {
    const pages = this.doc.getPages();
    pages.forEach((page, index) => {
      this.fonts.draw(page, footer(index + 1, pages.length), {
        x: MARGIN,
        y: MARGIN / 2,
        size: 8,
        font: 'regular',
        color: GREY,
      });
    });
  }
}

/** Where something was done, as a message's `where` select: this workstation, another (named by its short id), or not said. */
type Where = { where: 'here' | 'other' | 'none'; workstation: string };

/** The report's words in its language: its messages, its times in the report's zone, and ids turned into words. */
class Phrases {
  constructor(
    private readonly report: CommissioningReport,
    readonly translator: Translator,
  ) {}

  t(key: string, values?: Parameters<Translator['t']>[1]): string {
    return this.translator.t(key, values);
  }

  time(iso: string): string {
    return dateTimeText(iso, this.report.timeZone, this.translator.locale);
  }

  /** "this workstation" for the one that made the report, else its short id (in full in the appendix). */
  where(workstation: string | null): Where {
    if (workstation === null) return { where: 'none', workstation: '' };
    return workstation === this.report.workstation
      ? { where: 'here', workstation: '' }
      : { where: 'other', workstation: workstation.slice(0, 8) };
  }

  /** The values every "done at, where, by whom" sentence takes. */
  when(at: string | null, workstation: string | null, by: string | null): Record<string, string> {
    return {
      time: at ? this.time(at) : '',
      hasTime: at ? 'yes' : 'no',
      ...this.where(workstation),
      hasBy: by ? 'yes' : 'no',
      by: by ?? '',
    };
  }

  list(items: readonly string[]): string {
    return listText(items, this.translator);
  }
}

/** "Ada Lovelace (confirmed the parameters of EPC000101, EPC000102)" */
function personText(person: ReportPerson, words: Phrases): string {
  const serials = words.list(person.serialNumbers);
  return person.role === 'confirmed the parameters'
    ? words.t('report:person.confirmed', { name: person.name, serials })
    : words.t('report:person.signedIn', { name: person.name, serials });
}

function deviceBlock(w: Writer, device: ReportDevice, words: Phrases): void {
  w.keep(200);
  w.text(
    `${device.serialNumber}  ${device.deviceType}${device.model ? ` ${device.model}` : ''}${device.name && device.name !== device.serialNumber ? `  (${device.name})` : ''}`,
    { size: 12, font: 'bold' },
  );
  const commissioned = device.commissioning === 'commissioned';
  const status = commissioningStatusText(device.commissioning, device.missingSteps, words.translator);
  w.text(words.t('report:device.status', { status }), { color: commissioned ? GREEN : RED, font: 'bold', indent: 10 });
  const firmware = device.firmware;
  const signer = {
    signed: firmware.signedBy ? 'yes' : 'no',
    signer: firmware.signedBy?.replace(/ \([0-9a-f]+\)$/, '') ?? '',
  };
  w.text(
    firmware.version === null
      ? words.t('report:firmware.notRecorded')
      : firmware.installedAt
        ? words.t('report:firmware.installed', {
            version: firmware.version,
            ...words.when(firmware.installedAt, null, firmware.installedBy),
            ...signer,
          })
        : words.t('report:firmware.notInstalledHere', { version: firmware.version, ...signer }),
    { indent: 10 },
  );
  const configuration = device.configuration;
  const applied = configuration.appliedAt !== null || configuration.syncId !== null;
  const deployStatus = deployStatusText(configuration.deployStatus, words.translator);
  w.text(
    !applied
      ? words.t('report:configuration.none', { status: deployStatus })
      : configuration.appliedAt
        ? words.t('report:configuration.applied', {
            status: deployStatus,
            ...words.when(configuration.appliedAt, configuration.workstation, configuration.appliedBy),
          })
        : words.t('report:configuration.status', { status: deployStatus }),
    { indent: 10 },
  );
  parametersBlock(w, device, words);
  const test = device.functionTest;
  if (test.result === null) w.text(words.t('report:functionTest.none'), { indent: 10, color: RED });
  else {
    w.text(
      words.t('report:functionTest.result', { result: test.result, ...words.when(test.at, test.workstation, test.by) }),
      { indent: 10, color: test.result === 'pass' ? GREEN : RED },
    );
    if (test.reactions) w.text(words.t('report:functionTest.reactions', { reactions: test.reactions }), { indent: 20 });
    if (test.note) w.text(words.t('report:functionTest.note', { note: test.note }), { indent: 20 });
  }
  w.gap(12);
}

/** Who confirmed the parameters and when, in words, then the verified table with both values (issue 26). */
function parametersBlock(w: Writer, device: ReportDevice, words: Phrases): void {
  const p = device.parameters;
  if (!p) {
    w.text(words.t('report:parameters.none'), { indent: 10, color: RED });
    return;
  }
  const confirmed = p.match && p.confirmedBy !== null;
  const verdict = !p.match
    ? words.t('report:parameters.differ')
    : confirmed
      ? words.t('report:parameters.confirmed', {
          person: p.confirmedBy ?? '',
          ...words.when(p.confirmedAt, null, null),
        })
      : words.t('report:parameters.unconfirmed');
  w.text(verdict, { indent: 10, color: confirmed ? GREEN : RED });
  w.text(
    words.t('report:parameters.readBack', {
      ...words.when(p.at, p.workstation, null),
      tool: p.toolRelease,
      match: p.match ? 'yes' : 'no',
      running: p.checksumShort,
      intended: p.intendedChecksum.slice(-8).toUpperCase(),
      by: p.checksumBy === 'device' ? 'device' : 'tool',
    }),
    { indent: 20, size: 9 },
  );
  w.gap(2);
  const rows: Cell[][] = [
    [
      { text: words.t('report:column.parameter') },
      { text: words.t('report:column.intended') },
      { text: words.t('report:column.running') },
      { text: '' },
    ],
  ];
  for (const row of p.rows) {
    const color = row.match ? BLACK : RED;
    rows.push([
      { text: parameterLabel(row.key, words.translator), color },
      { text: pdfValue(row.intended, row.unit, row.key, words), color },
      { text: pdfValue(row.running, row.unit, row.key, words), color },
      {
        text: row.match ? words.t('report:column.same') : words.t('report:column.differs'),
        color: row.match ? GREY : RED,
      },
    ]);
  }
  w.table([170, 120, 120, 50], rows, { size: 8, indent: 20, header: true });
  w.gap(4);
}

/** For the one who did the work and the one who accepts it: name, date, signature line. */
function signOff(w: Writer, report: CommissioningReport, words: Phrases): void {
  w.keep(170);
  w.text(words.t('report:signOff.heading'), { size: 13, font: 'bold' });
  w.text(words.t('report:signOff.text'), { size: 9, color: GREY });
  w.gap(10);
  const half = CONTENT / 2;
  w.side(
    [
      { x: 0, text: words.t('report:signOff.technician') },
      { x: half + 10, text: words.t('report:signOff.accepted') },
    ],
    { font: 'bold' },
  );
  // The person named by the ledger as having confirmed the parameters is the one who did the work.
  const technicians = report.people.filter((p) => p.role === 'confirmed the parameters').map((p) => p.name);
  for (const [label, technician] of [
    [words.t('report:signOff.name'), technicians.length > 0 ? namesText(technicians, words.translator.locale) : null],
    [words.t('report:signOff.date'), null],
    [words.t('report:signOff.signature'), null],
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

const LEDGER_STEP: Record<ReportLedgerEntry['step'], string> = {
  'firmware install': 'firmware',
  'configuration apply': 'configuration',
  'parameter verification': 'parameters',
  'function test': 'test',
};

/** The exact values, each where `ledger verify --entry` and the service's records can be checked against it. */
function appendix(w: Writer, report: CommissioningReport, words: Phrases): void {
  w.newPage();
  w.text(words.t('report:appendix.heading'), { size: 13, font: 'bold' });
  w.gap(4);
  const hashes = report.devices.flatMap((d) => d.ledgerEntries.map((e) => e.hash));
  w.text(words.t('report:appendix.intro', { workstation: report.workstation }), { size: 9 });
  w.text(`provisioner ledger verify --entry HASH${hashes.length > 1 ? ' --entry HASH ...' : ''}`, {
    font: 'mono',
    size: 9,
    indent: 10,
  });
  w.text(words.t('report:appendix.expect'), { size: 9 });
  w.gap(4);
  // Entry numbers are identifiers: written as digits, never grouped ("1234", not "1.234").
  const seq = String(report.ledger.headSeq);
  // The report read the ledger from its head back (issue 30): it vouches for the links it read, no more.
  w.text(
    report.ledger.intact
      ? words.t('report:appendix.fromHead', {
          entries: report.ledger.entries,
          from: String(report.ledger.fromSeq),
          seq,
        })
      : words.t('report:appendix.brokenFromHead', { where: report.ledger.broken ?? '?', seq }),
    { size: 9, color: report.ledger.intact ? BLACK : RED },
  );
  w.text(report.ledger.head, { font: 'mono', size: 8, indent: 10 });
  w.text(words.t('report:appendix.later'), { size: 9, color: GREY });
  w.gap(8);
  const label = 180;
  const valueWidth = CONTENT - label;
  const mono = (text: string): Cell => ({ text, font: 'mono', size: 8 });
  w.table(
    [label, valueWidth],
    [
      [{ text: words.t('report:appendix.reportMade') }, mono(report.generatedAt)],
      [{ text: words.t('report:appendix.language') }, mono(words.translator.language)],
      [{ text: words.t('report:appendix.configurationId') }, mono(report.configuration.id)],
      [{ text: words.t('report:appendix.organization') }, mono(report.orgId)],
      [{ text: words.t('report:appendix.workstation') }, mono(report.workstation)],
      [
        { text: words.t('report:appendix.timeZone') },
        {
          text: zoneText(
            report.timeZone,
            timeZoneShortName(report.generatedAt, report.timeZone, words.translator.locale),
          ),
        },
      ],
    ],
  );
  for (const device of report.devices) {
    w.gap(8);
    const rows: Cell[][] = [[{ text: device.serialNumber }, { text: '' }]];
    rows.push([
      { text: words.t('report:appendix.imageSha256') },
      device.firmware.imageSha256
        ? mono(device.firmware.imageSha256)
        : { text: words.t('report:appendix.imageUnknown') },
    ]);
    if (device.firmware.signedBy)
      rows.push([{ text: words.t('report:appendix.releaseKey') }, mono(device.firmware.signedBy)]);
    rows.push([
      { text: words.t('report:appendix.syncId') },
      device.configuration.syncId ? mono(device.configuration.syncId) : { text: words.t('report:appendix.syncNone') },
    ]);
    for (const workstation of new Set([
      device.configuration.workstation,
      device.functionTest.workstation,
      device.parameters?.workstation ?? null,
    ])) {
      if (workstation && workstation !== report.workstation)
        rows.push([
          { text: words.t('report:appendix.otherWorkstation', { short: workstation.slice(0, 8) }) },
          mono(workstation),
        ]);
    }
    if (device.parameters) {
      rows.push([{ text: words.t('report:appendix.checksumRunning') }, mono(device.parameters.runningChecksum)]);
      rows.push([{ text: words.t('report:appendix.checksumIntended') }, mono(device.parameters.intendedChecksum)]);
      rows.push([
        { text: words.t('report:appendix.toolBuild') },
        mono(`${device.parameters.toolRelease} (${device.parameters.toolBuild})`),
      ]);
    }
    if (device.ledgerEntries.length === 0)
      rows.push([{ text: words.t('report:appendix.ledgerEntries') }, { text: words.t('report:appendix.ledgerNone') }]);
    for (const entry of device.ledgerEntries) {
      rows.push([
        {
          text: words.t('report:appendix.ledgerEntry', {
            seq: String(entry.seq),
            step: LEDGER_STEP[entry.step],
            time: words.time(entry.at),
          }),
        },
        mono(entry.hash),
      ]);
    }
    w.table([label, valueWidth], rows, { header: true });
  }
}

/**
 * A safety parameter's value in the report's language. The report's JSON carries the English
 * words the configuration diff writes ('not set', 'on', 'CANopen'); the few that are words, not
 * numbers with units, are said again in the report's language here.
 */
function safetyValueText(parameter: ReportSafetyParameter, words: Phrases): string {
  const value = parameter.value;
  const word = (
    {
      'not set': 'report:value.notSet',
      none: 'report:value.none',
      on: 'report:value.on',
      off: 'report:value.off',
      'a password': 'report:value.password',
    } as Record<string, string>
  )[value];
  if (word !== undefined) return words.t(word);
  if (parameter.field === 'canMode') {
    const mode = CAN_MODES.find((m: CanMode) => canModeLabel(m) === value);
    if (mode !== undefined) return canModeLabel(mode, words.translator);
  }
  return value;
}

/** Every text of the report model that may need a font beyond the standard ones (names, notes, the configuration's). */
function dataText(report: CommissioningReport): string {
  return JSON.stringify(report);
}

export async function renderReportPdf(
  report: CommissioningReport,
  options: ReportPdfOptions = {},
): Promise<Uint8Array> {
  const language = options.language ?? SOURCE_LANGUAGE;
  const translator = createTranslator(language);
  const words = new Phrases(report, translator);
  const doc = await PDFDocument.create();
  const title = words.t('report:titleFor', { name: report.configuration.name });
  doc.setTitle(title);
  doc.setCreator('Provisioner');
  // The document says its language to readers and screen readers (the PDF catalog's /Lang).
  doc.setLanguage(translator.locale);
  doc.setCreationDate(new Date(report.generatedAt));
  const fonts = await ReportFonts.embed(doc, language === 'zh' ? 'required' : 'if-used', () => dataText(report));
  const w = new Writer(doc, fonts);
  const commissioned = report.devices.filter((d) => d.commissioning === 'commissioned').length;
  const total = report.devices.length;
  w.text(words.t('report:title'), { size: 18, font: 'bold' });
  w.text(words.t('report:configurationLine', { name: report.configuration.name }), { size: 12 });
  w.gap(6);
  const people = report.people.map((person) => personText(person, words));
  const languageName = language === PSEUDO_LANGUAGE ? PSEUDO_LANGUAGE : LANGUAGE_NAMES[language];
  w.table(
    [110, CONTENT - 110],
    [
      [
        { text: words.t('report:summary.result') },
        {
          text: words.t('report:summary.resultValue', { commissioned, total }),
          color: commissioned === total && commissioned > 0 ? GREEN : RED,
        },
      ],
      [
        { text: words.t('report:summary.workDoneBy') },
        { text: people.length > 0 ? people.join(words.t('report:peopleSeparator')) : words.t('report:summary.noOne') },
      ],
      [
        { text: words.t('report:summary.made') },
        { text: words.t('report:summary.madeValue', { time: words.time(report.generatedAt) }) },
      ],
      [{ text: words.t('report:summary.service') }, { text: report.service }],
      [
        { text: words.t('report:summary.ledger') },
        report.ledger.intact
          ? {
              text: words.t('report:summary.ledgerFromHead', {
                entries: report.ledger.entries,
                from: String(report.ledger.fromSeq),
              }),
            }
          : {
              text: words.t('report:summary.ledgerBrokenFromHead', {
                where: (report.ledger.broken ?? '?').replace(/ \(hash [0-9a-f]+…\)/, ''),
              }),
              color: RED,
            },
      ],
      [
        { text: words.t('report:summary.language') },
        { text: words.t('report:summary.languageValue', { name: languageName, code: language }) },
      ],
    ],
    { size: 10 },
  );
  w.gap(8);
  w.text(words.t('report:safetyParameters'), { size: 13, font: 'bold' });
  w.table(
    [200, CONTENT - 210],
    [
      [{ text: words.t('report:column.parameter') }, { text: words.t('report:column.valueInConfiguration') }],
      ...report.safetyParameters.map((p) => [
        { text: fieldLabel(p.field, translator) },
        { text: safetyValueText(p, words) },
      ]),
    ],
    { indent: 10, header: true },
  );
  w.gap(8);
  w.text(words.t('report:devices', { commissioned, total }), { size: 13, font: 'bold' });
  w.gap(4);
  for (const device of report.devices) deviceBlock(w, device, words);
  signOff(w, report, words);
  appendix(w, report, words);
  w.footers((page, pages) => words.t('report:footer', { title, page, pages }));
  return doc.save();
}

/** A parameter's value as the screens show it ('500 ms', 'CANopen', 'ja'), with a plain '-' for unset. */
function pdfValue(value: ParameterValue, unit: string, key: string, words: Phrases): string {
  return value === null ? '-' : parameterValueLabel(value, unit, key, words.translator);
}
