import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../../domain/i18n/index.js';
import type { DeviceRecord } from '../../../../domain/registered-device-record';
import { syncDetailText } from '../../../../domain/sync-detail';
import { deviceSync, type DeviceReading } from '../../../../main/engine/jobs/device-sync';

/**
 * A device's sync detail as codes and values (DeviceSync.findings, issue 29) beside the core's
 * English sentence: said in English from the catalog, the findings read as the sentence does, so
 * the two cannot drift apart unseen; said in German and Chinese from the same findings.
 */

const SYNC_A = '11111111-1111-4111-8111-111111111111';
const SYNC_B = '22222222-2222-4222-8222-222222222222';

function record(change: Partial<DeviceRecord> = {}): DeviceRecord {
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

const current: DeviceReading = { firmwareVersion: '1.1.0', configSyncId: SYNC_A };
const nameless: DeviceReading = { firmwareVersion: '1.1.0', configSyncId: null };

describe('a device’s sync findings', () => {
  it('say in English what the core’s sentence says, in every case the core knows', () => {
    const cases = [
      deviceSync(current, record(), '1.1.0'),
      deviceSync({ ...current, firmwareVersion: '1.0.0', configSyncId: SYNC_B }, record(), '1.1.0'),
      deviceSync({ ...current, configSyncId: null }, record({ currentSyncId: null }), '1.1.0'),
      deviceSync(current, record({ configurationId: null, configurationName: null, currentSyncId: null }), '1.1.0'),
      deviceSync({ firmwareVersion: null, configSyncId: SYNC_A }, record(), '1.1.0'),
      deviceSync(current, record(), undefined),
      deviceSync(current, null, '1.1.0'),
      deviceSync(current, undefined, '1.1.0'),
      deviceSync(
        { ...nameless, settingsReadBack: { syncId: SYNC_A, compared: 12, mismatches: null } },
        record(),
        '1.1.0',
      ),
      deviceSync(
        {
          ...nameless,
          settingsReadBack: { syncId: SYNC_A, compared: 12, mismatches: 'channel is 4, the file says 3' },
        },
        record(),
        '1.1.0',
      ),
      deviceSync({ ...nameless, namesNoFile: true }, record({ deployedSyncId: SYNC_A }), '1.1.0'),
      deviceSync({ ...nameless, namesNoFile: true }, record(), '1.1.0'),
    ];
    for (const sync of cases) expect(syncDetailText(sync.findings ?? []), sync.text).toBe(sync.text);
  });

  it('say the same findings in German and Chinese', () => {
    const sync = deviceSync({ ...current, firmwareVersion: '1.0.0', configSyncId: SYNC_B }, record(), '1.1.0');
    expect(syncDetailText(sync.findings ?? [], createTranslator('de'))).toBe(
      `Firmware veraltet (Gerät 1.0.0, Dienst erwartet 1.1.0); Konfiguration abweichend (Gerät hat syncId ${SYNC_B}, Dienst erwartet ${SYNC_A})`,
    );
    expect(syncDetailText(sync.findings ?? [], createTranslator('zh'))).toBe(
      `固件落后（设备 1.0.0，服务预期 1.1.0）；配置偏离（设备持有 syncId ${SYNC_B}，服务预期 ${SYNC_A}）`,
    );
  });
});
