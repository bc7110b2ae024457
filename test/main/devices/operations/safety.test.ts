import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSafety, type SafetyChange } from '../../../../main/devices';
import type { SimulatedDevice } from '../../../../simulator';
import { useScratchDir } from '../../../fixtures/scratch';
import { startUdpDevice } from '../../../fixtures/simulated-device';

/**
 * The safety function's observation as a device operation (main/devices/operations/safety.ts):
 * the link opened, the device identified, /safety observed; a real simulated EPC on UDP on loopback.
 */

const scratch = useScratchDir('safety-operation');
let device: SimulatedDevice;
let link: string;

beforeAll(async () => {
  device = await startUdpDevice(scratch.dir, { serialNumber: 'EPC000141', firmwareVersion: '1.1.0' });
  link = `udp:${device.descriptor.host}:${device.descriptor.port}`;
});

afterAll(async () => {
  await device?.stop();
});

describe('observeSafety', () => {
  it('gives the status at registration, then each press as it arrives, and ends when closed', async () => {
    const observation = await observeSafety({ serialNumber: 'EPC000141', link });
    const presses = observation.first.presses;
    const changes = observation.changes[Symbol.asyncIterator]();
    const before = performance.now();
    await device.pressEstop();
    const next = await changes.next();
    expect(next.done).toBe(false);
    const change = next.value as SafetyChange;
    expect(change.status.presses).toBe(presses + 1);
    expect(change.status.lastPressAt).not.toBeNull();
    expect(change.atMs).toBeGreaterThanOrEqual(before);

    await observation.close();
    expect((await changes.next()).done).toBe(true);
  });

  it('refuses a link where another device answers, naming both, and leaves the link closed', async () => {
    await expect(observeSafety({ serialNumber: 'EPC000999', link })).rejects.toThrow(
      /EPC000141.*EPC000999|EPC000999.*EPC000141/,
    );
    // The link was closed: the device can be observed again at once.
    const again = await observeSafety({ serialNumber: 'EPC000141', link });
    expect(again.serialNumber).toBe('EPC000141');
    await again.close();
  });
});
