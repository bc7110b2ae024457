import { afterEach, describe, expect, it } from 'vitest';
import { decodeConfigFile } from '../../../../../domain/files/config-file';
import { TYPICAL_FLOWS, type TypicalFlow } from '../../../../fixtures/typical-flows';
import { buildFlow } from './flows';
import { loginCli, startWorld, type World } from './world';

/**
 * The typical flows of the interface, end to end: the configuration built through the API,
 * firmware updated and the configuration applied on every device through the real CLI over pty
 * serial links, UDP and simulated BLE; then what the service reports for each device and what each
 * virtual device holds. The login and the firmware update are the real `provisioner` (a child
 * process, reaching the simulated BLE devices through the simulator's bridge as another program
 * would); the device list, the configuration update and the outbox run the CLI's main in this
 * process (world.cliInProcess): the same commands and answers without two seconds of start-up each.
 */

type SimulatorLink = 'pty' | 'udp' | 'ble';

/** Serial, IP and BLE spread over the flows the way they would be attached on a bench. */
const LINKS: Record<string, Record<string, SimulatorLink>> = {
  'srcp-to-epc-over-ism': { SRCP000101: 'pty', EPC000101: 'pty' },
  'epc-to-epc-over-ethernet': { EPC000101: 'udp', EPC000102: 'udp' },
  'epc-to-several-epcs-over-ethernet': { EPC000101: 'pty', EPC000102: 'udp', EPC000103: 'udp' },
  'epc-to-nscp-over-ethernet': { EPC000101: 'udp', NSCP000101: 'pty' },
  'srcp-to-epc-over-ble': { SRCP000101: 'ble', EPC000101: 'ble' },
  'estop-and-srcp-to-epc-over-ethernet-and-ble': { EPC000102: 'udp', SRCP000101: 'ble', EPC000101: 'ble' },
};

/**
 * Which flows (places in TYPICAL_FLOWS) each of the three test files typical-flows-N.test.ts
 * takes: each flow takes a minute or more of paced links, so they are spread over files that run
 * side by side.
 */
export const TYPICAL_FLOW_FILES: readonly (readonly number[])[] = [
  [0, 1],
  [2, 3],
  [4, 5],
];

/** The tests of the flows of test file `file` (1 to 3). */
export function describeTypicalFlows(file: number): void {
  const indexes = TYPICAL_FLOW_FILES[file - 1]!;
  let world: World | undefined;
  afterEach(async () => {
    await world?.dispose();
    world = undefined;
  });
  const flows = indexes.map((i) => TYPICAL_FLOWS[i]!);
  describe.each(flows.map((flow) => [flow.title, flow] as const))('%s', (_title, flow: TypicalFlow) => {
    it(
      'updates firmware and applies the configuration on every device through the CLI; the service and the devices agree',
      { timeout: 300_000 },
      async () => {
        world = await startWorld(flow.key);
        const w = world;
        await buildFlow(w.client, flow);
        const serials = flow.devices.map((d) => d.payload.serialNumber);
        const sims = new Map<string, Awaited<ReturnType<World['startDevice']>>>();
        for (const device of flow.devices) {
          const serialNumber = device.payload.serialNumber;
          sims.set(
            serialNumber,
            await w.startDevice({ deviceType: device.deviceType, serialNumber, link: LINKS[flow.key]![serialNumber]! }),
          );
        }
        // UDP devices cannot be discovered: they are named by address, as a technician would.
        const udpLinks = [...sims.values()]
          .filter((d) => d.descriptor.link === 'udp')
          .flatMap((d) => ['--link', w.linkOf(d)]);

        expect((await loginCli(w)).code).toBe(0);

        const listed = await w.cliInProcess(['--json', 'device', 'list', ...udpLinks]);
        expect(listed.code, listed.stderr).toBe(0);
        const attached = JSON.parse(listed.stdout) as Array<{
          serialNumber: string | null;
          firmwareVersion: string | null;
          interface: string;
        }>;
        for (const serialNumber of serials)
          expect(attached.find((d) => d.serialNumber === serialNumber)?.firmwareVersion).toBe('1.0.0');

        const firmware = await w.cli(['device', 'firmware', 'update', ...serials, ...udpLinks]);
        expect(firmware.code, `${firmware.stdout}\n${firmware.stderr}`).toBe(0);
        for (const serialNumber of serials)
          expect(firmware.stdout).toContain(
            `${serialNumber}: firmware 1.1.0 installed (was 1.0.0); confirmed to the service`,
          );

        const configuration = await w.cliInProcess(['device', 'configuration', 'update', ...serials, ...udpLinks]);
        expect(configuration.code, `${configuration.stdout}\n${configuration.stderr}`).toBe(0);

        for (const serialNumber of serials) {
          const record = (await w.client.devices.list({ serial: serialNumber })).items[0]!;
          const file = decodeConfigFile((await w.client.devices.fetchConfigurationFile(serialNumber)).bytes);
          const held = sims.get(serialNumber)!.state();
          expect(record.firmwareVersion, serialNumber).toBe('1.1.0');
          expect(record.lastFirmwareApply?.success).toBe(true);
          expect(record.deployStatus, serialNumber).toBe('Deployed');
          expect(record.deployedSyncId).toBe(file.syncId);
          expect(held.firmwareVersion).toBe('1.1.0');
          expect(held.config?.syncId).toBe(file.syncId);
          expect(held.config?.blank).toBe(false);
        }

        const outbox = await w.cliInProcess(['--json', 'outbox', 'list']);
        expect(JSON.parse(outbox.stdout)).toEqual([]);
      },
    );
  });
}
