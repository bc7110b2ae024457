import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import type { CacheEntry } from './cache-entry';
import type { FirmwareCache } from './firmware-cache';
import { announcedBundleSha256, firmwareSourceLabel, originOf, type FirmwareSource } from './firmware-source';

export interface PrefetchReport {
  fetched: CacheEntry[];
  /** Already cached at the service's latest version. */
  upToDate: Array<{ deviceType: DeviceType; version: string }>;
  /** One failing type does not stop the others. */
  failed: Array<{ deviceType: DeviceType; error: unknown }>;
}

/**
 * Makes sure the latest bundle of each type is cached for this service and organization: the types
 * given, or every type among the organization's registered devices. A type it already served at
 * its latest version (and intact) is not downloaded again.
 */
export async function prefetchFirmware(
  cache: Pick<FirmwareCache, 'find' | 'put'>,
  client: FirmwareSource,
  deviceTypes: readonly DeviceType[] | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<PrefetchReport> {
  const types = deviceTypes ?? (await typesInUse(client, options.signal));
  const origin = originOf(client);
  const report: PrefetchReport = { fetched: [], upToDate: [], failed: [] };
  for (const deviceType of types) {
    try {
      const { version } = await client.devices.firmwareVersionByType(deviceType, { signal: options.signal });
      if (await cache.find(deviceType, version, origin)) {
        report.upToDate.push({ deviceType, version });
        continue;
      }
      const file = await client.devices.fetchFirmwareByType(deviceType, { signal: options.signal });
      const source = firmwareSourceLabel(client, `/devices/types/${deviceType}/firmware`);
      report.fetched.push(await cache.put(file.bytes, { source, origin, expect: { deviceType, sha256: announcedBundleSha256(file.headers) } }));
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
