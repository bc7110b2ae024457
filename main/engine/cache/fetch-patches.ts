import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import type { CallOptions } from '../../cloud';
import type { FirmwareSource } from './firmware-source';
import type { PatchStore } from './patch-store';
import type { CachedBundle } from './verified-bundle';

/**
 * Fetches into the cache the service's patches to `bundle`'s image that it does not hold yet, and
 * returns those it kept. A patch is an optimisation: one that cannot be fetched or is not a patch
 * is left out, and the device gets the deflated image.
 */
export async function fetchPatches(
  cache: { patches: Pick<PatchStore, 'has' | 'put'> },
  client: FirmwareSource,
  bundle: CachedBundle,
  call: CallOptions,
): Promise<FirmwarePatchRecord[]> {
  const kept: FirmwarePatchRecord[] = [];
  if (client.firmwarePatches === undefined) return kept;
  const { deviceType, imageSha256 } = bundle.bundle;
  try {
    for (const offered of await client.firmwarePatches.list(deviceType, call)) {
      if (offered.targetSha256 !== imageSha256 || (await cache.patches.has(offered.baseSha256, offered.targetSha256)))
        continue;
      const file = await client.firmwarePatches.fetch(deviceType, offered.fromVersion, call);
      await cache.patches.put(file.bytes, { baseSha256: offered.baseSha256, targetSha256: offered.targetSha256 });
      kept.push(offered);
    }
  } catch (error) {
    if (call.signal?.aborted) throw error;
  }
  return kept;
}
