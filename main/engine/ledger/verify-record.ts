import type { LedgerRecord } from '../../../domain/ledger';
import type { DeviceSync } from '../jobs/device-sync';

/**
 * A verify as the ledger keeps it: what the device reported against what the service expects,
 * a success only when it is in sync. A verify changes nothing on the device; the record says that
 * someone looked, when, and what they saw.
 */
export function verifyRecord(input: {
  serialNumber: string;
  workstation: string;
  serviceUrl: string;
  orgId: string;
  link: string;
  sync: DeviceSync;
  at: Date;
}): LedgerRecord {
  const { sync } = input;
  return {
    at: input.at.toISOString(),
    action: 'verify',
    outcome: sync.state === 'in-sync' ? 'success' : 'failure',
    serialNumber: input.serialNumber,
    workstation: input.workstation,
    serviceUrl: input.serviceUrl,
    orgId: input.orgId,
    facts: {
      state: sync.state,
      link: input.link,
      firmwareVersion: sync.firmware.version,
      expectedFirmwareVersion: sync.firmware.expected,
      syncId: sync.configuration.syncId,
      expectedSyncId: sync.configuration.expected,
    },
    ...(sync.state === 'in-sync' ? {} : { error: sync.text.slice(0, 2000) }),
  };
}
