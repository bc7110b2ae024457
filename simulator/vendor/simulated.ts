import type { DeviceState } from '../device/state';
import type { DeviceFaults } from '../faults';
import type { DeviceLink } from '../links/link';
import type { ResolvedDeviceOptions } from '../options';
import type { SimulatedDevice } from '../simulated-device';
import { VendorDevice } from './device';
import type { VendorState } from './state';

/** Starts a vendor device on its link and gives it the SimulatedDevice face every other device has. */
export async function startVendorDevice(
  options: ResolvedDeviceOptions,
  link: DeviceLink,
  faults: DeviceFaults,
): Promise<SimulatedDevice> {
  const device = await VendorDevice.start(options, link, faults);
  return {
    descriptor: {
      serialNumber: options.serialNumber,
      deviceType: options.deviceType,
      model: options.model,
      protocol: 'vendor',
      ...link.address(),
    },
    state: () => asDeviceState(device.state()),
    vendorState: () => device.state(),
    unplug: () => device.unplug(),
    plug: () => device.plug(),
    powerCycle: () => device.powerCycle(),
    stop: () => device.stop(),
    get wire() {
      return link.wire;
    },
    faultStats: faults.stats,
    decoderPeakBytes: () => 0,
    pressEstop: () =>
      Promise.reject(new Error(`${options.serialNumber} speaks the vendor's protocol, whose E-stop is not simulated.`)),
  };
}

/**
 * The vendor state in the shape every SimulatedDevice reports (identity, version, boots), so
 * callers that only watch versions and reboots need not know the protocol. The applied file's
 * checksum stands where our devices report a syncId, unless the file carried ours.
 */
function asDeviceState(state: VendorState): DeviceState {
  return {
    format: 'provisioner-simulator-state/1',
    serialNumber: state.serialNumber,
    deviceType: state.deviceType,
    model: state.model,
    firmwareVersion: state.firmwareVersion,
    bootId: state.bootId,
    securityCounter: 0,
    retiredReleaseKeyIds: [],
    config:
      state.config === null
        ? null
        : {
            syncId: state.config.syncId ?? state.config.checksum,
            appliedAt: state.config.at,
            blank: false,
            sequence: 0,
          },
    claim: null,
    upload: null,
  };
}
