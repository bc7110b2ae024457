import type { DecodedConfigFile } from '../../../domain/files/config-file';
import { originFields, type LedgerEntry, type LedgerRecord, type LedgerRecordOrigin } from '../../../domain/ledger';
import {
  compareParameters,
  intendedParameters,
  shortChecksum,
  type ParameterComparison,
  type ParameterValue,
} from '../../../domain/running-parameters';
import type { Ledger } from '../ledger/ledger';
import { toolIdentity, type ToolIdentity } from '../tool-identity';
import type { DeviceConnection } from './device-port';

/**
 * Parameter verification (issue 26), the step after the read-back of an apply and what
 * `device verify --parameters` does: the device's running parameters read back, compared key by
 * key and checksum against checksum with what the configuration file intends, computed here with
 * the tool's own code from the file the service made (never from what the device says).
 */
export async function checkRunningParameters(
  connection: Pick<DeviceConnection, 'readRunningParameters'>,
  file: DecodedConfigFile,
  signal?: AbortSignal,
): Promise<ParameterComparison> {
  const running = await connection.readRunningParameters(signal, file);
  return compareParameters(intendedParameters(file.content), running);
}

/** Who confirmed a matching table, and when: only ever a person who typed the device's short checksum. */
export interface ParameterConfirmation {
  person: string;
  at: Date;
}

/** The origin's `actor` is the API key's name, absent for the local workspace. */
export interface ParameterVerificationRecordInput extends LedgerRecordOrigin {
  serialNumber: string;
  /** The file the intended values were computed from. */
  syncId: string;
  comparison: ParameterComparison;
  tool: ToolIdentity;
  /** The technician at the workstation (their own name, not the API key's). */
  person: string | null;
  link: string;
  /** Present when the person confirmed the table (a match only). */
  confirmation: ParameterConfirmation | null;
  /** At a Station: the configuration checksum the operator confirmed at the start of the shift, which confirms this device's table (domain/shift-parameters.ts). */
  shiftChecksum?: string;
  at: Date;
}

/** A fact's text of a value: JSON, so text "1" and the number 1 differ. */
function valueFact(value: ParameterValue): string {
  return JSON.stringify(value);
}

/**
 * The ledger entry of a verification: both checksums, the table's digest and the table itself
 * (one fact per parameter, `p:<key>` = `intended → running`, for the commissioning report), the
 * person, the workstation and the tool. Its outcome is the automatic check's (a success when
 * everything matches); `confirmedBy` names the person who confirmed the table, null when no one
 * did: a device counts as verified only with both (domain/ledger-commissioning.ts).
 */
export function parameterVerificationRecord(input: ParameterVerificationRecordInput): LedgerRecord {
  const { comparison } = input;
  const confirmation = comparison.match ? input.confirmation : null;
  const table = Object.fromEntries(
    comparison.rows.map((row) => [
      `p:${row.key}`.slice(0, 64),
      `${valueFact(row.intended)} → ${valueFact(row.running)}`.slice(0, 2000),
    ]),
  );
  const mismatched = comparison.rows.filter((row) => !row.match).map((row) => row.key);
  const error = comparison.match
    ? undefined
    : `parameters differ from the configuration${mismatched.length > 0 ? `: ${mismatched.join(', ')}` : ''}${comparison.checksumsMatch ? '' : ' (checksums differ)'}${comparison.runningChecksumConsistent ? '' : "; the device's checksum is not that of the values it reported"}`;
  return {
    at: input.at.toISOString(),
    action: 'parameter-verification',
    outcome: comparison.match ? 'success' : 'failure',
    serialNumber: input.serialNumber,
    ...originFields(input),
    facts: {
      syncId: input.syncId,
      link: input.link,
      match: comparison.match,
      intendedChecksum: comparison.intendedChecksum,
      runningChecksum: comparison.runningChecksum,
      checksumShort: shortChecksum(comparison.runningChecksum),
      checksumBy: comparison.checksumBy,
      tableDigest: comparison.tableDigest,
      person: input.person,
      confirmedBy: confirmation?.person ?? null,
      confirmedAt: confirmation?.at.toISOString() ?? null,
      // At a Station, the shift's checksum; 'by shift' when the operator's confirmation of it confirms this table.
      ...(input.shiftChecksum
        ? { shiftChecksum: input.shiftChecksum, ...(confirmation ? { confirmedHow: 'by shift' } : {}) }
        : {}),
      toolName: input.tool.name,
      toolVersion: input.tool.version,
      toolBuild: input.tool.build,
      ...table,
    },
    ...(error ? { error: error.slice(0, 2000) } : {}),
  };
}

/** One device's verification, as the CLI and the Workbench both hold it after an apply. */
export interface VerifiedParameters {
  serialNumber: string;
  link: string;
  syncId: string;
  comparison: ParameterComparison;
}

/** Who records, where: the same for every verification of one confirmation. */
export interface ParameterVerificationContext extends LedgerRecordOrigin {
  /** The technician (their own name, not the API key's); null when no one gave it. */
  person: string | null;
  /** Present only when that person confirmed (typed the device's short checksum of a matching table). */
  confirmation: ParameterConfirmation | null;
  /** At a Station: the configuration checksum the operator confirmed for the shift (the person confirmed by shift, not per device). */
  shiftChecksum?: string;
}

/**
 * Appends each verification to the ledger, naming the tool: the one path by which both the CLI
 * (`configuration update`, `device verify --parameters`) and the Workbench record verifications
 * and confirmations. Sending the ledger to the service is the caller's.
 */
export async function appendParameterVerifications(
  ledger: Pick<Ledger, 'append'>,
  verified: readonly VerifiedParameters[],
  context: ParameterVerificationContext,
): Promise<LedgerEntry[]> {
  const tool = await toolIdentity();
  const entries: LedgerEntry[] = [];
  for (const v of verified) {
    entries.push(
      await ledger.append(
        parameterVerificationRecord({
          serialNumber: v.serialNumber,
          syncId: v.syncId,
          comparison: v.comparison,
          ...originFields(context),
          tool,
          person: context.person,
          link: v.link,
          confirmation: context.confirmation,
          ...(context.shiftChecksum ? { shiftChecksum: context.shiftChecksum } : {}),
          at: new Date(),
        }),
      ),
    );
  }
  return entries;
}
