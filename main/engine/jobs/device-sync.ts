import type { ServiceClient } from '../../cloud';
import { ServiceError } from '../../cloud/errors';
import type { DeviceType } from '../../../domain/device-types';
import { compareVersions } from '../../../domain/firmware-version';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import type { DeviceSyncState, SyncFinding } from '../../../domain/sync-detail';
import type { DeviceSyncRecord } from '../../../contract/readback';

// The states and their words are the domain's (domain/sync-detail.ts): the CLI says them too.
export { SYNC_STATE_LABELS, type DeviceSyncState } from '../../../domain/sync-detail';

/** How a device stands against what the service expects: the record the read-back channels answer whole. */
export type DeviceSync = DeviceSyncRecord;

/** What is known of the device: read from it when attached, or what the service last recorded of it. */
export interface DeviceReading {
  firmwareVersion: string | null;
  configSyncId: string | null;
  /**
   * For a device that names no configuration file it holds (the vendor's EPC: configSyncId null),
   * its running settings read back against the file the service serves it now, value by value
   * (settings-check.ts). When that file is the expected one, this stands in for the syncId.
   */
  settingsReadBack?: SettingsReadBack;
  /**
   * The device names no configuration file it holds, and its settings were not read back (the
   * vendor's EPC in `device list`): its configuration is then not judged by a syncId it cannot give.
   */
  namesNoFile?: boolean;
}

/** A device's running settings compared with one configuration file. */
export interface SettingsReadBack {
  /** The syncId of the file compared with. */
  syncId: string;
  /** How many settings were read. */
  compared: number;
  /** "ISM radio channel (cfg/setup/radioChannel) is 4, the configuration says 3; …", or null when all match. */
  mismatches: string | null;
}

/**
 * `record`: the service's record; null when the device is not registered in the organization,
 * undefined when it could not be read. `latestFirmware`: the service's latest version for the
 * device's type; null when it has none (then it expects no version), undefined when unknown.
 */
export function deviceSync(
  reading: DeviceReading,
  record: DeviceRecord | null | undefined,
  latestFirmware: string | null | undefined,
): DeviceSync {
  const lastObservedAt = record ? lastObservationOf(record) : null;
  const firmware = { version: reading.firmwareVersion, expected: latestFirmware ?? null };
  const configuration = { syncId: reading.configSyncId, expected: record ? expectedSyncId(record) : null };
  if (record === undefined)
    return {
      state: 'unknown',
      text: 'unknown: the service could not be asked',
      findings: [{ kind: 'serviceNotAsked' }],
      firmware,
      configuration,
      lastObservedAt,
    };
  if (record === null)
    return {
      state: 'unknown',
      text: 'unknown: not registered in this organization',
      findings: [{ kind: 'notRegistered' }],
      firmware,
      configuration,
      lastObservedAt,
    };

  const problems: string[] = [];
  /** Said after "in sync": how it was told, when not by the file's syncId. */
  const notes: string[] = [];
  const findings: SyncFinding[] = [];
  let state: DeviceSyncState = 'in-sync';
  const worse = (next: DeviceSyncState) => {
    if (RANK[next] > RANK[state]) state = next;
  };
  if (reading.firmwareVersion === null) {
    worse('unknown');
    problems.push('firmware never observed');
    findings.push({ kind: 'firmwareNeverObserved' });
  } else if (latestFirmware === undefined) {
    worse('unknown');
    problems.push(`firmware ${reading.firmwareVersion}, latest unknown`);
    findings.push({ kind: 'firmwareLatestUnknown', version: reading.firmwareVersion });
  } else if (latestFirmware !== null && compareVersions(latestFirmware, reading.firmwareVersion) > 0) {
    worse('behind');
    problems.push(`firmware behind (device ${reading.firmwareVersion}, service expects ${latestFirmware})`);
    findings.push({ kind: 'firmwareBehind', version: reading.firmwareVersion, expected: latestFirmware });
  }
  if (record.configurationId === null) {
    worse('unconfigured');
    problems.push('not in any configuration');
    findings.push({ kind: 'notInConfiguration' });
  } else if (
    reading.configSyncId === null &&
    reading.settingsReadBack &&
    sameSyncId(reading.settingsReadBack.syncId, configuration.expected)
  ) {
    // The device cannot name its file; its settings, read back against the expected one, tell.
    const { compared, mismatches } = reading.settingsReadBack;
    if (mismatches !== null) {
      worse('drift');
      problems.push(`configuration drift (the device names no file it holds; its settings read back: ${mismatches})`);
      findings.push({ kind: 'settingsDrift', mismatches });
    } else {
      notes.push(`the device names no file it holds; its ${compared} settings read back equal the configuration's`);
      findings.push({ kind: 'settingsEqual', compared });
    }
  } else if (reading.configSyncId === null && reading.namesNoFile === true) {
    // Not drift: nothing was read that could differ. `device verify` reads the settings back.
    worse('unknown');
    const recorded =
      record.deployedSyncId === null
        ? 'no apply recorded'
        : `the service recorded syncId ${record.deployedSyncId} applied`;
    problems.push(
      `configuration not read: the device names no file it holds (${recorded}); device verify reads its settings back`,
    );
    findings.push({ kind: 'configurationNotRead', recordedSyncId: record.deployedSyncId });
  } else if (!sameSyncId(reading.configSyncId, configuration.expected)) {
    worse('drift');
    const held = reading.configSyncId === null ? 'no configuration' : `syncId ${reading.configSyncId}`;
    const expected =
      configuration.expected ??
      `the file of “${record.configurationName ?? record.configurationId}”, not downloaded since it changed`;
    problems.push(`configuration drift (device has ${held}, service expects ${expected})`);
    findings.push({
      kind: 'configurationDrift',
      held: reading.configSyncId,
      expected: configuration.expected,
      configuration: record.configurationName ?? record.configurationId,
    });
  }
  const inSync = notes.length === 0 ? 'in sync' : `in sync (${notes.join('; ')})`;
  return {
    state,
    text: problems.length === 0 ? inSync : problems.join('; '),
    findings,
    firmware,
    configuration,
    lastObservedAt,
  };
}

