import type { ServiceClient } from '../../cloud';
import type { StationShiftParametersView } from '../../../contract/station';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { originFields, type LedgerEntry, type LedgerRecord } from '../../../domain/ledger';
import {
  intendedParameters,
  orderedKeys,
  parameterDefinition,
  parameterValueText,
  PARAMETER_GROUPS,
  shortChecksum,
} from '../../../domain/running-parameters';
import { shiftParameters, type ShiftParameters } from '../../../domain/shift-parameters';
import type { ConfigFileStore } from '../../engine/jobs/config-file-store';
import { appendParameterVerifications, type VerifiedParameters } from '../../engine/jobs/parameter-check';
import type { Ledger } from '../../engine/ledger/ledger';
import { toolIdentity } from '../../engine/tool-identity';
import { StationSetupError, type StationRoster } from './roster';

type ShiftDeviceInput = Parameters<typeof shiftParameters>[1][number];

/**
 * Configuration files fetched at once when a shift starts. One at a time, a configuration of 300
 * devices kept the operator (and a Station started again after a crash) waiting 148 s on a loaded
 * 2-core machine (bench/soak.ts); the service makes each file on its own request.
 */
export const SHIFT_FILES_AT_ONCE = 8;

/**
 * The parameters a shift confirms (issue 26): every device's configuration file, fetched as a job
 * fetches it (the service's, kept for offline use; the kept one when the service is unreachable),
 * and its intended parameters computed by the tool's own code. A device whose file the service
 * cannot make yet stops the shift from starting, with its reason: the operator could not confirm
 * what it will run.
 */
export async function loadShiftParameters(
  roster: StationRoster,
  files: Pick<ConfigFileStore, 'resolve'>,
  client: Pick<ServiceClient, 'devices'>,
  signal?: AbortSignal,
): Promise<ShiftParameters> {
  const members = [...roster.devices];
  // Each slot is the roster's device at that place: the shift lists them in the roster's order
  // whatever order the files come in.
  const devices: Array<ShiftDeviceInput | undefined> = members.map(() => undefined);
  const failures: Array<string | undefined> = members.map(() => undefined);
  let next = 0;
  const fetcher = async (): Promise<void> => {
    while (next < members.length) {
      const index = next++;
      const [serialNumber, deviceType] = members[index]!;
      try {
        const file = await files.resolve(client.devices, serialNumber, signal ? { signal } : {});
        const decoded = decodeConfigFile(file.bytes);
        devices[index] = {
          serialNumber,
          deviceType,
          syncId: decoded.syncId.toLowerCase(),
          values: intendedParameters(decoded.content),
        };
      } catch (error) {
        failures[index] = `${serialNumber} (${error instanceof Error ? error.message : String(error)})`;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SHIFT_FILES_AT_ONCE, members.length) }, fetcher));
  const missing = failures.filter((failure): failure is string => failure !== undefined);
  if (missing.length > 0) {
    throw new StationSetupError(
      `The configuration "${roster.configurationName}" has no configuration file yet for ${missing.join('; ')}. Ask the safety engineer to complete the configuration; the shift starts once every device's parameters can be shown and confirmed.`,
    );
  }
  return shiftParameters(
    { id: roster.configurationId, name: roster.configurationName },
    devices.filter((device): device is ShiftDeviceInput => device !== undefined),
  );
}

/** The shift's parameters as the Station screen shows them before the operator confirms. */
export function shiftParametersView(shift: ShiftParameters): StationShiftParametersView {
  return {
    configurationName: shift.configurationName,
    checksumShort: shortChecksum(shift.checksum),
    devices: shift.devices.map((device) => ({
      serialNumber: device.serialNumber,
      deviceType: device.deviceType,
      checksumShort: shortChecksum(device.checksum),
      // In the order the Workbench's table and the CLI's show them.
      rows: orderedKeys(Object.keys(device.values)).map((key) => {
        const definition = parameterDefinition(key);
        return {
          key,
          group: PARAMETER_GROUPS[definition.group],
          label: definition.label,
          intended: parameterValueText(device.values[key] ?? null, definition.unit, key),
        };
      }),
    })),
  };
}

/** Who confirmed the shift, where, and for which service: the context of every record of the shift. */
export interface ShiftRecordContext {
  workstation: string;
  /** The operator: the person, not the API key. */
  operator: string;
  /** The API key's name; absent for the local workspace. */
  actor?: string;
  serviceUrl?: string;
  orgId?: string;
}

/** The subject of a shift's ledger entry: a configuration, not a device. */
export function shiftSubject(configurationId: string): string {
  return `configuration:${configurationId}`.slice(0, 64);
}

/**
 * The shift's ledger entry ('station-shift'): the operator who confirmed, the configuration's
 * checksum they typed the short form of, each device's intended checksum (`d:<serial>`) and the
 * tool's identity.
 */
export async function shiftConfirmationRecord(
  shift: ShiftParameters,
  context: ShiftRecordContext,
  at: Date,
): Promise<LedgerRecord> {
  const tool = await toolIdentity();
  const devices = Object.fromEntries(shift.devices.map((d) => [`d:${d.serialNumber}`.slice(0, 64), d.checksum]));
  return {
    at: at.toISOString(),
    action: 'station-shift',
    outcome: 'success',
    serialNumber: shiftSubject(shift.configurationId),
    ...originFields(context),
    facts: {
      configurationId: shift.configurationId,
      configurationName: shift.configurationName.slice(0, 2000),
      checksum: shift.checksum,
      checksumShort: shortChecksum(shift.checksum),
      operator: context.operator,
      confirmedBy: context.operator,
      confirmedAt: at.toISOString(),
      devices: shift.devices.length,
      toolName: tool.name,
      toolVersion: tool.version,
      toolBuild: tool.build,
      ...devices,
    },
  };
}

/** A device's verification in a shift, as the Station hands it to be recorded. */
export type ShiftVerificationRecorder = (verified: VerifiedParameters, confirmedByShift: boolean) => Promise<void>;

/**
 * Records each device's automatic verification of the shift in the ledger, through the path the
 * CLI and the Workbench use: a match is confirmed by the operator's confirmation of the shift
 * (`confirmedBy` the operator, `confirmedHow` 'by shift', the shift's checksum); a difference is
 * a failed verification that names the operator and no confirmation.
 */
export function shiftVerificationRecorder(
  ledger: Pick<Ledger, 'append'>,
  shift: ShiftParameters,
  context: ShiftRecordContext,
  confirmedAt: Date,
  afterAppend?: (entries: LedgerEntry[]) => void,
): ShiftVerificationRecorder {
  return async (verified, confirmedByShift) => {
    const entries = await appendParameterVerifications(ledger, [verified], {
      ...originFields(context),
      person: context.operator,
      confirmation: confirmedByShift ? { person: context.operator, at: confirmedAt } : null,
      shiftChecksum: shift.checksum,
    });
    afterAppend?.(entries);
  };
}
