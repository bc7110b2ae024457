import { join } from 'node:path';
import type { Core, SimulationPort } from '../../../../../main/core';
import { createCoreIn } from '../../../../fixtures/test-core';

/** Where a test's core looks for devices: only its own simulated ones, never USB ports or another simulator's ptys. */
export interface TestDevices {
  /** The folder, under the test's directory, whose entries are the serial ports; by default none. */
  ptyDir?: string;
  pollIntervalMs: number;
  /** Off for a test that must not see IP devices of other tests on the network. */
  multicast?: false;
}

/** A web-mode core on its own data directory under `dir`, that signs in to nothing by itself; with a simulated bench when given one (as --simulate). */
export function createWebCore(dir: string, devices: TestDevices, simulation?: SimulationPort): Promise<Core> {
  return createCoreIn(join(dir, 'app'), {
    host: 'web',
    ...(simulation ? { simulation } : {}),
    deviceList: {
      serial: {
        portGlobs: devices.ptyDir === undefined ? [] : [join(dir, devices.ptyDir, '*')],
        listPorts: async () => [],
      },
      ...(devices.multicast === false ? { multicast: false } : {}),
      pollIntervalMs: devices.pollIntervalMs,
    },
  });
}
