/**
 * What the night shift of bench/soak.ts holds: its devices (SRCP senders and EPC receivers of one
 * ISM configuration, alternating), which of them carry which fault of the simulator, and when in
 * the shift the service, PostgreSQL and the Station itself are hit. Pure and seeded: the same
 * flags make the same shift.
 */
import type { DeviceType } from '../domain/device-types';
import type { FaultOptions } from '../simulator';
import { createRandom } from '../simulator/random';

export interface SoakDevice {
  serialNumber: string;
  deviceType: Extract<DeviceType, 'SRCP' | 'EPC'>;
  faults: FaultOptions;
  /** The faults given, in words, for the log. */
  faultNames: string[];
}

/** Shares of the devices that carry each fault. The issue asks for 5 % of uploads losing their cable. */
export const FAULT_SHARES = {
  pull: 0.05,
  powerCycleDuringApply: 0.03,
  corrupt: 0.05,
  stall: 0.03,
} as const;

/**
 * The shift's devices. Each fault goes to round(share × N) devices (at least one), drawn without
 * repeats by the seed; a device may carry more than one. Offsets are small (1 to 4 KiB of the
 * transfer), so they fire whatever coding (a delta, deflate) makes the transfer short.
 */
export function planDevices(count: number, seed: number): SoakDevice[] {
  const random = createRandom(seed);
  const devices: SoakDevice[] = Array.from({ length: count }, (_, i) => {
    const deviceType = i % 2 === 0 ? 'SRCP' : 'EPC';
    return { serialNumber: `${deviceType}8${String(i + 1).padStart(5, '0')}`, deviceType, faults: {}, faultNames: [] };
  });
  const pick = (share: number): SoakDevice[] => {
    const wanted = Math.min(count, Math.max(1, Math.round(share * count)));
    const order = devices.map((device) => ({ device, key: random() })).sort((a, b) => a.key - b.key);
    return order.slice(0, wanted).map((entry) => entry.device);
  };
  const offset = () => 1024 + Math.floor(random() * 3072);
  for (const device of pick(FAULT_SHARES.pull)) {
    device.faults.pullAt = offset();
    device.faults.replugAfterMs = 1000;
    device.faultNames.push(`cable pulled at ${device.faults.pullAt} B`);
  }
  for (const device of pick(FAULT_SHARES.powerCycleDuringApply)) {
    device.faults.powerCycleDuringApply = true;
    device.faultNames.push('power cut while applying');
  }
  for (const device of pick(FAULT_SHARES.corrupt)) {
    device.faults.corrupt = 0.02;
    device.faults.seed = seed;
    device.faultNames.push('2 % of frames corrupted');
  }
  for (const device of pick(FAULT_SHARES.stall)) {
    device.faults.stall = { ms: 4000, atOffset: offset() };
    device.faultNames.push(`link stalls 4 s at ${device.faults.stall.atOffset} B`);
  }
  return devices;
}

export type ChaosAction = 'kill-instance' | 'restart-postgres' | 'kill-station';

/**
 * When each blow falls: at a share of the devices finished, so that a slow machine gets the same
 * shift as a fast one. The Station is killed early, so that the Station that runs to the end has
 * most of the shift behind its warm-up; the same instance is killed twice (and started again each
 * time, as its supervisor would), so the other one runs the whole shift and its memory is watched.
 */
export const CHAOS: readonly { at: number; action: ChaosAction }[] = [
  { at: 0.15, action: 'kill-instance' },
  { at: 0.25, action: 'kill-station' },
  { at: 0.4, action: 'restart-postgres' },
  { at: 0.55, action: 'kill-instance' },
];

/** Shares of the shift finished at which the memory and descriptors are read "after warm-up". */
export const WARM_UP = { service: 0.1, station: 0.35 } as const;
