import { englishWords, type Words } from './domain-words';
import { parameterLabel, parameterValueLabel } from './parameter-labels';
import { shortChecksum, type ParameterComparison, type ParameterValue } from './running-parameters';

/**
 * Why a Station lane's device is kept apart, as codes and values: the core decides it
 * (main/features/station/station.ts), the screens and the CLI say it in the reader's language
 * from the station catalog (`station:keptApart.*`). A differing parameter travels as its key, unit
 * and the two values, so that its name and a value of choices ("E-stop switch") are said in the
 * reader's words while the figures stay as the device sent them.
 */
export type KeptApartReason =
  /** It took its configuration file but runs other values: `first` intended, `second` running. */
  | { kind: 'parametersDiffer'; rows: DifferingParameter[] }
  /** Its checksum is not that of the values it reported: its parameter memory is not trusted. */
  | { kind: 'checksumNotOfValues' }
  /** Every reported row matches, but the checksums do not. */
  | { kind: 'checksumsDiffer' }
  /** The configuration changed since the shift was confirmed: `first` intended now, `second` confirmed. */
  | { kind: 'shiftChanged'; rows: DifferingParameter[] }
  /** As shiftChanged, where only the device's whole checksum says so (short forms). */
  | { kind: 'shiftChecksumChanged'; now: string; confirmed: string }
  /** It was not in the configuration when the shift was confirmed. */
  | { kind: 'notInShift' }
  /** Its parameters were not read back, so nothing says it runs what was confirmed. */
  | { kind: 'notReadBack' };

export interface DifferingParameter {
  key: string;
  unit: string;
  first: ParameterValue;
  second: ParameterValue;
}

/** The rows a device runs otherwise than intended, or why the comparison failed without one. */
export function parametersDifferReason(comparison: ParameterComparison): KeptApartReason {
  const rows = comparison.rows
    .filter((row) => !row.match)
    .map((row) => ({ key: row.key, unit: row.unit, first: row.intended, second: row.running }));
  if (rows.length > 0) return { kind: 'parametersDiffer', rows };
  return comparison.checksumsMatch ? { kind: 'checksumNotOfValues' } : { kind: 'checksumsDiffer' };
}

/** The shift's checksum departure in short forms. */
export function shiftChecksumChanged(now: string, confirmed: string): KeptApartReason {
  return { kind: 'shiftChecksumChanged', now: shortChecksum(now), confirmed: shortChecksum(confirmed) };
}

/**
 * The reason in words: English by default, which is the sentence the core's `reason` says.
 * "The device took its configuration file but does not run its parameters: Safety timeout
 * 500 ms intended, 1024 ms running."
 */
export function keptApartText(reason: KeptApartReason, words: Words = englishWords()): string {
  switch (reason.kind) {
    case 'parametersDiffer':
      return words.t('station:keptApart.parametersDiffer', {
        rows: rowsText(reason.rows, 'station:keptApart.intendedRunning', words),
      });
    case 'shiftChanged':
      return words.t('station:keptApart.shiftChanged', {
        rows: rowsText(reason.rows, 'station:keptApart.nowConfirmed', words),
      });
    case 'shiftChecksumChanged':
      return words.t('station:keptApart.shiftChecksumChanged', { now: reason.now, confirmed: reason.confirmed });
    default:
      return words.t(`station:keptApart.${reason.kind}`);
  }
}

function rowsText(
  rows: readonly DifferingParameter[],
  rowKey: 'station:keptApart.intendedRunning' | 'station:keptApart.nowConfirmed',
  words: Words,
): string {
  return rows
    .map((row) =>
      words.t(rowKey, {
        parameter: parameterLabel(row.key, words),
        first: parameterValueLabel(row.first, row.unit, row.key, words),
        second: parameterValueLabel(row.second, row.unit, row.key, words),
      }),
    )
    .join(words.t('station:keptApart.rowSeparator'));
}
