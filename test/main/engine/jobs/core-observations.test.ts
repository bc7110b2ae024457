import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../main/cloud';
import type { DiscoveredDevice } from '../../../../main/devices/discovery';
import { invokeForWire, type RegisteredDeviceRowView } from '../../../../contract/index';
import type { Page } from '../../../../domain/records';
import { useScratchDir } from '../../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
} from '../../../fixtures/test-core';

/**
 * The app's path: a device the live list finds is an observation, reconciled with the service as
 * `device list` does; the Devices screen's rows then say how each registered device stands.
 */

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('core-observations');
const demo = demoServicePerFile();
const cores = coresPerFile();

const epc: DiscoveredDevice = {
  serialNumber: 'EPC000101',
  deviceType: 'EPC',
  model: 'EPC-E4',
  firmwareVersion: '1.1.0',
  configSyncId: null,
  link: 'serial:/dev/fake',
  linkKind: 'serial',
};

describe('the app reconciles what its device list finds', () => {
  it(
    'confirms the firmware an attached device runs, and the Devices screen row says how it stands and when it was seen',
    { timeout: 120_000 },
    async () => {
      const client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
      await client.devices.register({ serialNumber: 'EPC000101', name: 'EPC000101' });
      const source = scriptedDeviceSource();
      const core = await cores.open(join(scratch.dir, 'app'), {
        host: 'test',
        deviceSource: source,
        startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
      });
      expect(await invokeForWire(core, 'session.useLocalWorkspace', {})).toMatchObject({ ok: true });

      source.attach(epc);
      let recorded = (await client.devices.list({ serial: 'EPC000101' })).items[0]!;
      while (recorded.firmwareVersion === null) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        recorded = (await client.devices.list({ serial: 'EPC000101' })).items[0]!;
      }
      expect(recorded.lastFirmwareApply).toMatchObject({
        success: true,
        firmwareVersion: '1.1.0',
        reason: 'observation',
        workstation: expect.any(String),
      });

      const listed = await invokeForWire(core, 'devices.list', { serial: 'EPC000101', page: 1, limit: 15 });
      if (!listed.ok) throw new Error(listed.error.message);
      const [row] = (listed.value as Page<RegisteredDeviceRowView>).items;
      // The demo's latest EPC firmware is 1.1.0; the device is in no configuration.
      expect(row!.sync).toEqual({
        state: 'unconfigured',
        text: 'not in any configuration',
        findings: [{ kind: 'notInConfiguration' }],
        expectedFirmwareVersion: '1.1.0',
        lastObservedAt: recorded.lastFirmwareApply!.observedAt,
      });
    },
  );
});
