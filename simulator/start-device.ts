import { VirtualDevice } from './device/virtual-device';
import { DeviceFaults } from './faults';
import { createLink } from './links/create-link';
import { resolveOptions, type SimulatedDeviceOptions } from './options';
import { registerLink } from './registry';
import { startVendorDevice } from './vendor/simulated';
import type { SimulatedDevice, SimulatedDeviceDescriptor } from './simulated-device';

/** Starts one virtual device; resolves once it is reachable (pty present, socket bound, advertising). */
export async function startSimulatedDevice(options: SimulatedDeviceOptions): Promise<SimulatedDevice> {
  const resolved = resolveOptions(options);
  const faults = new DeviceFaults(resolved.faults, resolved.serialNumber);
  const link = createLink(resolved, faults);
  if (resolved.protocol === 'vendor') {
    const vendor = await startVendorDevice(resolved, link, faults);
    registerLink(vendor, link);
    return vendor;
  }
  const device = await VirtualDevice.start(resolved, link, faults);
  const descriptor: SimulatedDeviceDescriptor = {
    serialNumber: resolved.serialNumber,
    deviceType: resolved.deviceType,
    model: resolved.model,
    protocol: resolved.protocol,
    ...link.address(),
    controlSocket: resolved.controlSocketPath,
  };
  const simulated: SimulatedDevice = {
    descriptor,
    state: () => device.state(),
    unplug: () => device.unplug(),
    plug: () => device.plug(),
    powerCycle: () => device.powerCycle(),
    stop: () => device.stop(),
    get wire() {
      return link.wire;
    },
    faultStats: device.faults.stats,
    decoderPeakBytes: () => device.firmware.decoderPeakBytes,
    pressEstop: () => device.pressEstop(),
  };
  registerLink(simulated, link);
  return simulated;
}
