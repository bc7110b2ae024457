import type { DeviceType } from '../../domain/device-types';
import type { Queryable } from '../db/database';

export interface FirmwareBundleRow {
  deviceType: DeviceType;
  version: string;
  sha256: string;
  size: number;
  importedAt: Date;
}

/**
 * Orders versions the way people read them: numeric parts numerically ('1.10.0' after '1.9.2'),
 * other parts as text; a pre-release ('2.0.0-rc1') comes before its release ('2.0.0').
 */
export function compareVersions(a: string, b: string): number {
  const [aCore = '', aPre] = splitPre(a);
  const [bCore = '', bPre] = splitPre(b);
  const aParts = aCore.split(/[.]/);
  const bParts = bCore.split(/[.]/);
  for (let i = 0; i < Math.max(aParts.length, bParts.length); i++) {
    const diff = comparePart(aParts[i] ?? '0', bParts[i] ?? '0');
    if (diff !== 0) return diff;
  }
  if (aPre === undefined || bPre === undefined) return aPre === bPre ? 0 : aPre === undefined ? 1 : -1;
  return comparePart(aPre, bPre);
}

function splitPre(version: string): [string, string | undefined] {
  const dash = version.indexOf('-');
  return dash < 0 ? [version, undefined] : [version.slice(0, dash), version.slice(dash + 1)];
}

function comparePart(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b) || a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Row {
  device_type: DeviceType;
  version: string;
  sha256: string;
  size: number;
  imported_at: Date;
}

/** Stores a bundle; importing the same type and version again replaces it (a re-built bundle). */
export async function putFirmwareBundle(
  db: Queryable,
  bundle: { deviceType: DeviceType; version: string; bytes: Uint8Array; sha256: string; manifest: unknown },
): Promise<void> {
  await db.query(
    `INSERT INTO firmware_bundles (device_type, version, bundle, sha256, size, manifest) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (device_type, version) DO UPDATE
       SET bundle = EXCLUDED.bundle, sha256 = EXCLUDED.sha256, size = EXCLUDED.size, manifest = EXCLUDED.manifest, imported_at = now()`,
    [bundle.deviceType, bundle.version, bundle.bytes, bundle.sha256, bundle.bytes.length, JSON.stringify(bundle.manifest)],
  );
}

/** The latest bundle of a type (by version order, not import time), without its bytes. */
export async function latestFirmware(db: Queryable, deviceType: DeviceType): Promise<FirmwareBundleRow | undefined> {
  const { rows } = await db.query<Row>('SELECT device_type, version, sha256, size, imported_at FROM firmware_bundles WHERE device_type = $1', [deviceType]);
  const latest = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
  return latest && { deviceType: latest.device_type, version: latest.version, sha256: latest.sha256, size: latest.size, importedAt: latest.imported_at };
}

export async function firmwareBundleBytes(db: Queryable, deviceType: DeviceType, version: string): Promise<Uint8Array | undefined> {
  const { rows } = await db.query<{ bundle: Uint8Array }>('SELECT bundle FROM firmware_bundles WHERE device_type = $1 AND version = $2', [
    deviceType,
    version,
  ]);
  return rows[0]?.bundle;
}

export async function firmwareBundleExists(db: Queryable, deviceType: DeviceType, version: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM firmware_bundles WHERE device_type = $1 AND version = $2', [deviceType, version]);
  return rows.length > 0;
}
