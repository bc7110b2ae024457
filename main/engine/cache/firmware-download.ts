import type { DeviceType } from '../../../domain/device-types';
import { readFirmwareBundle, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { CallOptions } from '../../cloud';
import type { CacheEntry } from './cache-entry';
import type { FirmwareCache } from './firmware-cache';
import { checkFirmwareSignature, type FirmwareSigner } from './firmware-signature';
import { firmwareSourceLabel, originOf, type FirmwareSource } from './firmware-source';
import type { ReleaseKeySource } from './release-key-store';

export interface CheckedFirmware {
  bytes: Uint8Array;
  bundle: FirmwareBundle;
  signer: FirmwareSigner;
  /** The cache's entry for it, this service and organization among its origins. */
  entry: CacheEntry;
}

/**
 * The latest bundle for a device (by serial number) or a type, for a person to carry: checked as a
 * firmware job checks it before sending (its structure and image SHA-256, the type asked for, the
 * signature by one of the service's release keys), and only then kept in the cache as served by
 * this service and organization, so that it may stand in for the service's answer offline.
 * Throws the check's FileFormatError, and then nothing is kept.
 */
export async function downloadCheckedFirmware(
  cache: FirmwareCache,
  client: FirmwareSource & ReleaseKeySource,
  target: { serialNumber: string } | { deviceType: DeviceType },
  call: CallOptions = {},
): Promise<CheckedFirmware> {
  const { bytes } =
    'serialNumber' in target
      ? await client.devices.fetchFirmware(target.serialNumber, call)
      : await client.devices.fetchFirmwareByType(target.deviceType, call);
  const bundle = readFirmwareBundle(bytes, 'deviceType' in target ? { deviceType: target.deviceType } : {});
  const { signer } = await checkFirmwareSignature(bundle, cache.releaseKeys, client, call);
  const path =
    'serialNumber' in target
      ? `/devices/${encodeURIComponent(target.serialNumber)}/firmware`
      : `/devices/types/${target.deviceType}/firmware`;
  const entry = await cache.put(bytes, {
    source: firmwareSourceLabel(client, path),
    origin: originOf(client),
    expect: { deviceType: bundle.deviceType, version: bundle.version },
  });
  return { bytes, bundle, signer, entry };
}
