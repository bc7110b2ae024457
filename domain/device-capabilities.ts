import type { DeviceType } from './device-types';
import type { CommInterfaceFlag } from './enums';

/**
 * Which interfaces each device type has. SRCP and WESP are handheld radios: BLE and ISM only.
 * EPC and NSCP are endpoint controllers on the machine; the typical flows use them over ISM, BLE
 * and Ethernet, and DESIGN.md reaches them over Ethernet or Wifi.
 */
export const SUPPORTED_INTERFACES: Readonly<Record<DeviceType, readonly CommInterfaceFlag[]>> = {
  SRCP: ['BLE', 'ISM'],
  WESP: ['BLE', 'ISM'],
  EPC: ['BLE', 'ISM', 'Ethernet', 'Wifi'],
  NSCP: ['BLE', 'ISM', 'Ethernet', 'Wifi'],
};

/** Types without a J1 connector: their inputs 1 to 3 must be NOT_USED. */
export const TYPES_WITHOUT_INPUTS: readonly DeviceType[] = ['SRCP', 'WESP'];

export function supportsInterface(deviceType: DeviceType, flag: CommInterfaceFlag): boolean {
  return flag === 'None' || SUPPORTED_INTERFACES[deviceType].includes(flag);
}
