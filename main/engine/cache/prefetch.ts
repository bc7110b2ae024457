import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import type { CacheEntry } from './cache-entry';
import type { FirmwareSource } from './firmware-source';
import { keepLatestFirmware, type KeepingCache } from './keep-latest-firmware';
import type { ReleaseKeySource } from './release-key-store';

export interface PrefetchReport {
  fetched: CacheEntry[];
  /** Already cached at the service's latest version. */
  upToDate: Array<{ deviceType: DeviceType; version: string }>;
  /**
   * Patches to those latest images newly kept (from each release the service has one for): offline,
   * a device that runs one of those releases gets the patch instead of the whole image.
   */
  patches: FirmwarePatchRecord[];
  /** One failing type does not stop the others. */
  failed: Array<{ deviceType: DeviceType; error: unknown }>;
}

/**
 * Makes sure the latest bundle of each type is cached for this service and organization, checked
 * and with the service's patches to it (keepLatestFirmware): the types given, or every type among
 * the organization's registered devices. A type it already served at its latest version (and
 * intact) is not downloaded again, nor is a patch the cache holds.
 */
export async function prefetchFirmware(
  cache: KeepingCache,
  client: FirmwareSource & ReleaseKeySource,
  deviceTypes: readonly DeviceType[] | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<PrefetchReport> {
  const types = deviceTypes ?? (await typesInUse(client, options.signal));
  const report: PrefetchReport = { fetched: [], upToDate: [], patches: [], failed: [] };
  for (const deviceType of types) {
    try {
      const kept = await keepLatestFirmware(cache, client, { deviceType }, { signal: options.signal });
      if (kept.origin === 'cache') report.upToDate.push({ deviceType, version: kept.bundle.version });
      else report.fetched.push(kept.entry);
      report.patches.push(...kept.patches);
    } catch (error) {
      report.failed.push({ deviceType, error });
    }
  }
  return report;
}

async function typesInUse(client: FirmwareSource, signal: AbortSignal | undefined): Promise<DeviceType[]> {
  const seen = new Set<DeviceType>();
  for await (const device of client.devices.listAll({}, { signal })) seen.add(device.deviceType);
  // The order a technician sees types in, not the order devices were listed in.
  return DEVICE_TYPES.filter((t) => seen.has(t));
}

/** What `cache prefetch` does: the release keys, kept so that an install without the service checks bundles with them, then prefetchFirmware. */
export async function prefetchBundlesAndKeys(
  cache: PrefetchCache,
  client: FirmwareSource & ReleaseKeySource,
  deviceTypes?: readonly DeviceType[],
  options: { signal?: AbortSignal } = {},
): Promise<PrefetchReport> {
  await cache.releaseKeys.get(client, options);
  return prefetchFirmware(cache, client, deviceTypes, options);
}

/** The part of the firmware cache a prefetch uses. */
export type PrefetchCache = KeepingCache;
