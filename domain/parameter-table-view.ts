import {
  parameterMismatchAdvice,
  parameterValueText,
  PARAMETER_GROUPS,
  shortChecksum,
  type ParameterComparison,
} from './running-parameters';

/**
 * A parameter verification as a screen shows it (issue 26): every value already in plain words and
 * units, both checksums already short. Made in the core, so the renderer needs none of the
 * checksum code (which hashes with node:crypto) and cannot show a value differently from the CLI.
 */
export interface ParameterTableView {
  rows: {
    key: string;
    /** The group's plain name ('Safety function'). */
    group: string;
    label: string;
    intended: string;
    running: string;
    match: boolean;
  }[];
  /** The last 8 hex digits, upper case: what the person reads and types. */
  intendedChecksumShort: string;
  runningChecksumShort: string;
  checksumBy: 'device' | 'host';
  runningChecksumConsistent: boolean;
  checksumsMatch: boolean;
  match: boolean;
  /** What the technician does about a mismatch; null on a match. */
  advice: string | null;
}

export function parameterTableView(comparison: ParameterComparison): ParameterTableView {
  return {
    rows: comparison.rows.map((row) => ({
      key: row.key,
      group: PARAMETER_GROUPS[row.group],
      label: row.label,
      intended: parameterValueText(row.intended, row.unit, row.key),
      running: parameterValueText(row.running, row.unit, row.key),
      match: row.match,
    })),
    intendedChecksumShort: shortChecksum(comparison.intendedChecksum),
    runningChecksumShort: shortChecksum(comparison.runningChecksum),
    checksumBy: comparison.checksumBy,
    runningChecksumConsistent: comparison.runningChecksumConsistent,
    checksumsMatch: comparison.checksumsMatch,
    match: comparison.match,
    advice: parameterMismatchAdvice(comparison),
  };
}
