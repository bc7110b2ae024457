import type { LedgerEntry } from '../../../domain/ledger';
import { parameterDefinition, shortChecksum, type ParameterValue } from '../../../domain/running-parameters';

/**
 * A device's parameter verification as the commissioning report prints it (issue 26): the table
 * of the last verification after the last successful apply, both checksums, who confirmed it and
 * when, and the tool that did it, all from that ledger entry alone.
 */
export interface ReportParameters {
  at: string;
  match: boolean;
  intendedChecksum: string;
  runningChecksum: string;
  checksumShort: string;
  checksumBy: string;
  /** The person who typed the checksum; null when no one confirmed this verification. */
  confirmedBy: string | null;
  confirmedAt: string | null;
  /** "Provisioner 0.1.0 (commit …)" */
  tool: string;
  /** The same in two parts: "Provisioner 0.1.0" for the words, "commit …" (its build) for the appendix. */
  toolRelease: string;
  toolBuild: string;
  workstation: string;
  rows: {
    key: string;
    label: string;
    unit: string;
    intended: ParameterValue;
    running: ParameterValue;
    match: boolean;
  }[];
  ledgerHash: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** `p:<key>` facts hold `intended → running`, each as JSON. */
function rowsOf(entry: LedgerEntry): ReportParameters['rows'] {
  return Object.entries(entry.facts).flatMap(([fact, value]) => {
    if (!fact.startsWith('p:') || typeof value !== 'string') return [];
    const [intendedText, runningText] = value.split(' → ');
    try {
      const intended = JSON.parse(intendedText ?? 'null') as ParameterValue;
      const running = JSON.parse(runningText ?? 'null') as ParameterValue;
      const { key, label, unit } = parameterDefinition(fact.slice(2));
      return [{ key, label, unit, intended, running, match: intended === running }];
    } catch {
      return [];
    }
  });
}

/** The last parameter verification of the device after its last successful apply: the confirmed one if any. */
export function reportParametersOf(entries: readonly LedgerEntry[], serialNumber: string): ReportParameters | null {
  const mine = entries.filter((entry) => entry.serialNumber === serialNumber);
  const applyIndex = mine.findLastIndex(
    (entry) => entry.action === 'configuration-apply' && entry.outcome === 'success',
  );
  const verifications = mine.slice(applyIndex + 1).filter((entry) => entry.action === 'parameter-verification');
  const entry =
    verifications.findLast((v) => v.outcome === 'success' && text(v.facts['confirmedBy']) !== null) ??
    verifications.at(-1);
  if (!entry) return null;
  const runningChecksum = text(entry.facts['runningChecksum']) ?? '';
  const toolRelease = `${text(entry.facts['toolName']) ?? 'unknown tool'} ${text(entry.facts['toolVersion']) ?? ''}`;
  const toolBuild = text(entry.facts['toolBuild']) ?? 'build not recorded';
  return {
    at: entry.at,
    match: entry.facts['match'] === true,
    intendedChecksum: text(entry.facts['intendedChecksum']) ?? '',
    runningChecksum,
    checksumShort: shortChecksum(runningChecksum),
    checksumBy: text(entry.facts['checksumBy']) ?? 'device',
    confirmedBy: text(entry.facts['confirmedBy']),
    confirmedAt: text(entry.facts['confirmedAt']),
    tool: `${toolRelease} (${toolBuild})`,
    toolRelease,
    toolBuild,
    workstation: entry.workstation,
    rows: rowsOf(entry),
    ledgerHash: entry.hash,
  };
}
