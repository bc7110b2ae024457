import { CoreError } from '../../../contract/errors';
import type { SimulatedDeviceAddedView, SimulatedDeviceView, SimulationChannel } from '../../../contract/simulation';
import type { DeviceType } from '../../../domain/device-types';
import { toCoreError } from '../errors';
import type { HandlerGroup } from './types';

/**
 * What a host that runs simulated devices gives the core (web mode's `--simulate`): the core does
 * not know the simulator (docs/architecture.md), only this port. Without one, the simulation's
 * channels answer that nothing is simulated here.
 */
export interface SimulationPort {
  devices(): SimulatedDeviceView[];
  /** Presses the device's E-stop through its control socket; resolves with its presses since boot. */
  pressEstop(serialNumber: string): Promise<number>;
  /** Starts another simulated device on the bench, plugged in. */
  addDevice(device: { deviceType: DeviceType; serialNumber: string }): Promise<SimulatedDeviceView>;
}

export interface SimulationHandlerDeps {
  simulation: SimulationPort | undefined;
  /** Registers a device in the signed-in organization unless it is already: true when this call registered it. */
  register(serialNumber: string, deviceType: DeviceType): Promise<boolean>;
}

const NOT_SIMULATING =
  'Nothing is simulated here: start web mode with --simulate to press E-stops and add devices on a simulated bench.';

export function simulationHandlers(deps: SimulationHandlerDeps): HandlerGroup<SimulationChannel> {
  const simulation = (): SimulationPort => {
    if (!deps.simulation) throw new CoreError('VALIDATION', NOT_SIMULATING);
    return deps.simulation;
  };
  return {
    'simulation.devices': async () =>
      deps.simulation ? { active: true, devices: deps.simulation.devices() } : { active: false, devices: [] },
    'simulation.pressEstop': async (input) => {
      const bench = simulation();
      const device = bench.devices().find((d) => d.serialNumber === input.serialNumber);
      // A real device of the same serial number is never pressed from the app: only the bench's own.
      if (!device)
        throw new CoreError(
          'VALIDATION',
          `${input.serialNumber} is not a simulated device of this bench, so the app cannot press its E-stop: press it by hand.`,
        );
      if (!device.canPressEstop)
        throw new CoreError(
          'VALIDATION',
          `${input.serialNumber} is simulated without an E-stop control (a vendor device): it cannot be pressed from the app.`,
        );
      try {
        return { serialNumber: input.serialNumber, presses: await bench.pressEstop(input.serialNumber) };
      } catch (error) {
        throw toCoreError(error);
      }
    },
    'simulation.addDevice': async (input): Promise<SimulatedDeviceAddedView> => {
      const bench = simulation();
      if (bench.devices().some((d) => d.serialNumber === input.serialNumber)) {
        throw new CoreError('VALIDATION', `${input.serialNumber} is on the bench already: give another serial number.`);
      }
      let device: SimulatedDeviceView;
      try {
        device = await bench.addDevice({ deviceType: input.deviceType, serialNumber: input.serialNumber });
      } catch (error) {
        throw toCoreError(error);
      }
      try {
        return {
          device,
          registered: await deps.register(device.serialNumber, device.deviceType),
          registrationProblem: null,
        };
      } catch (error) {
        // It runs on the bench all the same: it can be updated, but not join a configuration.
        return {
          device,
          registered: false,
          registrationProblem: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}
