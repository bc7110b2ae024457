import type { DeviceType } from '../../../domain/device-types';
import { readFirmwareBundle, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import type { CallOptions } from '../../cloud';
import type { FirmwareCache } from './firmware-cache';
import { fetchPatches } from './fetch-patches';
import { announcedBundleSha256, firmwareSourceLabel, originOf, type FirmwareSource } from './firmware-source';
import type { CachedBundle } from './verified-bundle';

/** The part of the firmware cache that taking the service's latest bundle touches. */
export type LatestBundleCache = Pick<FirmwareCache, 'find' | 'put' | 'get' | 'patches'>;

/** A device by serial number (its type, when known, is where the cache looks) or a device type. */
export type LatestBundleTarget = { serialNumber: string; deviceType?: DeviceType } | { deviceType: DeviceType };

export interface LatestBundle<Checked> extends CachedBundle {
  /** `cache`: this service and organization served this version before and it is kept intact; `download`: fetched now. */
  origin: 'cache' | 'download';
  /** The service's latest version for the target. */
  latestVersion: string;
  /** What `check` returned for the bundle; undefined when no check was given. */
  checked: Checked;
  /** The service's patches to its image newly kept. */
  patches: FirmwarePatchRecord[];
}

/** The service's latest version for `target`, and the type the cache keeps it under. */
export async function askLatestVersion(
  client: FirmwareSource,
  target: LatestBundleTarget,
  call: CallOptions,
): Promise<{ version: string; deviceType: DeviceType }> {
  const latest =
    'serialNumber' in target
      ? await client.devices.firmwareVersion(target.serialNumber, call)
      : await client.devices.firmwareVersionByType(target.deviceType, call);
  return { version: latest.version, deviceType: target.deviceType ?? latest.deviceType };
}

/**
 * The service's latest bundle for `target` (its version asked first, askLatestVersion), and the
 * service's patches to its image: taken from the cache when this service and organization served
 * that version before and it is intact, otherwise downloaded and kept with the SHA-256 the service
 * announced. The one walk behind a job's resolveFirmware and a person's keepLatestFirmware.
 *
 * `check`, when given, sees the bundle before it is used: a cached one as found, a downloaded one
 * before it is kept, so that a bundle it refuses (by throwing) is never kept. Without it, the
 * cache's own put opens and checks the download (the image hash, the type), and a transfer cut
 * short says so by its SHA-256.
 */
export async function takeLatestBundle<Checked = undefined>(
  cache: LatestBundleCache,
  client: FirmwareSource,
  target: LatestBundleTarget,
  call: CallOptions,
  check?: (bundle: FirmwareBundle) => Promise<Checked>,
  latest?: { version: string; deviceType: DeviceType },
): Promise<LatestBundle<Checked>> {
  const { version: latestVersion, deviceType } = latest ?? (await askLatestVersion(client, target, call));
  const origin = originOf(client);
  const checkedOf = async (bundle: FirmwareBundle) => (check ? await check(bundle) : undefined) as Checked;

  const cached = await cache.find(deviceType, latestVersion, origin);
  if (cached) {
    const checked = await checkedOf(cached.bundle);
    const patches = await fetchPatches(cache, client, cached, call);
    return { ...cached, origin: 'cache', latestVersion, checked, patches };
  }

  const serialNumber = 'serialNumber' in target ? target.serialNumber : undefined;
  const file =
    serialNumber !== undefined
      ? await client.devices.fetchFirmware(serialNumber, call)
      : await client.devices.fetchFirmwareByType(deviceType, call);
  let checked = undefined as Checked;
  let version: string | undefined;
  if (check) {
    const bundle = readFirmwareBundle(file.bytes, { deviceType });
    checked = await check(bundle);
    version = bundle.version;
  }
  const path =
    serialNumber !== undefined
      ? `/devices/${encodeURIComponent(serialNumber)}/firmware`
      : `/devices/types/${deviceType}/firmware`;
  const entry = await cache.put(file.bytes, {
    source: firmwareSourceLabel(client, path),
    origin,
    expect: { deviceType, version, sha256: announcedBundleSha256(file.headers) },
  });
  const stored = await cache.get(entry.sha256);
  if (!stored) throw new Error(`The firmware just cached (${entry.sha256}) is gone from the cache.`);
  const patches = await fetchPatches(cache, client, stored, call);
  return { ...stored, origin: 'download', latestVersion, checked, patches };
}
