import type { DeviceType } from '../../../domain/device-types';
import { NetworkError, ServiceError, type CallOptions } from '../../cloud';
import type { FirmwareCache } from './firmware-cache';
import { firmwareSourceLabel, type FirmwareSource } from './firmware-source';
import type { CachedBundle } from './verified-bundle';

/**
 * Which firmware to install on a device: the service's latest for its serial number (or type),
 * taken from the cache when it is there and intact, downloaded and cached otherwise. When the
 * service cannot be reached, the newest intact cached bundle for the type, with a notice saying
 * so: a plant without network can still be provisioned.
 */
export type ResolvedFirmware = CachedBundle & {
  origin: 'cache' | 'download' | 'offline-cache';
  /** The service's latest version; undefined when it could not be asked. */
  latestVersion: string | undefined;
  /** For the person: set when the choice was not the service's own answer. */
  notice: string | undefined;
};

export class NoFirmwareAvailableError extends Error {
  override readonly name = 'NoFirmwareAvailableError';
  constructor(
    readonly deviceType: DeviceType,
    override readonly cause: unknown,
  ) {
    super(
      `The service cannot be reached and no ${deviceType} firmware is cached. Connect once to download it (provisioner cache prefetch), then installs work offline.`,
      { cause },
    );
  }
}

export async function resolveFirmware(
  cache: FirmwareCache,
  client: FirmwareSource,
  target: { deviceType: DeviceType; serialNumber?: string },
  call: CallOptions = {},
): Promise<ResolvedFirmware> {
  const { deviceType, serialNumber } = target;
  let latestVersion: string | undefined;
  try {
    const latest =
      serialNumber !== undefined
        ? await client.devices.firmwareVersion(serialNumber, call)
        : await client.devices.firmwareVersionByType(deviceType, call);
    latestVersion = latest.version;
    const cached = await cache.find(deviceType, latest.version);
    if (cached) return { ...cached, origin: 'cache', latestVersion, notice: undefined };
    const file =
      serialNumber !== undefined ? await client.devices.fetchFirmware(serialNumber, call) : await client.devices.fetchFirmwareByType(deviceType, call);
    const path = serialNumber !== undefined ? `/devices/${encodeURIComponent(serialNumber)}/firmware` : `/devices/types/${deviceType}/firmware`;
    const entry = await cache.put(file.bytes, { source: firmwareSourceLabel(client, path), expect: { deviceType } });
    const stored = await cache.get(entry.sha256);
    if (!stored) throw new Error(`The firmware just cached (${entry.sha256}) is gone from the cache.`);
    return { ...stored, origin: 'download', latestVersion, notice: undefined };
  } catch (error) {
    // Unreachable, or up but failing for now (5xx, 429): the cache stands in. A 4xx (unknown
    // serial number, no firmware for the type, a revoked key) is an answer and is passed on.
    const unavailable = error instanceof NetworkError || (error instanceof ServiceError && error.retryable);
    if (!unavailable) throw error;
    const fallback = await cache.latest(deviceType);
    if (!fallback) throw new NoFirmwareAvailableError(deviceType, error);
    const why = error instanceof NetworkError ? 'unreachable' : `unavailable (HTTP ${error.httpStatus})`;
    const notice =
      `The service is ${why} (${error.message}); installing the newest cached ${deviceType} firmware, ` +
      `version ${fallback.entry.version}, fetched ${fallback.entry.fetchedAt}` +
      (latestVersion !== undefined && latestVersion !== fallback.entry.version ? `, although the service's latest is ${latestVersion}.` : '.');
    return { ...fallback, origin: 'offline-cache', latestVersion, notice };
  }
}