/** Which state a device shows when several apply: the one that needs a job first. */
const RANK: Record<DeviceSyncState, number> = { 'in-sync': 0, unknown: 1, unconfigured: 2, drift: 3, behind: 4 };

/**
 * The syncId the device should hold: the file served now (our service says it: currentSyncId), or,
 * from a service without it, the deployed one while it is current.
 */
function expectedSyncId(record: DeviceRecord): string | null {
  if (record.configurationId === null) return null;
  if (record.currentSyncId !== undefined) return record.currentSyncId;
  return record.deployStatus === 'Deployed' ? record.deployedSyncId : null;
}

function sameSyncId(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
}

function lastObservationOf(record: DeviceRecord): string | null {
  const times = [record.lastFirmwareApply, record.lastConfigurationApply]
    .filter((apply) => apply !== null)
    .map((apply) => apply.observedAt ?? apply.appliedAt);
  if (times.length === 0) return null;
  return times.reduce((latest, t) => (Date.parse(t) > Date.parse(latest) ? t : latest));
}

/** What the service last recorded of a device, as a reading (the registry, where no device is attached). */
export function recordedReading(record: DeviceRecord): DeviceReading {
  return { firmwareVersion: record.firmwareVersion, configSyncId: record.deployedSyncId };
}

/**
 * The service's latest firmware version per device type, each asked once: null for a type it has
 * none of, undefined for one it could not be asked about.
 */
export async function latestFirmwareByType(
  client: { devices: Pick<ServiceClient['devices'], 'firmwareVersionByType'> },
  types: Iterable<DeviceType>,
  signal?: AbortSignal,
): Promise<Map<DeviceType, string | null | undefined>> {
  const distinct = [...new Set(types)];
  const answers = await Promise.all(
    distinct.map(async (deviceType) => {
      try {
        return (await client.devices.firmwareVersionByType(deviceType, { retry: false, ...(signal ? { signal } : {}) }))
          .version;
      } catch (err) {
        return err instanceof ServiceError && err.entry('FIRMWARE_NOT_AVAILABLE') ? null : undefined;
      }
    }),
  );
  return new Map(distinct.map((deviceType, i) => [deviceType, answers[i]]));
}
