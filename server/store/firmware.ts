import type { DeviceType } from '../../domain/device-types';
import { compareVersions } from '../../domain/firmware-version';
import {
  readFirmwareBundle,
  verifyFirmwareBundleSignature,
  type FirmwareBundle,
} from '../../domain/files/firmware-bundle';
import type { VerifiedFirmwareManifest } from '../../domain/files/firmware-manifest';
import type { Queryable } from '../db/database';
import { makeFirmwarePatches } from './firmware-patches';
import { releaseKeyring, retireReleaseKeys } from './release-keys';

export interface FirmwareBundleRow {
  deviceType: DeviceType;
  version: string;
  sha256: string;
  size: number;
  importedAt: Date;
  /** The release key that signed the bundle's manifest. */
  keyId: string;
}

interface Row {
  device_type: DeviceType;
  version: string;
  sha256: string;
  size: number;
  imported_at: Date;
  key_id: string;
}

/**
 * Bundles signed by a key the service trusts and has not retired: the only ones it serves. Unsigned
 * rows from before signatures were required, and bundles of a retired key, stay stored but unseen.
 */
export const SERVABLE = `firmware_bundles b JOIN firmware_release_keys k ON k.key_id = b.key_id
  AND k.public_key_pem IS NOT NULL AND k.trusted_at IS NOT NULL AND k.retired_at IS NULL`;

/** A bundle that passed importFirmwareBundle's checks. */
export interface ImportedFirmware {
  bundle: FirmwareBundle;
  signer: VerifiedFirmwareManifest;
}

/**
 * The one way a bundle gets into the service: opened and checked (manifest, hashes, header, the
 * type and version expected), its signed manifest verified against the trusted release keys
 * (FileFormatError FW_UNSIGNED, FW_UNTRUSTED_KEY, FW_KEY_RETIRED or FW_BAD_SIGNATURE otherwise),
 * the keys it retires retired, then stored. Importing the same type and version again replaces it
 * (a re-built bundle). Run it in a transaction: the retirement and the bundle go together.
 */
export async function importFirmwareBundle(
  db: Queryable,
  bytes: Uint8Array,
  expect: { deviceType?: DeviceType; version?: string } = {},
): Promise<ImportedFirmware> {
  const bundle = readFirmwareBundle(bytes, expect);
  const signer = verifyFirmwareBundleSignature(bundle, await releaseKeyring(db));
  await retireReleaseKeys(db, signer.manifest.retires, signer.key.keyId);
  await db.query(
    `INSERT INTO firmware_bundles (device_type, version, bundle, sha256, size, manifest, key_id, security_counter) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     ON CONFLICT (device_type, version) DO UPDATE
       SET bundle = EXCLUDED.bundle, sha256 = EXCLUDED.sha256, size = EXCLUDED.size, manifest = EXCLUDED.manifest,
           key_id = EXCLUDED.key_id, security_counter = EXCLUDED.security_counter, imported_at = now()`,
    [
      bundle.deviceType,
      bundle.version,
      bytes,
      bundle.bundleSha256,
      bytes.length,
      JSON.stringify(bundle.manifest),
      signer.key.keyId,
      signer.manifest.securityCounter,
    ],
  );
  // Patches from the releases devices still run, so they can update in a fraction of the bytes.
  await makeFirmwarePatches(db, bundle);
  return { bundle, signer };
}

/** The latest servable bundle of a type (by version order, not import time), without its bytes. */
export async function latestFirmware(db: Queryable, deviceType: DeviceType): Promise<FirmwareBundleRow | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT b.device_type, b.version, b.sha256, b.size, b.imported_at, b.key_id FROM ${SERVABLE} WHERE b.device_type = $1`,
    [deviceType],
  );
  const latest = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
  return (
    latest && {
      deviceType: latest.device_type,
      version: latest.version,
      sha256: latest.sha256,
      size: latest.size,
      importedAt: latest.imported_at,
      keyId: latest.key_id,
    }
  );
}

export async function firmwareBundleBytes(
  db: Queryable,
  deviceType: DeviceType,
  version: string,
): Promise<Uint8Array | undefined> {
  const { rows } = await db.query<{ bundle: Uint8Array }>(
    'SELECT bundle FROM firmware_bundles WHERE device_type = $1 AND version = $2',
    [deviceType, version],
  );
  return rows[0]?.bundle;
}

/** Whether a bundle of this type and version is stored and servable (signed by a trusted, unretired key). */
export async function servableFirmwareExists(db: Queryable, deviceType: DeviceType, version: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM ${SERVABLE} WHERE b.device_type = $1 AND b.version = $2`, [
    deviceType,
    version,
  ]);
  return rows.length > 0;
}
