import type { DeviceType } from '../../domain/device-types';
import { readFirmwareBundle, type FirmwareBundle } from '../../domain/files/firmware-bundle';
import { createFirmwarePatch, sharedContentFraction } from '../../domain/files/firmware-patch';
import type { FirmwarePatchRecord } from '../../domain/files/firmware-patch-record';
import type { Queryable } from '../db/database';
import { compareVersions } from '../../domain/firmware-version';
import { SERVABLE } from './firmware';

/** How many of the releases before a newly imported one get a patch to it: the ones devices still run. */
export const PATCHED_EARLIER_RELEASES = 3;

/**
 * Images above this size get no patches: making one sorts every suffix of the base (bsdiff), which
 * takes seconds per MiB here, inside the import's transaction. Devices then get the deflated image.
 */
export const MAX_PATCHED_IMAGE_BYTES = 1024 * 1024;

/**
 * Below this share of content in common (domain sharedContentFraction) no patch is made: it would
 * not beat the deflated image. Two builds of one real firmware share about 0.6 (docs/performance.md).
 */
export const MIN_SHARED_CONTENT = 0.2;

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

/**
 * Makes the patches from the latest PATCHED_EARLIER_RELEASES servable releases below `bundle`'s
 * version to it, replacing any made before. Run it in the import's transaction. Returns the
 * versions patched from.
 */
export async function makeFirmwarePatches(db: Queryable, bundle: FirmwareBundle): Promise<string[]> {
  if (bundle.image.length > MAX_PATCHED_IMAGE_BYTES) return [];
  const { rows } = await db.query<{ version: string }>(
    `SELECT b.version FROM ${SERVABLE} WHERE b.device_type = $1 AND b.version <> $2`,
    [bundle.deviceType, bundle.version],
  );
  const earlier = rows
    .map((row) => row.version)
    .filter((version) => compareVersions(version, bundle.version) < 0)
    .sort((a, b) => compareVersions(b, a))
    .slice(0, PATCHED_EARLIER_RELEASES);
  // A re-imported release: its old patches built the old image.
  await db.query('DELETE FROM firmware_patches WHERE device_type = $1 AND to_version = $2', [
    bundle.deviceType,
    bundle.version,
  ]);
  const made: string[] = [];
  for (const version of earlier) {
    const stored = await db.query<{ bundle: Uint8Array }>(
      'SELECT bundle FROM firmware_bundles WHERE device_type = $1 AND version = $2',
      [bundle.deviceType, version],
    );
    const bytes = stored.rows[0]?.bundle;
    if (bytes === undefined) continue;
    const base = readFirmwareBundle(bytes, { deviceType: bundle.deviceType, version });
    if (
      base.image.length > MAX_PATCHED_IMAGE_BYTES ||
      sharedContentFraction(base.image, bundle.image) < MIN_SHARED_CONTENT
    )
      continue;
    const patch = createFirmwarePatch(base.image, bundle.image, {
      baseSha256: hexBytes(base.imageSha256),
      targetSha256: hexBytes(bundle.imageSha256),
    });
    await db.query(
      'INSERT INTO firmware_patches (device_type, from_version, to_version, base_sha256, target_sha256, patch, size) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [bundle.deviceType, version, bundle.version, base.imageSha256, bundle.imageSha256, patch, patch.length],
    );
    made.push(version);
  }
  return made;
}

interface PatchRow {
  device_type: DeviceType;
  from_version: string;
  to_version: string;
  base_sha256: string;
  target_sha256: string;
  size: number;
}

const toRecord = (row: PatchRow): FirmwarePatchRecord => ({
  deviceType: row.device_type,
  fromVersion: row.from_version,
  toVersion: row.to_version,
  baseSha256: row.base_sha256,
  targetSha256: row.target_sha256,
  size: row.size,
});

/** The patches to `toVersion`, from the newest release patched from. */
export async function firmwarePatchesTo(
  db: Queryable,
  deviceType: DeviceType,
  toVersion: string,
): Promise<FirmwarePatchRecord[]> {
  const { rows } = await db.query<PatchRow>(
    'SELECT device_type, from_version, to_version, base_sha256, target_sha256, size FROM firmware_patches WHERE device_type = $1 AND to_version = $2',
    [deviceType, toVersion],
  );
  return rows.map(toRecord).sort((a, b) => compareVersions(b.fromVersion, a.fromVersion));
}

export async function firmwarePatchBytes(
  db: Queryable,
  deviceType: DeviceType,
  fromVersion: string,
  toVersion: string,
): Promise<{ record: FirmwarePatchRecord; patch: Uint8Array } | undefined> {
  const { rows } = await db.query<PatchRow & { patch: Uint8Array }>(
    'SELECT device_type, from_version, to_version, base_sha256, target_sha256, size, patch FROM firmware_patches WHERE device_type = $1 AND from_version = $2 AND to_version = $3',
    [deviceType, fromVersion, toVersion],
  );
  const row = rows[0];
  return row && { record: toRecord(row), patch: row.patch };
}
