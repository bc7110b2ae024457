import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import type { DeviceInfo } from '../../devices';
import type { DeviceIdentity } from './device-port';

export class UnknownDeviceTypeError extends Error {
  override readonly name = 'UnknownDeviceTypeError';
}

/** GET /info as the jobs see it; a type the interface does not name is refused here, once. */
export function identityOf(info: DeviceInfo): DeviceIdentity {
  if (!(DEVICE_TYPES as readonly string[]).includes(info.deviceType)) {
    throw new UnknownDeviceTypeError(
      `${info.serialNumber} reports device type ${info.deviceType}, which this Provisioner does not know (${DEVICE_TYPES.join(', ')})`,
    );
  }
  return {
    serialNumber: info.serialNumber,
    deviceType: info.deviceType as DeviceType,
    model: info.model,
    firmwareVersion: info.firmwareVersion,
    configSyncId: info.configSyncId,
    bootId: info.bootId,
  };
}
