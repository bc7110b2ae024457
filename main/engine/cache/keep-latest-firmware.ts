import type { DeviceType } from '../../../domain/device-types';
import { readFirmwareBundle, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import type { CallOptions } from '../../cloud';
import type { CacheEntry } from './cache-entry';
import type { FirmwareCache } from './firmware-cache';
import { fetchPatches } from './fetch-patches';
import { checkFirmwareSignature, type FirmwareSigner } from './firmware-signature';
import { announcedBundleSha256, firmwareSourceLabel, originOf, type FirmwareSource } from './firmware-source';
import type { ReleaseKeySource } from './release-key-store';

/** The part of the firmware cache that keeping a bundle for offline use touches. */
export type KeepingCache = Pick<FirmwareCache, 'find' | 'put' | 'get' | 'patches' | 'releaseKeys'>;

export interface KeptFirmware {
  bytes: Uint8Array;
  bundle: FirmwareBundle;
  signer: FirmwareSigner;
  /** The cache's entry for it, this service and organization among its origins. */
  entry: CacheEntry;
  /** `cache`: this service and organization served this version before and it is kept intact; `download`: fetched now. */
  origin: 'cache' | 'download';
  /** The service's patches to its image newly kept (a device running one of their bases gets the patch offline). */
  patches: FirmwarePatchRecord[];
}

/**
 * The service's latest bundle for a device (by serial number) or a type, kept for offline use: the
 * one policy behind the Firmware screen's download, `device firmware download` and `cache
 * prefetch`. A version this service and organization served before and the cache holds intact is
 * not downloaded again. Either way the bundle is checked as a firmware job checks it before
 * sending (structure, image SHA-256, the type, the signature by one of the service's release keys),
 * and a downloaded one is kept only after that, with the SHA-256 the service announced; then the
 * service's patches to its image are fetched. Throws the check's FileFormatError, and then nothing
 * is kept. A job resolves its firmware by resolveFirmware instead, which also falls back to the
 * cache offline, and checks the signature in its own verifying step so that its record names the
 * image it refused.
 */
export async function keepLatestFirmware(
  cache: KeepingCache,
  client: FirmwareSource & ReleaseKeySource,
  target: { serialNumber: string } | { deviceType: DeviceType },
  call: CallOptions = {},
): Promise<KeptFirmware> {
  const latest =
    'serialNumber' in target
      ? await client.devices.firmwareVersion(target.serialNumber, call)
      : await client.devices.firmwareVersionByType(target.deviceType, call);
  const deviceType = 'deviceType' in target ? target.deviceType : latest.deviceType;
  const origin = originOf(client);
  const cached = await cache.find(deviceType, latest.version, origin);
  if (cached) {
    // Kept by a job's download, which checks at its own step: a refusal here still keeps it from a person's hands.
    const { signer } = await checkFirmwareSignature(cached.bundle, cache.releaseKeys, client, call);
    const patches = await fetchPatches(cache, client, cached, call);
    return { ...cached, signer, origin: 'cache', patches };
  }
  const file =
    'serialNumber' in target
      ? await client.devices.fetchFirmware(target.serialNumber, call)
      : await client.devices.fetchFirmwareByType(target.deviceType, call);
  const bundle = readFirmwareBundle(file.bytes, { deviceType });
  const { signer } = await checkFirmwareSignature(bundle, cache.releaseKeys, client, call);
  const path =
    'serialNumber' in target
      ? `/devices/${encodeURIComponent(target.serialNumber)}/firmware`
      : `/devices/types/${target.deviceType}/firmware`;
  const entry = await cache.put(file.bytes, {
    source: firmwareSourceLabel(client, path),
    origin,
    expect: { deviceType, version: bundle.version, sha256: announcedBundleSha256(file.headers) },
  });
  const stored = await cache.get(entry.sha256);
  if (!stored) throw new Error(`The firmware just cached (${entry.sha256}) is gone from the cache.`);
  const patches = await fetchPatches(cache, client, stored, call);
  return { bytes: file.bytes, bundle, signer, entry, origin: 'download', patches };
}
