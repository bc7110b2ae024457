import { z } from 'zod';
import { deviceTypeSchema, type DeviceType } from '../domain/device-types';
import type { FirmwarePatchRecord } from '../domain/files/firmware-patch-record';
import { command, noInput, query } from './channel-spec';

export interface CachedFirmwareView {
  deviceType: DeviceType;
  version: string;
  sha256: string;
  size: number;
  storedAt: string | null;
}

/** A patch the cache keeps: a device on `fromVersion` gets it instead of the whole image. Null: a release the cache does not hold. */
export interface CachedPatchView {
  fromVersion: string | null;
  toVersion: string | null;
  size: number;
}

export interface FirmwareTypeView {
  deviceType: DeviceType;
  /** Latest version the service offers; null when it has none or could not be asked (see `error`). */
  latestVersion: string | null;
  cached: CachedFirmwareView[];
  /** Patches between releases of this type in the cache. */
  patches: CachedPatchView[];
  latestCached: boolean;
  error: string | null;
}

/** The firmware the service offers per device type, and the copies in the cache. */
export const FIRMWARE_CHANNELS = {
  'firmware.overview': query(noInput).returns<FirmwareTypeView[]>(),
  'firmware.download': command(z.object({ deviceType: deviceTypeSchema }).strict()).returns<CachedFirmwareView>(),
} as const;
export type FirmwareChannel = keyof typeof FIRMWARE_CHANNELS;

/** One bundle the offline cache holds, whole, as its index keeps it (main/engine/cache/cache-entry.ts). */
export interface CachedBundleRecord {
  sha256: string;
  deviceType: DeviceType;
  version: string;
  size: number;
  fetchedAt: string;
  /** Where the bundle came from: `service <url>` or `file <path>`. */
  source: string;
  /** Every service and organization that served these bytes, most recent last. */
  origins: Array<{ serviceUrl: string; orgId: string }>;
  imageSha256?: string;
}

/** A kept patch, named by the cached releases it joins (null: a release the cache does not hold, named by its image's SHA-256). */
export interface CachedPatchRecord {
  deviceType: DeviceType | null;
  fromVersion: string | null;
  toVersion: string | null;
  baseSha256: string;
  targetSha256: string;
  size: number;
}

/** A device's configuration file kept for offline use. */
export interface KeptConfigurationFileRecord {
  serialNumber: string;
  syncId: string;
  size: number;
  fetchedAt: string;
}

/** What the cache holds for the account: bundles, patches between them, and kept configuration files. */
export interface CacheContentsView {
  firmware: CachedBundleRecord[];
  patches: CachedPatchRecord[];
  configurationFiles: KeptConfigurationFileRecord[];
}

/** What a prefetch took; one failing type or device does not stop the others. */
export interface CachePrefetchView {
  /** Bundles newly cached, and types already cached at the service's latest version. */
  fetched: CachedBundleRecord[];
  upToDate: Array<{ deviceType: DeviceType; version: string }>;
  /** Patches to those latest images newly kept. */
  patches: FirmwarePatchRecord[];
  failedFirmware: Array<{ deviceType: DeviceType; message: string }>;
  /** Serial numbers whose configuration file was kept (only when no types were named). */
  configurationFiles: string[];
  /** Devices in a configuration whose file could not be taken (a configuration not complete has none). */
  failedConfigurationFiles: Array<{ serialNumber: string; message: string }>;
  /** Whether the service's signing key is at hand to check files offline. */
  signingKey: boolean;
}

/** The offline cache: what it holds, filling it before going where there is no network, and pruning it. */
export const CACHE_CHANNELS = {
  'cache.contents': query(noInput).returns<CacheContentsView>(),
  /** Without types: every type the organization uses, and each configured device's configuration file. */
  'cache.prefetch': command(
    z.object({ deviceTypes: z.array(deviceTypeSchema).min(1).max(1024).optional() }).strict(),
  ).returns<CachePrefetchView>(),
  /** The newest `keepPerType` versions of each type stay; answers the bundles removed. */
  'cache.prune': command(
    z
      .object({
        keepPerType: z
          .number({ message: 'versions to keep per type: a whole number, 0 or more' })
          .int({ message: 'versions to keep per type: a whole number, 0 or more' })
          .min(0, { message: 'versions to keep per type: 0 or more' }),
      })
      .strict(),
  ).returns<CachedBundleRecord[]>(),
} as const;
export type CacheChannel = keyof typeof CACHE_CHANNELS;
