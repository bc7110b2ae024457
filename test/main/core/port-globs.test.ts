import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../main/core';
import { invokeForWire } from '../../../contract/index';
import { startSimulatedDevice, type SimulatedDevice } from '../../../simulator';
import { useScratchDir } from '../../fixtures/scratch';
import { coresPerFile, wireValue } from '../../fixtures/test-core';
import { serviceKeys, uniqueSerial } from '../devices/helpers/simulated';

/**
 * The technician's port-glob setting: a serial device that is not USB 0xD101 (here a simulated
 * device's pty, as an RS-485 adapter would be) is found once its glob is saved, and still after a
 * restart, without $PROVISIONER_PORTS.
 */

// Registered first, so removed after the cores are closed and the device stopped.
const scratch = useScratchDir('port-globs');
let device: SimulatedDevice;

async function serialNumbersOn(core: Core): Promise<(string | null)[]> {
  const devices = (await wireValue(core, 'workbench.devices', {})) as { serialNumber: string | null }[];
  return devices.map((d) => d.serialNumber);
}

beforeAll(async () => {
  device = await startSimulatedDevice({
    deviceType: 'EPC',
    serialNumber: uniqueSerial('EPC'),
    link: 'pty',
    stateDir: join(scratch.dir, 'device'),
    ptyDir: join(scratch.dir, 'rs485'),
    publicKeyPem: serviceKeys.publicKeyPem,
  });
}, 60_000);

afterAll(async () => {
  await device?.stop();
});
// After the device's hooks, so the cores close before the device stops.
const cores = coresPerFile();

function startCore(): Promise<Core> {
  return cores.open(join(scratch.dir, 'app'), {
    host: 'test',
    // No USB ports and no globs from the environment: only the setting can find the device.
    deviceList: { serial: { listPorts: async () => [], portGlobs: [] }, pollIntervalMs: 200 },
    startLocalWorkspace: async () => {
      throw new Error('not used');
    },
  });
}

describe('the port-glob setting', () => {
  it('finds a serial device beyond USB 0xD101 once its glob is saved, and keeps the glob across a restart', async () => {
    const serialNumber = device.descriptor.serialNumber;
    const first = await startCore();
    expect(await serialNumbersOn(first)).not.toContain(serialNumber);
    expect(await wireValue(first, 'workbench.portGlobs', {})).toEqual({ saved: [], fromEnvironment: [] });

    const glob = join(scratch.dir, 'rs485', '*');
    expect(await wireValue(first, 'workbench.setPortGlobs', { portGlobs: [glob, glob] })).toEqual({
      saved: [glob],
      fromEnvironment: [],
    });
    await expect.poll(() => serialNumbersOn(first), { interval: 200, timeout: 20_000 }).toContain(serialNumber);
    await cores.close(first);

    const second = await startCore();
    expect(await wireValue(second, 'workbench.portGlobs', {})).toEqual({ saved: [glob], fromEnvironment: [] });
    await expect.poll(() => serialNumbersOn(second), { interval: 200, timeout: 20_000 }).toContain(serialNumber);

    // Cleared, the device is no longer looked for.
    await wireValue(second, 'workbench.setPortGlobs', { portGlobs: [] });
    await expect.poll(() => serialNumbersOn(second), { interval: 200, timeout: 20_000 }).not.toContain(serialNumber);
  });

  it('refuses a glob that is not text of a sane length before it reaches the settings', async () => {
    const core = cores.opened[0] ?? (await startCore());
    const outcome = await invokeForWire(core, 'workbench.setPortGlobs', { portGlobs: ['x'.repeat(2000)] });
    expect(outcome).toMatchObject({ ok: false });
    expect(await wireValue(core, 'workbench.portGlobs', {})).toMatchObject({ saved: [] });
  });
});
