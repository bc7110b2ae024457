import { DEVICE_TYPES, type DeviceType } from './device-types';

/**
 * The serial number of a device added to the simulated bench: the type's letters and six digits,
 * as the devices carry it (EPC000105). One rule for the Workbench's form and the core that starts
 * the device, so both say the same thing.
 */
export function benchSerialProblem(deviceType: DeviceType, serialNumber: string): string | null {
  const serial = serialNumber.trim().toUpperCase();
  if (serial.length === 0) return `Give the serial number, e.g. ${deviceType}000105.`;
  const letters = DEVICE_TYPES.find((type) => serial.startsWith(type));
  if (letters !== undefined && letters !== deviceType)
    return `${serial} starts with ${letters}, not ${deviceType}: give a serial number like ${deviceType}000105, or choose the type ${letters}.`;
  if (!new RegExp(`^${deviceType}\\d{6}$`).test(serial))
    return `The serial number is ${deviceType} and six digits, e.g. ${deviceType}000105.`;
  return null;
}
