import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedVendorImage } from '../../../../domain/vendor/simulated-image';
import { buildComponentImage, EPC_PACKAGE_NAME } from '../../../../main/devices/vendor';
import { FRC_FILE } from '../../../../protocol/vendor';
import type { SimulatedDevice } from '../../../../simulator';
import { CODE, contentFormatOption } from '../../../../main/devices/coap';
import { cloneFlow, srcpToEpcOverIsm, type TypicalFlow } from '../../../fixtures/typical-flows';
import { RawCoapClient } from '../../../simulator/helpers/raw-client';
import { openUdpTransport } from '../../../simulator/helpers/transports';
import { buildFlowAndLogIn } from '../../engine/jobs/helpers/flows';
import { startWorld, type CliRun, type World } from '../../engine/jobs/helpers/world';
import { publishRelease } from './helpers/releases';
import { upsertManufacturingRecords } from '../../../../server/store/manufacturing';

/**
 * Issue 24 end to end through the CLI: devices that speak the vendor's protocol (an SRC Pro and an
 * NSC on ptys with plain SLIP, an EPC on UDP) beside one of ours, with the real service. The CLI
 * tells the protocols apart, installs firmware (component files by the fs transfer; the EPC's
 * package by its POST), applies the configuration with the value-by-value read-back, confirms to
 * the service, and `device verify` then finds them in sync. The commands run the CLI's main in this
 * process (world.cliInProcess): the same commands and answers without two seconds of start-up each.
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
  const run = await world.cliInProcess(['--json', 'device', 'list', '--link', world.linkOf(epc)]);
  const rows = parsed<ListedDevice[]>(run);
  if (!Array.isArray(rows)) throw new Error(`device list printed no list:\n${run.stdout}\n${run.stderr}`);
  return rows;
}

/**
 * The demo's ISM flow with an NSC as a second receiver on the same radio: the FRC family runs BLE
 * or ISM only (the demo's NSC flow gives it Ethernet, which the NSC's vendor profile refuses), so
 * this is a configuration all three vendor devices take.
 */
function ismFlowWithNsc(): TypicalFlow {
  const flow = cloneFlow(srcpToEpcOverIsm);
  flow.devices.push({
    deviceType: 'NSCP',
    payload: {
      serialNumber: 'NSCP000101',
      deviceConfigurationType: 'Receiver',
      commInterface: 'ISM',
      serial0Usage: 'comms',
      serial1Usage: 'control',
      stopCategory: 'CAT0',
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'NOT_USED',
    },
  });
  return flow;
}

