import { z } from 'zod';
import { benchSerialProblem } from '../domain/bench-serial';
import { DEVICE_TYPES, type DeviceType } from '../domain/device-types';
import { command, noInput, query } from './channel-spec';

/**
 * The simulated bench of web mode's `--simulate`: what a person's hands do to a simulated device
 * (press its E-stop) and plugging in another one. The core serves these only when its host gave it
 * a simulation; otherwise each answers that nothing is simulated here. A real device is never
 * pressed from the app: the simulator's control socket is not part of the device protocol.
 */

/** One device of the simulated bench. */
export interface SimulatedDeviceView {
  serialNumber: string;
  deviceType: DeviceType;
  /** Whether its E-stop can be pressed from the app (it has a control socket). */
  canPressEstop: boolean;
}

export interface SimulationView {
  /** False when the core runs without a simulation (real devices only). */
  active: boolean;
  devices: SimulatedDeviceView[];
}

export interface EstopPressView {
  serialNumber: string;
  /** Presses of its E-stop since the device booted, this one included. */
  presses: number;
}

export interface SimulatedDeviceAddedView {
  device: SimulatedDeviceView;
  /** Registered in the organization by this add, so it can join a configuration at once. */
  registered: boolean;
  /** Why it could not be registered (the service knows no such device); null when it was, or was already. */
  registrationProblem: string | null;
}

export const SIMULATION_CHANNELS = {
  /** Whether a simulation is attached, and its devices. */
  'simulation.devices': query(noInput).returns<SimulationView>(),
  /** Presses the E-stop of a simulated device, as a hand on the device would. */
  'simulation.pressEstop': command(
    z.object({ serialNumber: z.string().min(1).max(64) }).strict(),
  ).returns<EstopPressView>(),
  /** Starts another simulated device of the bench, plugged in at once, and registers it in the organization. */
  'simulation.addDevice': command(
    z
      .object({ deviceType: z.enum(DEVICE_TYPES), serialNumber: z.string().max(64).trim().toUpperCase() })
      .strict()
      .superRefine((input, ctx) => {
        const problem = benchSerialProblem(input.deviceType, input.serialNumber);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['serialNumber'] });
      }),
  ).returns<SimulatedDeviceAddedView>(),
} as const;
export type SimulationChannel = keyof typeof SIMULATION_CHANNELS;
