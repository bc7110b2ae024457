import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedVendorImage } from '../../../../domain/vendor/simulated-image';
import { buildComponentImage, EPC_PACKAGE_NAME } from '../../../../main/devices/vendor';
import { FRC_FILE } from '../../../../protocol/vendor';
import type { SimulatedDevice } from '../../../../simulator';
import { srcpToEpcOverIsm } from '../../../fixtures/typical-flows';
import { buildFlowAndLogIn } from '../../app/jobs/helpers/flows';
import { startWorld, type World } from '../../app/jobs/helpers/world';
import { publishRelease } from './helpers/releases';

/**
 * Issue 24 end to end through the CLI: devices that speak the vendor's protocol (an SRC Pro and an
 * NSC on ptys with plain SLIP, an EPC on UDP) beside one of ours, with the real service. The CLI
 * tells the protocols apart, installs firmware (component files by the fs transfer; the EPC's
 * package by its POST), applies the configuration with the value-by-value read-back, confirms to
 * the service, and `device verify` then finds them in sync.
 */

let world: World;
let srcp: SimulatedDevice;
let nscp: SimulatedDevice;
let epc: SimulatedDevice;

interface ListedDevice {
  connection: string;
  serialNumber: string | null;
  protocol: string | null;
  deviceType: string | null;
  firmwareVersion: string | null;
  configSyncId: string | null;
  error: string | null;
}

async function list(): Promise<ListedDevice[]> {
  const run = await world.cli(['--json', 'device', 'list', '--link', world.linkOf(epc)]);
  return JSON.parse(run.stdout) as ListedDevice[];
}

beforeAll(async () => {
  world = await startWorld('cli-vendor');
  await buildFlowAndLogIn(world, srcpToEpcOverIsm);
  await world.client.devices.register({ serialNumber: 'NSCP000101', name: 'vendor NSC' }).catch(() => undefined);
  srcp = await world.startDevice({ deviceType: 'SRCP', serialNumber: 'SRCP000101', link: 'pty', protocol: 'vendor', firmwareVersion: '1.0.0' });
  nscp = await world.startDevice({ deviceType: 'NSCP', serialNumber: 'NSCP000101', link: 'pty', protocol: 'vendor', firmwareVersion: '1.0.0' });
  epc = await world.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'udp', protocol: 'vendor', firmwareVersion: '1.0.0' });
  // One of ours beside them: the list tells it apart.
  await world.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000102', link: 'pty' });
}, 180_000);
afterAll(async () => {
  await world?.dispose();
});

describe('devices that speak the vendor protocol, through the CLI', () => {
  it('device list tells each device\'s protocol and reads who it is', { timeout: 120_000 }, async () => {
    const rows = await list();
    const bySerial = new Map(rows.map((row) => [row.serialNumber, row]));
    expect(bySerial.get('SRCP000101')).toMatchObject({ protocol: 'vendor', deviceType: 'SRCP', firmwareVersion: '1.0.0', error: null });
    expect(bySerial.get('NSCP000101')).toMatchObject({ protocol: 'vendor', deviceType: 'NSCP', firmwareVersion: '1.0.0', error: null });
    expect(bySerial.get('EPC000101')).toMatchObject({ protocol: 'vendor', deviceType: 'EPC', connection: world.linkOf(epc), firmwareVersion: '1.0.0' });
    expect(bySerial.get('EPC000102')).toMatchObject({ protocol: 'provisioner', deviceType: 'EPC' });

    const text = await world.cli(['device', 'list', '--link', world.linkOf(epc)]);
    expect(text.stdout).toMatch(/PROTOCOL/);
    expect(text.stdout).toMatch(/SRCP000101/);
    expect(text.stdout.split('\n').find((line) => line.includes('SRCP000101'))).toContain('FORT');
    expect(text.stdout.split('\n').find((line) => line.includes('EPC000102'))).toContain('Provisioner');
  });

  it('installs signed firmware: the FRC\'s component files by the fs transfer, the EPC\'s package by its POST', { timeout: 240_000 }, async () => {
    const frcImage = (type: 'SRCP' | 'NSCP') =>
      buildComponentImage(type, '1.2.0', [
        { name: FRC_FILE.bleRadioImage, bytes: simulatedVendorImage('radio-7', 3000) },
        { name: FRC_FILE.appImage, bytes: simulatedVendorImage('1.2.0', 20_000) },
      ]);
    await publishRelease(world, 'SRCP', '1.2.0', frcImage('SRCP'));
    await publishRelease(world, 'NSCP', '1.2.0', frcImage('NSCP'));
    await publishRelease(world, 'EPC', '1.2.0', buildComponentImage('EPC', '1.2.0', [{ name: EPC_PACKAGE_NAME, bytes: simulatedVendorImage('1.2.0', 30_000) }]));

    const frc = await world.cli(['device', 'firmware', 'update', 'SRCP000101', 'NSCP000101']);
    expect(frc.stdout + frc.stderr).toContain('SRCP000101: firmware 1.2.0 installed (was 1.0.0)');
    expect(frc.stdout + frc.stderr).toContain('NSCP000101: firmware 1.2.0 installed (was 1.0.0)');
    expect(frc.code).toBe(0);
    expect(srcp.state().firmwareVersion).toBe('1.2.0');
    expect(nscp.state().firmwareVersion).toBe('1.2.0');

    const ip = await world.cli(['device', 'firmware', 'update', '--link', world.linkOf(epc)]);
    expect(ip.stdout + ip.stderr).toContain('EPC000101: firmware 1.2.0 installed (was 1.0.0)');
    expect(ip.code).toBe(0);
    expect(epc.state().firmwareVersion).toBe('1.2.0');
  });

  it('applies the configuration, reads every setting back and confirms it; device verify finds the SRC Pro in sync', { timeout: 240_000 }, async () => {
    const frc = await world.cli(['device', 'configuration', 'update', 'SRCP000101']);
    expect(frc.stdout + frc.stderr).toMatch(/SRCP000101: configuration [0-9a-f-]{36} applied/);
    expect(frc.code).toBe(0);
    const ip = await world.cli(['device', 'configuration', 'update', '--link', world.linkOf(epc)]);
    expect(ip.stdout + ip.stderr).toMatch(/EPC000101: configuration [0-9a-f-]{36} applied/);
    expect(ip.code).toBe(0);

    const records = await world.client.devices.list({ serial: 'SRCP000101', limit: 1 });
    const applied = /configuration ([0-9a-f-]{36}) applied/.exec(frc.stdout + frc.stderr)![1]!;
    expect(records.items[0]).toMatchObject({ serialNumber: 'SRCP000101' });
    expect(JSON.stringify(records.items[0])).toContain(applied);

    // The SRC Pro keeps the file it was sent (secureConfig.cbor, read back by the fs transfer): verify names its syncId.
    const verify = await world.cli(['device', 'verify', 'SRCP000101']);
    expect(verify.stdout).toMatch(/^SRCP000101: in sync/m);
    expect(verify.code).toBe(0);
  });
});
