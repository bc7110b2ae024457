import type { DeviceLink } from './links/link';
import type { SimulatedDevice } from './simulated-device';

/** The link behind each SimulatedDevice, kept off its public shape (the BLE bindings need it). */
const links = new WeakMap<SimulatedDevice, DeviceLink>();

export function registerLink(device: SimulatedDevice, link: DeviceLink): void {
  links.set(device, link);
}

export function linkOf(device: SimulatedDevice): DeviceLink | undefined {
  return links.get(device);
}
