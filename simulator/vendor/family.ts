import type { DeviceType } from '../../domain/device-types';
import type { VendorFamily } from '../../domain/vendor/running-values';

/**
 * Our device types as the vendor's families: the EPC is the vendor's EPC (CoAP over UDP); SRCP
 * (SRC Pro), NSCP (NSC) and WESP are FRC-family devices on USB serial.
 */
export function familyOf(deviceType: DeviceType): VendorFamily {
  return deviceType === 'EPC' ? 'EPC' : 'FRC';
}

/** The names a person reads on a vendor device. */
export const VENDOR_MODELS: Record<DeviceType, string> = { SRCP: 'SRC Pro', NSCP: 'NSC', WESP: 'WESP', EPC: 'EPC' };
