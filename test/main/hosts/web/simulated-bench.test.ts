import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError, parseChannelInput } from '../../../../contract/index';
import { simulationHandlers } from '../../../../main/core/handlers/simulation';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import {
  benchDevicesFor,
  configFileSigningKey,
  simulationPortOf,
  startSimulatedWorkbench,
  trustedReleaseKeys,
  type SimulatedWorkbench,
} from '../../../../main/hosts/web/simulated-workbench';
import { demoConfigurationDevices } from '../../../../server';
import { useScratchDir } from '../../../fixtures/scratch';
import { demoServicePerFile } from '../../../fixtures/test-core';

/**
 * Issue 32: web mode's simulated bench. `--simulate NAME` takes its devices from the configuration
 * of that name, or with no name one free device of each type and every demo flow device; the core's
 * simulation channels press a simulated device's E-stop through its real control socket, add a
 * device to the bench (registered in the organization), and refuse what is not simulated.
 */

const demo = demoServicePerFile({ configurations: true });
const scratch = useScratchDir('simulated-bench');
let client: ServiceClient;
let bench: SimulatedWorkbench;

beforeAll(async () => {
  client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  const keys = {
    publicKeyPem: await configFileSigningKey(demo.service.url),
    releaseKeysPem: await trustedReleaseKeys(demo.service.url),
  };
  bench = await startSimulatedWorkbench({
    dir: join(scratch.dir, 'bench'),
    ...keys,
    devices: [{ deviceType: 'EPC', serialNumber: 'EPC000101' }],
  });
}, 120_000);

afterAll(async () => {
  await bench?.stop();
});

function handlers(withSimulation: boolean) {
  return simulationHandlers({
    simulation: withSimulation ? simulationPortOf(() => bench) : undefined,
    register: async (serialNumber) => {
      const found = await client.devices.list({ serial: serialNumber, limit: 1 });
      if (found.items.some((d) => d.serialNumber === serialNumber)) return false;
      await client.devices.register({ serialNumber, name: 'Workbench' });
      return true;
    },
  });
}

describe('the bench --simulate builds', () => {
  it('takes the devices of the configuration named', async () => {
    const conveyor = (await client.configurations.list({ Search: 'Conveyor 2 stations (Ethernet)' })).items[0]!;
    const devices = await benchDevicesFor(client, 'Conveyor 2 stations (Ethernet)');
    expect(devices).toEqual(conveyor.devices.map((d) => ({ deviceType: d.deviceType, serialNumber: d.serialNumber })));
    expect(devices.map((d) => d.deviceType)).toEqual(['EPC', 'EPC']);
  });

  it('refuses a name no configuration has, naming the near ones', async () => {
    await expect(benchDevicesFor(client, 'Conveyor 2')).rejects.toThrow(
      /^No configuration is named "Conveyor 2" in the local workspace \(near names: "Conveyor 2 stations \(Ethernet\)"\): give its name exactly/,
    );
  });

  it('with no name: one free device of each type and every device of the demo flows, each once', async () => {
    const devices = await benchDevicesFor(null, undefined);
    expect(devices.slice(0, 4)).toEqual([
      { deviceType: 'SRCP', serialNumber: 'SRCP000101' },
      { deviceType: 'WESP', serialNumber: 'WESP000101' },
      { deviceType: 'EPC', serialNumber: 'EPC000101' },
      { deviceType: 'NSCP', serialNumber: 'NSCP000101' },
    ]);
    expect(devices.slice(4)).toEqual(demoConfigurationDevices());
    expect(new Set(devices.map((d) => d.serialNumber)).size).toBe(devices.length);
    // Every demo configuration's devices are on it, so each demo flow can be finished.
    for await (const configuration of client.configurations.listAll()) {
      for (const member of configuration.devices)
        expect(devices.map((d) => d.serialNumber)).toContain(member.serialNumber);
    }
  });
});

