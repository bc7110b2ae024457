import type { DeviceRecord } from '../../../../../domain/registered-device-record';

/** The configuration file's syncId the service serves EPC000101 (`deviceRecord().currentSyncId`). */
export const SYNC_A = '11111111-1111-4111-8111-111111111111';
/** Another configuration file's syncId. */
export const SYNC_B = '22222222-2222-4222-8222-222222222222';

/** The service's record of EPC000101, registered in configuration "Line 1", with `change` on top. */
export function deviceRecord(change: Partial<DeviceRecord> = {}): DeviceRecord {
  return {
    serialNumber: 'EPC000101',
    name: 'EPC000101',
    deviceType: 'EPC',
    model: 'EPC-E4',
    hasImage: false,
    deviceImage: null,
    configurationId: '33333333-3333-4333-8333-333333333333',
    configurationName: 'Line 1',
    firmwareVersion: null,
    lastFirmwareApply: null,
    deployStatus: 'NotDeployed',
    deployedSyncId: null,
    currentSyncId: SYNC_A,
    lastConfigurationApply: null,
    registeredAt: '2025-01-01T00:00:00.000Z',
    ...change,
  };
}
