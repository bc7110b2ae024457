import type { DeviceType } from '../../../../../domain/device-types';
import { buildFirmwareBundle, readFirmwareBundle } from '../../../../../domain/files/firmware-bundle';
import { encodeFirmwareImageHeader, FIRMWARE_IMAGE_HEADER_SIZE } from '../../../../../domain/files/firmware-image';
import { importFirmwareBundle } from '../../../../../server/store/firmware';
import type { World } from '../../../engine/jobs/helpers/world';

/**
 * A new firmware release on a world's service, as an operator's import publishes one: signed with
 * the service's default release key (the one its devices trust), and patched by the service from
 * the releases before it that share enough of its content (server/store/firmware-patches.ts).
 */

/** How many bytes of the base image the next release changes: a small fix, as between two builds of one firmware. */
const EDITED_BYTES = 12;

/**
 * The next release of `baseVersion` as the service holds it: the same image with a few bytes
 * changed and its header saying `version`, so the service can patch it from that release.
 */
export async function nextReleaseOf(
  world: World,
  deviceType: DeviceType,
  baseVersion: string,
  version: string,
): Promise<Uint8Array> {
  const { rows } = await world.service!.db.query<{ bundle: Uint8Array }>(
    'SELECT bundle FROM firmware_bundles WHERE device_type = $1 AND version = $2',
    [deviceType, baseVersion],
  );
  if (!rows[0]) throw new Error(`The service holds no ${deviceType} ${baseVersion} to make the next release of.`);
  const base = readFirmwareBundle(rows[0].bundle, { deviceType, version: baseVersion });
  const image = new Uint8Array(base.image);
  const bodyLength = image.length - FIRMWARE_IMAGE_HEADER_SIZE;
  image.set(encodeFirmwareImageHeader({ deviceType, version, bodyLength }));
  for (let e = 0; e < EDITED_BYTES; e++) {
    const at = FIRMWARE_IMAGE_HEADER_SIZE + Math.floor(((e + 0.5) * bodyLength) / EDITED_BYTES);
    image[at] = image[at]! ^ 0x5a;
  }
  return image;
}

/** Publishes `image` as `version` on the world's service; it becomes the latest for `deviceType`. */
export async function publishRelease(
  world: World,
  deviceType: DeviceType,
  version: string,
  image: Uint8Array,
): Promise<void> {
  const bytes = buildFirmwareBundle({
    deviceType,
    version,
    image,
    releaseKeyPem: world.releaseKey.privateKeyPem,
    securityCounter: 1,
  });
  await world.service!.db.transaction((tx) => importFirmwareBundle(tx, bytes, { deviceType, version }));
}
