import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { StationNoteView } from '../../../contract/station';
import { writeFileAtomic } from '../../../platform/durable-file';
import type { Lane } from './lane';

/** The columns of the shift report, in order. */
export const SHIFT_REPORT_COLUMNS = [
  'serialNumber',
  'deviceType',
  'link',
  'result',
  'firmwareBefore',
  'firmwareAfter',
  'syncId',
  'confirmation',
  'attempts',
  'startedAt',
  'finishedAt',
  'reason',
  'whatToDo',
] as const;

export interface ShiftSummary {
  configurationName: string;
  startedAt: string;
  stoppedAt: string;
}

/** One row per device the station saw: lanes by their last outcome, then refused and duplicate plugs. */
export function shiftReportRows(lanes: readonly Lane[], notes: readonly StationNoteView[]): string[][] {
  const rows = lanes.map((lane) => [
    lane.serialNumber,
    lane.deviceType ?? '',
    lane.link,
    lane.state === 'working' ? 'unfinished' : lane.state,
    lane.firmwareBefore ?? '',
    lane.state === 'done' ? (lane.job?.firmwareVersion ?? lane.firmwareBefore ?? '') : '',
    lane.state === 'done' ? (lane.job?.syncId ?? '') : '',
    lane.job?.confirmation ?? '',
    String(lane.attempts),
    lane.startedAt,
    lane.finishedAt ?? '',
    lane.state === 'done' ? '' : (lane.reason ?? ''),
    lane.state === 'failed' ? (lane.action ?? '') : '',
  ]);
  for (const note of notes)
    rows.push([note.serialNumber, '', note.link, note.kind, '', '', '', '', '0', note.at, note.at, note.message, '']);
  return rows;
}

/**
 * The shift report as CSV (RFC 4180, a header line). Cells a spreadsheet would run as a formula
 * (starting with =, +, -, @) are escaped: a device's error text must not become a formula.
 */
export function shiftReportCsv(rows: readonly (readonly string[])[]): string {
  return stringify([[...SHIFT_REPORT_COLUMNS], ...rows.map((r) => [...r])], {
    escape_formulas: true,
    record_delimiter: 'unix',
  });
}

/** Where a shift's report goes unless told: `<dir>/shift-<start, UTC>-<configuration>.csv`. */
export function shiftReportPath(dir: string, summary: Pick<ShiftSummary, 'configurationName' | 'startedAt'>): string {
  const stamp = summary.startedAt.replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  const name =
    summary.configurationName
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'configuration';
  return join(dir, `shift-${stamp}-${name}.csv`);
}

/** Writes the report atomically (a crash leaves the whole file or none). */
export async function writeShiftReport(path: string, rows: readonly (readonly string[])[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, shiftReportCsv(rows), 0o600);
}
