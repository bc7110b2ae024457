import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import type { DiscoveredDevice } from '../../../../main/devices/discovery';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { useScratchDir } from '../../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  recordedFirmware,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
  untilSeen,
  wireValue,
} from '../../../fixtures/test-core';

/**
 * The core confirms to the service what it reads of every attached device (main/engine/jobs/
 * reconcile.ts). A second device answering with the serial number of one on the station is a copy
 * the station flags: what the copy runs must not be confirmed as the real device's, or the service
 * records the provisioned device as running the copy's old firmware (and a shift that provisioned
 * it never ends in sync by the service's records).
 */

const LOADER = demoConfigurations()[0]!.seeded;
const EPC = LOADER.devices.map((d) => d.payload.serialNumber).find((s) => s.startsWith('EPC'))!;
/** A registered device of no part of the station's configuration: its reading is believed, and is this test's sign that the readings were confirmed. */
const OTHER = 'EPC000101';

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('station-observations');
const demo = demoServicePerFile({ configurations: true });
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
  linkKind: 'serial',
});

beforeAll(async () => {
  client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  await client.devices.register({ serialNumber: OTHER, name: OTHER });
  source = scriptedDeviceSource();
  core = await cores.open(join(scratch.dir, 'app'), {
    host: 'test',
    deviceSource: source,
    startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
  });
  await wireValue(core, 'session.useLocalWorkspace', {});
}, 120_000);

describe('a copy of a serial number on the station', () => {
  it('is not confirmed to the service as the real device', { timeout: 120_000 }, async () => {
    // The operator reads the configuration's parameter checksum and types it to start the shift.
    const { checksumShort } = (await wireValue(core, 'station.parameters', {
      configurationName: LOADER.configuration.name,
    })) as { checksumShort: string };
    await wireValue(core, 'station.start', {
      configurationName: LOADER.configuration.name,
      lanes: 1,
      firmware: 'latest',
      operator: 'Ola Operator',
      checksum: checksumShort,
    });
    // The real device, already on the latest firmware: its reading is confirmed.
    source.attach(device(EPC, 'serial:/dev/fake-real', '1.1.0'));
    await untilSeen(
      `${EPC}'s firmware recorded`,
      () => recordedFirmware(client, EPC),
      (v) => v === '1.1.0',
    );
    // A copy of its serial number on another port, on the old firmware, then a device of another configuration.
    source.attach(device(EPC, 'serial:/dev/fake-copy', '1.0.0'));
    source.attach(device(OTHER, 'serial:/dev/fake-other', '1.0.0'));
    await untilSeen(
      'the copy flagged',
      async () => (await wireValue(core, 'station.view', {})) as { notes: { kind: string; link: string }[] },
      (view) => view.notes.some((n) => n.kind === 'duplicate' && n.link === 'serial:/dev/fake-copy'),
    );
    // Signing in again reads every attached device once more, in one pass: the other device's
    // reading reaching the service, and the outbox empty after it, say that pass is over.
    await wireValue(core, 'session.useLocalWorkspace', {});
    await untilSeen(
      `${OTHER}'s firmware recorded`,
      () => recordedFirmware(client, OTHER),
      (v) => v === '1.0.0',
    );
    await untilSeen(
      'the outbox empty',
      async () => (await wireValue(core, 'outbox.get', {})) as { pendingCount: number },
      (outbox) => outbox.pendingCount === 0,
    );
    expect(await recordedFirmware(client, EPC)).toBe('1.1.0');
  });
});
