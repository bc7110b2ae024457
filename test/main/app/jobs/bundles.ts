import type { DeviceType } from '../../../../domain/device-types';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';

/** A valid firmware bundle for tests: same inputs, same bytes. */
export function bundle(deviceType: DeviceType, version: string, bodyLength = 2048): Uint8Array {
  return buildFirmwareBundle({ deviceType, version, image: makeFirmwareImage(deviceType, version, bodyLength) });
}
