import type { DeviceType } from '../domain/device-types';
import type { DeviceState } from './device/state';
import type { FaultStats } from './faults';
import type { LinkKind } from './links/link';
import type { WireModel } from './wire/models';
import type { DeviceProtocol } from './options';
import type { VendorState } from './vendor/state';

export interface SimulatedDeviceDescriptor {
  serialNumber: string;
  deviceType: DeviceType;
  model: string;
  /** Which protocol it speaks; absent in descriptors from before the vendor's protocol: ours. */
  protocol?: DeviceProtocol;
  link: LinkKind;
  /** Serial: the host end of the pty pair (the same across unplug, plug and reboots). */
  path?: string;
  host?: string;
  port?: number;
  bleAddress?: string;
  /** The device's control socket: `{"command":"press-estop"}` presses its E-stop (device/control-socket.ts). */
  controlSocket?: string;
}

export interface SimulatedDevice {
  readonly descriptor: SimulatedDeviceDescriptor;
  /** What the device holds in its non-volatile memory right now. */
  state(): DeviceState;
  /** Pull the cable: the pty vanishes / UDP goes silent / BLE disconnects and stops advertising. */
  unplug(): Promise<void>;
  plug(): Promise<void>;
  /** Power off and on: data held only in RAM is lost; bootId is bumped. */
  powerCycle(): Promise<void>;
  stop(): Promise<void>;
  /** The wire models in use, for measurements (BLE: of the current connection). */
  readonly wire: { inbound: WireModel; outbound: WireModel };
  readonly faultStats: FaultStats;
  /** The most memory the device's firmware decoder (inflate, patch) has held, for the link benchmark. */
  decoderPeakBytes(): number;
  /** A hand on the E-stop (as through the control socket); resolves with the presses since boot. */
  pressEstop(): Promise<number>;
  /** A vendor device's memory: its settings, fs files and applied configuration (simulator/vendor/state.ts). */
  vendorState?(): VendorState;
}
