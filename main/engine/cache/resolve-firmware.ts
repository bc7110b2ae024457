import type { DeviceType } from '../../../domain/device-types';
import type { PrecodedStream } from '../../../domain/files/content-coding';
import { NetworkError, ServiceError, type CallOptions } from '../../cloud';
import type { FirmwareCache } from './firmware-cache';
import { originOf, type FirmwareSource } from './firmware-source';
import { askLatestVersion, takeLatestBundle } from './latest-bundle';
import type { CachedPatch } from './patch-store';
import type { CachedBundle } from './verified-bundle';

/**
 * Which firmware to install on a device: the service's latest for its serial number (or type),
 * taken from the cache when this service and organization served it before and it is intact,
 * downloaded (checked against the SHA-256 the service announces) and cached otherwise. When the
 * service cannot be reached, the newest intact bundle this service and organization served, with
 * a notice saying so: a plant without network can still be provisioned, but never with another
 * organization's firmware.
 */
export type ResolvedFirmware = CachedBundle & {
  origin: 'cache' | 'download' | 'offline-cache';
  /** Patches to this bundle's image from images devices may run (kept in the cache), for a delta upload; each with its deflated stream. */
  patches: Array<CachedPatch & { deflated?: PrecodedStream }>;
  /** The image deflated once, with zopfli (deflated-store.ts); undefined for an image too large for it. */
  deflated: PrecodedStream | undefined;
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
      `The service cannot be reached and no ${deviceType} firmware from this organization is cached. Connect once to download it (provisioner cache prefetch), then installs work offline.`,
      { cause },
    );
  }
}

/**
 * The bundle with its patches and the deflated streams of its image and of each patch: made the
 * first time a bundle or patch is resolved after it entered the cache (seconds, once), read back
 * after that. A stream that cannot be made or kept leaves the upload to deflate with zlib.
 */
async function withPatches(
  cache: FirmwareCache,
  resolved: Omit<ResolvedFirmware, 'patches' | 'deflated'>,
): Promise<ResolvedFirmware> {
  const deflatedOf = (bytes: Uint8Array) => cache.deflated.of(bytes).catch(() => undefined);
  const patches: ResolvedFirmware['patches'] = [];
  for (const patch of await cache.patches.to(resolved.bundle.imageSha256)) {
    const deflated = await deflatedOf(patch.patch);
    patches.push(deflated === undefined ? patch : { ...patch, deflated });
  }
  return { ...resolved, patches, deflated: await deflatedOf(resolved.bundle.image) };
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
    // Without a serialNumber key when there is none: the walk asks by serial number whenever the key is there.
    const asked = serialNumber !== undefined ? { serialNumber, deviceType } : { deviceType };
    // Asked apart, so that a download that fails can still say what the service's latest is.
    const latest = await askLatestVersion(client, asked, call);
    latestVersion = latest.version;
    const taken = await takeLatestBundle(cache, client, asked, call, undefined, latest);
    const { entry, bytes, bundle, origin: from } = taken;
    return withPatches(cache, { entry, bytes, bundle, origin: from, latestVersion, notice: undefined });
  } catch (error) {
    // Unreachable, or up but failing for now (5xx, 429): the cache stands in. A 4xx (unknown
    // serial number, no firmware for the type, a revoked key) is an answer and is passed on.
    const unavailable = error instanceof NetworkError || (error instanceof ServiceError && error.retryable);
    if (!unavailable) throw error;
    const fallback = await cache.latest(deviceType, originOf(client));
    if (!fallback) throw new NoFirmwareAvailableError(deviceType, error);
    const why = error instanceof NetworkError ? 'unreachable' : `unavailable (HTTP ${error.httpStatus})`;
    const notice =
      `The service is ${why} (${error.message}); installing the newest cached ${deviceType} firmware, ` +
      `version ${fallback.entry.version}, fetched ${fallback.entry.fetchedAt}` +
      (latestVersion !== undefined && latestVersion !== fallback.entry.version
        ? `, although the service's latest is ${latestVersion}.`
        : '.');
    return withPatches(cache, { ...fallback, origin: 'offline-cache', latestVersion, notice });
  }
}
