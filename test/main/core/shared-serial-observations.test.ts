import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AttachedDeviceView } from '../../../contract/index';
import type { Core } from '../../../main/core';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { DiscoveredDevice } from '../../../main/devices/discovery';
import { useScratchDir } from '../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  recordedFirmware,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
  untilSeen,
  wireValue,
} from '../../fixtures/test-core';

/**
 * The core confirms to the service what it reads of every attached device (main/core/index.ts
 * `observe`). With no station running, two attached devices that claim one serial number are
 * neither believed (domain/shared-serial.ts): the real, provisioned EPC000101 and a copy on old
 * firmware must not make the service record EPC000101 as running the copy's firmware. Once the
 * copy is unplugged, the one left is believed again.
 */

const SERIAL = 'EPC000101';
/** Another real device, believed alone before its copy arrives. */
const SECOND = 'EPC000104';
/** Registered devices whose readings are believed: each one reaching the service says a pass of observations is over. */
const MARKERS = ['EPC000102', 'EPC000103'];

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('shared-serial-observations');
const demo = demoServicePerFile();
const cores = coresPerFile();
let client: ServiceClient;
let core: Core;
let source: ReturnType<typeof scriptedDeviceSource>;

const device = (serialNumber: string, link: string, firmwareVersion: string): DiscoveredDevice => ({
  serialNumber,
  deviceType: 'EPC',
  model: 'EPC-E4',
  firmwareVersion,
  configSyncId: null,
  link,
  linkKind: link.startsWith('ble:') ? 'ble' : 'serial',
});

/** Signing in again reads every attached device once more, in one pass: the marker's reading reaching the service, and the outbox empty after it, say that pass is over. */
async function observeAllOnce(marker: string): Promise<void> {
  source.attach(device(marker, `serial:/dev/fake-${marker}`, '1.0.0'));
  await wireValue(core, 'session.useLocalWorkspace', {});
  await untilSeen(
    `${marker}'s firmware recorded`,
    () => recordedFirmware(client, marker),
    (v) => v === '1.0.0',
  );
  await untilSeen(
    'the outbox empty',
    async () => (await wireValue(core, 'outbox.get', {})) as { pendingCount: number },
    (outbox) => outbox.pendingCount === 0,
  );
}

beforeAll(async () => {
  client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  for (const serialNumber of [SERIAL, SECOND, ...MARKERS])
    await client.devices.register({ serialNumber, name: serialNumber });
  source = scriptedDeviceSource();
  core = await cores.open(join(scratch.dir, 'app'), {
    host: 'test',
    deviceSource: source,
    startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
  });
}, 120_000);

describe('two attached devices that claim one serial number, with no station', () => {
  it(
    'neither is confirmed to the service; the one left is, once the other is unplugged',
    { timeout: 120_000 },
    async () => {
      // The real device on the latest firmware, and a copy of its serial number over BLE on the old one.
      source.attach(device(SERIAL, 'serial:/dev/fake-real', '1.1.0'));
      source.attach(device(SERIAL, 'ble:C0:FF:EE:00:01:01', '1.0.0'));
      await observeAllOnce(MARKERS[0]!);
      expect(await recordedFirmware(client, SERIAL)).toBeNull();

      source.detach('ble:C0:FF:EE:00:01:01');
      await untilSeen(
        `${SERIAL}'s firmware recorded`,
        () => recordedFirmware(client, SERIAL),
        (v) => v !== null,
      );
      expect(await recordedFirmware(client, SERIAL)).toBe('1.1.0');
    },
  );

  it('a copy plugged in beside the believed device is not confirmed as it', { timeout: 120_000 }, async () => {
    source.attach(device(SECOND, 'serial:/dev/fake-second', '1.1.0'));
    await untilSeen(
      `${SECOND}'s firmware recorded`,
      () => recordedFirmware(client, SECOND),
      (v) => v === '1.1.0',
    );
    source.attach(device(SECOND, 'serial:/dev/fake-copy', '1.0.0'));
    await observeAllOnce(MARKERS[1]!);
    expect(await recordedFirmware(client, SECOND)).toBe('1.1.0');
  });

  it('the Workbench flags both rows with the reason and starts no job on either', { timeout: 120_000 }, async () => {
    const rows = (await wireValue(core, 'workbench.devices', {})) as AttachedDeviceView[];
    const flagged = rows.filter((r) => r.sharedSerial);
    expect(flagged.map((r) => r.linkId).sort()).toEqual(['serial:/dev/fake-copy', 'serial:/dev/fake-second']);
    const reason = `Two attached devices claim serial ${SECOND} (serial:/dev/fake-second, serial:/dev/fake-copy). Nothing is sent to the service for it, and no job can start, until one is unplugged.`;
    expect(flagged.map((r) => r.sharedSerial?.reason)).toEqual([reason, reason]);
    expect(rows.find((r) => r.serialNumber === SERIAL)?.sharedSerial).toBeNull();
    for (const linkId of ['serial:/dev/fake-copy', 'serial:/dev/fake-second']) {
      await expect(wireValue(core, 'workbench.start', { linkIds: [linkId], action: 'firmware' })).rejects.toThrow(
        reason,
      );
    }
    expect(await wireValue(core, 'workbench.jobs', {})).toEqual([]);
  });
});