/** The JSON a CLI run printed; what it printed instead is in the failure. */
function parsed<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`the CLI printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

beforeAll(async () => {
  world = await startWorld('cli-vendor');
  await buildFlowAndLogIn(world, ismFlowWithNsc());
  srcp = await world.startDevice({
    deviceType: 'SRCP',
    serialNumber: 'SRCP000101',
    link: 'pty',
    protocol: 'vendor',
    firmwareVersion: '1.0.0',
  });
  nscp = await world.startDevice({
    deviceType: 'NSCP',
    serialNumber: 'NSCP000101',
    link: 'pty',
    protocol: 'vendor',
    firmwareVersion: '1.0.0',
  });
  epc = await world.startDevice({
    deviceType: 'EPC',
    serialNumber: 'EPC000101',
    link: 'udp',
    protocol: 'vendor',
    firmwareVersion: '1.0.0',
  });
  // One of ours beside them: the list tells it apart.
  await world.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000102', link: 'pty' });
}, 180_000);
afterAll(async () => {
  await world?.dispose();
});

describe('devices that speak the vendor protocol, through the CLI', () => {
  it("device list tells each device's protocol and reads who it is", { timeout: 120_000 }, async () => {
    const rows = await list();
    const bySerial = new Map(rows.map((row) => [row.serialNumber, row]));
    expect(bySerial.get('SRCP000101')).toMatchObject({
      protocol: 'vendor',
      deviceType: 'SRCP',
      firmwareVersion: '1.0.0',
      error: null,
    });
    expect(bySerial.get('NSCP000101')).toMatchObject({
      protocol: 'vendor',
      deviceType: 'NSCP',
      firmwareVersion: '1.0.0',
      error: null,
    });
    expect(bySerial.get('EPC000101')).toMatchObject({
      protocol: 'vendor',
      deviceType: 'EPC',
      connection: world.linkOf(epc),
      firmwareVersion: '1.0.0',
    });
    expect(bySerial.get('EPC000102')).toMatchObject({ protocol: 'provisioner', deviceType: 'EPC' });

    const text = await world.cliInProcess(['device', 'list', '--link', world.linkOf(epc)]);
    expect(text.stdout).toMatch(/PROTOCOL/);
    expect(text.stdout).toMatch(/SRCP000101/);
    expect(text.stdout.split('\n').find((line) => line.includes('SRCP000101'))).toContain('FORT');
    expect(text.stdout.split('\n').find((line) => line.includes('EPC000102'))).toContain('Provisioner');
  });

  it(
    "installs signed firmware: the FRC's component files by the fs transfer, the EPC's package by its POST",
    { timeout: 240_000 },
    async () => {
      const frcImage = (type: 'SRCP' | 'NSCP') =>
        buildComponentImage(type, '1.2.0', [
          { name: FRC_FILE.bleRadioImage, bytes: simulatedVendorImage('radio-7', 3000) },
          { name: FRC_FILE.appImage, bytes: simulatedVendorImage('1.2.0', 20_000) },
        ]);
      await publishRelease(world, 'SRCP', '1.2.0', frcImage('SRCP'));
      await publishRelease(world, 'NSCP', '1.2.0', frcImage('NSCP'));
      await publishRelease(
        world,
        'EPC',
        '1.2.0',
        buildComponentImage('EPC', '1.2.0', [{ name: EPC_PACKAGE_NAME, bytes: simulatedVendorImage('1.2.0', 30_000) }]),
      );

      const frc = await world.cliInProcess(['device', 'firmware', 'update', 'SRCP000101', 'NSCP000101']);
      expect(frc.stdout + frc.stderr).toContain('SRCP000101: firmware 1.2.0 installed (was 1.0.0)');
      expect(frc.stdout + frc.stderr).toContain('NSCP000101: firmware 1.2.0 installed (was 1.0.0)');
      expect(frc.code).toBe(0);
      expect(srcp.state().firmwareVersion).toBe('1.2.0');
      expect(nscp.state().firmwareVersion).toBe('1.2.0');

      const ip = await world.cliInProcess(['device', 'firmware', 'update', '--link', world.linkOf(epc)]);
      expect(ip.stdout + ip.stderr).toContain('EPC000101: firmware 1.2.0 installed (was 1.0.0)');
      expect(ip.code).toBe(0);
      expect(epc.state().firmwareVersion).toBe('1.2.0');
    },
  );

  it(
    'applies the configuration to the SRC Pro, the NSC and the EPC, reads every setting back and confirms it; device verify finds each in sync',
    { timeout: 300_000 },
    async () => {
      const frc = await world.cliInProcess(['device', 'configuration', 'update', 'SRCP000101', 'NSCP000101']);
      expect(frc.stdout + frc.stderr).toMatch(/SRCP000101: configuration [0-9a-f-]{36} applied/);
      expect(frc.stdout + frc.stderr).toMatch(/NSCP000101: configuration [0-9a-f-]{36} applied/);
      expect(frc.code).toBe(0);
      const ip = await world.cliInProcess(['device', 'configuration', 'update', '--link', world.linkOf(epc)]);
      expect(ip.stdout + ip.stderr).toMatch(/EPC000101: configuration [0-9a-f-]{36} applied/);
      expect(ip.code).toBe(0);

      for (const serial of ['SRCP000101', 'NSCP000101', 'EPC000101']) {
        const run = serial === 'EPC000101' ? ip : frc;
        const applied = new RegExp(`${serial}: configuration ([0-9a-f-]{36}) applied`).exec(
          run.stdout + run.stderr,
        )![1]!;
        const record = (await world.client.devices.list({ serial, limit: 1 })).items[0];
        expect(record).toMatchObject({ serialNumber: serial, deployedSyncId: applied });
      }
      // The NSC holds the file the service recorded as deployed (its settings were read back equal by the apply).
      expect(nscp.vendorState!().config?.syncId).toBe(
        (await world.client.devices.list({ serial: 'NSCP000101', limit: 1 })).items[0]!.deployedSyncId,
      );

      // The FRC keeps the file it was sent (secureConfig.cbor, read back by the fs transfer): verify names its syncId.
      const verify = await world.cliInProcess(['device', 'verify', 'SRCP000101', 'NSCP000101']);
      expect(verify.stdout).toMatch(/^SRCP000101: in sync \(/m);
      expect(verify.stdout).toMatch(/^NSCP000101: in sync \(/m);
      expect(verify.stdout).not.toContain('names no file');
      expect(verify.code).toBe(0);
    },
  );

  it(
    'device verify on the EPC, which names no file it holds, compares its running settings value by value',
    { timeout: 180_000 },
    async () => {
      const link = world.linkOf(epc);
      // device list does not read settings back: it does not call the EPC drift, it says it did not read it.
      const listed = parsed<Array<{ serialNumber: string | null; state: string | null; stateText: string | null }>>(
        await world.cliInProcess(['--json', 'device', 'list', '--link', link]),
      );
      expect(listed.find((row) => row.serialNumber === 'EPC000101')).toMatchObject({
        state: 'unknown',
        stateText: expect.stringMatching(
          /^configuration not read: the device names no file it holds \(the service recorded syncId [0-9a-f-]{36} applied\); device verify reads its settings back$/,
        ),
      });
      const inSync = await world.cliInProcess(['--json', 'device', 'verify', '--link', link]);
      const [verdict] = parsed<
        Array<{
          serialNumber: string;
          state: string;
          text: string;
          configSyncId: string | null;
          expectedSyncId: string | null;
        }>
      >(inSync);
      expect(verdict).toMatchObject({ serialNumber: 'EPC000101', state: 'in-sync', configSyncId: null });
      expect(verdict!.text).toMatch(
        /^in sync \(the device names no file it holds; its \d+ settings read back equal the configuration's\)$/,
      );
      expect(inSync.code).toBe(0);

      // Someone changes one setting with the vendor's own tool: the file's syncId could not tell, the read-back does.
      const transport = await openUdpTransport('127.0.0.1', epc.descriptor.port!);
      const client = new RawCoapClient(transport, { ackTimeoutMs: 500, retries: 6 });
      try {
        expect(
          (
            await client.request({
              method: CODE.POST,
              path: 'cfg/sf/smcu/global',
              payload: new TextEncoder().encode('{"timeoutMs":900}'),
              options: [contentFormatOption(50)],
            })
          ).code,
        ).toBe(CODE.CHANGED);
        const drift = await world.cliInProcess(['device', 'verify', '--link', link]);
        expect(drift.stdout).toMatch(
          /^EPC000101: configuration drift \(the device names no file it holds; its settings read back: .*cfg\/sf\/smcu\/global\/timeoutMs\) is 900 ms, the configuration says 1000 ms\)/m,
        );
        expect(drift.code).not.toBe(0);
        // Set back as the file says, it is in sync again.
        expect(
          (
            await client.request({
              method: CODE.POST,
              path: 'cfg/sf/smcu/global',
              payload: new TextEncoder().encode('{"timeoutMs":1000}'),
              options: [contentFormatOption(50)],
            })
          ).code,
        ).toBe(CODE.CHANGED);
      } finally {
        await transport.close();
      }
      const again = await world.cliInProcess(['device', 'verify', '--link', link]);
      expect(again.stdout).toMatch(/^EPC000101: in sync \(the device names no file it holds/m);
      expect(again.code).toBe(0);
    },
  );

  it(
    'a cable pulled in the middle of a firmware transfer: the SRC Pro on USB and the EPC on IP end with the new firmware',
    { timeout: 300_000 },
    async () => {
      // Two more devices, each pulled once partway through its firmware (the releases of the test above).
      for (const serialNumber of ['SRCP000102', 'EPC000103'])
        await world.client.devices.register({ serialNumber, name: `vendor ${serialNumber}` });
      const pulled = { pullAt: 12_000, replugAfterMs: 500 };
      const usb = await world.startDevice({
        deviceType: 'SRCP',
        serialNumber: 'SRCP000102',
        link: 'pty',
        protocol: 'vendor',
        firmwareVersion: '1.0.0',
        faults: pulled,
      });
      const ip = await world.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000103',
        link: 'udp',
        protocol: 'vendor',
        firmwareVersion: '1.0.0',
        faults: pulled,
      });

      const frc = await world.cliInProcess(['device', 'firmware', 'update', 'SRCP000102']);
      expect(frc.stdout + frc.stderr).toContain('SRCP000102: firmware 1.2.0 installed (was 1.0.0)');
      expect(frc.code).toBe(0);
      expect(usb.faultStats.pulls).toBe(1);
      expect(usb.state().firmwareVersion).toBe('1.2.0');

      const epcRun = await world.cliInProcess(['device', 'firmware', 'update', '--link', world.linkOf(ip)]);
      expect(epcRun.stdout + epcRun.stderr).toContain('EPC000103: firmware 1.2.0 installed (was 1.0.0)');
      expect(epcRun.code).toBe(0);
      expect(ip.faultStats.pulls).toBe(1);
      expect(ip.state().firmwareVersion).toBe('1.2.0');

      // Nothing of the interrupted transfers is left to judge: each device reads in sync for its firmware.
      const listed = await world.cliInProcess(['--json', 'device', 'list', '--link', world.linkOf(ip)]);
      const rows =
        parsed<Array<{ serialNumber: string | null; firmwareVersion: string | null; interruptedJobs: unknown[] }>>(
          listed,
        );
      for (const serialNumber of ['SRCP000102', 'EPC000103']) {
        expect(rows.find((row) => row.serialNumber === serialNumber)).toMatchObject({
          firmwareVersion: '1.2.0',
          interruptedJobs: [],
        });
      }
    },
  );

  it(
    "an NSC whose serial number is the vendor's kind (no type in it) gets the NSC's firmware, by the service's record of it",
    { timeout: 240_000 },
    async () => {
      // The vendor's serial numbers are 1 to 8 letters and digits (vendor spec §9): nothing in WBJFU8CN says NSC.
      const serialNumber = 'WBJFU8CN';
      await upsertManufacturingRecords(world.service!.db, [
        { serialNumber, deviceType: 'NSCP', model: 'NSCP-400 network safety controller' },
      ]);
      await world.client.devices.register({ serialNumber, name: 'vendor NSC, vendor serial' });
      const nsc = await world.startDevice({
        deviceType: 'NSCP',
        serialNumber,
        link: 'pty',
        protocol: 'vendor',
        firmwareVersion: '1.0.0',
      });
      // device list shows it as the record says, an NSC, not the SRC Pro its serial number would make it.
      const listed = parsed<Array<{ serialNumber: string | null; deviceType: string | null; model: string | null }>>(
        await world.cliInProcess(['--json', 'device', 'list']),
      );
      expect(listed.find((row) => row.serialNumber === serialNumber)).toMatchObject({
        deviceType: 'NSCP',
        model: 'NSC',
      });
      // The NSC's latest is now 1.3.0 and the SRC Pro's stays 1.2.0: a device taken for an SRC Pro would get the wrong one, or none.
      const nscImage = buildComponentImage('NSCP', '1.3.0', [
        { name: FRC_FILE.appImage, bytes: simulatedVendorImage('1.3.0', 20_000) },
      ]);
      await publishRelease(world, 'NSCP', '1.3.0', nscImage);

      const run = await world.cliInProcess(['device', 'firmware', 'update', serialNumber]);
      expect(run.stdout + run.stderr).toContain(`${serialNumber}: firmware 1.3.0 installed (was 1.0.0)`);
      expect(run.code).toBe(0);
      expect(nsc.state().firmwareVersion).toBe('1.3.0');
      expect((await world.client.devices.list({ serial: serialNumber, limit: 1 })).items[0]).toMatchObject({
        deviceType: 'NSCP',
        firmwareVersion: '1.3.0',
      });
    },
  );
});
