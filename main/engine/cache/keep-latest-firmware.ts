import type { DeviceType } from '../../../domain/device-types';
import type { FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import type { CallOptions } from '../../cloud';
import type { CacheEntry } from './cache-entry';
import type { FirmwareCache } from './firmware-cache';
import { checkFirmwareSignature, type FirmwareSigner } from './firmware-signature';
import type { FirmwareSource } from './firmware-source';
import { takeLatestBundle } from './latest-bundle';
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
  // A cached one was perhaps kept by a job's download, which checks at its own step: a refusal here
  // still keeps it from a person's hands.
  const taken = await takeLatestBundle(cache, client, target, call, async (bundle) => {
    const { signer } = await checkFirmwareSignature(bundle, cache.releaseKeys, client, call);
    return signer;
  });
  const { bytes, bundle, entry, origin, patches } = taken;
  return { bytes, bundle, signer: taken.checked, entry, origin, patches };
}
