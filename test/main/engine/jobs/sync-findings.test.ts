import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { syncDetailText } from '../../../../domain/sync-detail';
import { deviceSync, type DeviceReading } from '../../../../main/engine/jobs/device-sync';
import { deviceRecord, SYNC_A, SYNC_B } from './helpers/device-record';

/**
 * A device's sync detail as codes and values (DeviceSync.findings, issue 29) beside the core's
 * English sentence: said in English from the catalog, the findings read as the sentence does, so
 * the two cannot drift apart unseen; said in German and Chinese from the same findings.
 */

const current: DeviceReading = { firmwareVersion: '1.1.0', configSyncId: SYNC_A };
const nameless: DeviceReading = { firmwareVersion: '1.1.0', configSyncId: null };

describe('a device’s sync findings', () => {
  it('say in English what the core’s sentence says, in every case the core knows', () => {
    const cases = [
      deviceSync(current, deviceRecord(), '1.1.0'),
      deviceSync({ ...current, firmwareVersion: '1.0.0', configSyncId: SYNC_B }, deviceRecord(), '1.1.0'),
      deviceSync({ ...current, configSyncId: null }, deviceRecord({ currentSyncId: null }), '1.1.0'),
      deviceSync(
        current,
        deviceRecord({ configurationId: null, configurationName: null, currentSyncId: null }),
        '1.1.0',
      ),
      deviceSync({ firmwareVersion: null, configSyncId: SYNC_A }, deviceRecord(), '1.1.0'),
      deviceSync(current, deviceRecord(), undefined),
      deviceSync(current, null, '1.1.0'),
      deviceSync(current, undefined, '1.1.0'),
      deviceSync(
        { ...nameless, settingsReadBack: { syncId: SYNC_A, compared: 12, mismatches: null } },
        deviceRecord(),
        '1.1.0',
      ),
      deviceSync(
        {
          ...nameless,
          settingsReadBack: { syncId: SYNC_A, compared: 12, mismatches: 'channel is 4, the file says 3' },
        },
        deviceRecord(),
        '1.1.0',
      ),
      deviceSync({ ...nameless, namesNoFile: true }, deviceRecord({ deployedSyncId: SYNC_A }), '1.1.0'),
      deviceSync({ ...nameless, namesNoFile: true }, deviceRecord(), '1.1.0'),
    ];
    for (const sync of cases) expect(syncDetailText(sync.findings ?? []), sync.text).toBe(sync.text);
  });

  it('say the same findings in German and Chinese', () => {
    const sync = deviceSync({ ...current, firmwareVersion: '1.0.0', configSyncId: SYNC_B }, deviceRecord(), '1.1.0');
    expect(syncDetailText(sync.findings ?? [], createTranslator('de'))).toBe(
      `Firmware veraltet (Gerät 1.0.0, Dienst erwartet 1.1.0); Konfiguration abweichend (Gerät hat syncId ${SYNC_B}, Dienst erwartet ${SYNC_A})`,
    );
    expect(syncDetailText(sync.findings ?? [], createTranslator('zh'))).toBe(
      `固件落后（设备 1.0.0，服务预期 1.1.0）；配置偏离（设备持有 syncId ${SYNC_B}，服务预期 ${SYNC_A}）`,
    );
  });
});