describe("the core's simulation channels", () => {
  it("press a simulated device's E-stop through its control socket", async () => {
    const group = handlers(true);
    expect(await group['simulation.devices']({})).toEqual({
      active: true,
      devices: [{ serialNumber: 'EPC000101', deviceType: 'EPC', canPressEstop: true }],
    });
    const first = await group['simulation.pressEstop']({ serialNumber: 'EPC000101' });
    const second = await group['simulation.pressEstop']({ serialNumber: 'EPC000101' });
    expect(second.presses).toBe(first.presses + 1);
    // The device itself counted them: a hand on it would read the same.
    expect(await bench.fleet.devices[0]!.pressEstop()).toBe(second.presses + 1);
  });

  it('refuse a device that is not simulated, and everything when no simulation runs', async () => {
    await expect(handlers(true)['simulation.pressEstop']({ serialNumber: 'EPC000199' })).rejects.toThrow(
      'EPC000199 is not a simulated device of this bench, so the app cannot press its E-stop: press it by hand.',
    );
    const none = handlers(false);
    expect(await none['simulation.devices']({})).toEqual({ active: false, devices: [] });
    await expect(none['simulation.pressEstop']({ serialNumber: 'EPC000101' })).rejects.toThrow(
      /^Nothing is simulated here: start web mode with --simulate/,
    );
    await expect(none['simulation.addDevice']({ deviceType: 'EPC', serialNumber: 'EPC000103' })).rejects.toBeInstanceOf(
      CoreError,
    );
  });

  it('validate a device to add before the core sees it', () => {
    expect(() => parseChannelInput('simulation.addDevice', { deviceType: 'EPC', serialNumber: 'SRCP000105' })).toThrow(
      'Invalid input for simulation.addDevice: serialNumber: SRCP000105 starts with SRCP, not EPC: give a serial number like EPC000105, or choose the type SRCP.',
    );
    expect(() => parseChannelInput('simulation.addDevice', { deviceType: 'EPC', serialNumber: 'EPC12' })).toThrow(
      /The serial number is EPC and six digits/,
    );
    expect(() => parseChannelInput('simulation.addDevice', { deviceType: 'ABC', serialNumber: 'EPC000105' })).toThrow(
      /deviceType/,
    );
    expect(parseChannelInput('simulation.addDevice', { deviceType: 'EPC', serialNumber: ' epc000105 ' })).toEqual({
      deviceType: 'EPC',
      serialNumber: 'EPC000105',
    });
  });

  it('add a device to the bench, plugged in and registered, and refuse the same serial twice', async () => {
    const group = handlers(true);
    const added = await group['simulation.addDevice']({ deviceType: 'EPC', serialNumber: 'EPC000103' });
    expect(added).toEqual({
      device: { serialNumber: 'EPC000103', deviceType: 'EPC', canPressEstop: true },
      registered: true,
      registrationProblem: null,
    });
    const device = bench.fleet.devices.find((d) => d.descriptor.serialNumber === 'EPC000103')!;
    await access(device.descriptor.path!);
    expect(device.descriptor.path!.startsWith(bench.ptyDir)).toBe(true);
    expect((await client.devices.list({ serial: 'EPC000103' })).items.map((d) => d.serialNumber)).toContain(
      'EPC000103',
    );
    expect((await group['simulation.pressEstop']({ serialNumber: 'EPC000103' })).presses).toBe(1);
    await expect(group['simulation.addDevice']({ deviceType: 'EPC', serialNumber: 'EPC000103' })).rejects.toThrow(
      'EPC000103 is on the bench already: give another serial number.',
    );
  });

  it('say when a device added could not be registered, and keep it on the bench', async () => {
    const added = await handlers(true)['simulation.addDevice']({ deviceType: 'NSCP', serialNumber: 'NSCP009999' });
    expect(added.registered).toBe(false);
    expect(added.registrationProblem).toBeTruthy();
    expect(bench.serialNumbers).toContain('NSCP009999');
  });
});
