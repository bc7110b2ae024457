import type { ReleaseKey, ReleaseKeyring } from '../../domain/files/firmware-release-key';
import type { Queryable } from '../db/database';

/**
 * The firmware release keys the service trusts: it imports only bundles whose manifest one of them
 * signed, and lists them for devices at GET /v1/firmware-release-keys. A key that a signed manifest
 * retired stays here, retired, and is refused from then on.
 */

export interface ReleaseKeyRow {
  keyId: string;
  name: string;
  /** Null for a key known only because a manifest retired it before anyone trusted it. */
  publicKeyPem: string | null;
  trustedAt: Date | null;
  retiredAt: Date | null;
  retiredBy: string | null;
}

/** A key's columns, named as ReleaseKeyRow names them. */
const KEY_COLUMNS =
  'key_id AS "keyId", name, public_key_pem AS "publicKeyPem", trusted_at AS "trustedAt", retired_at AS "retiredAt", retired_by AS "retiredBy"';

/** Every key the service has heard of, trusted ones first, oldest first. */
export async function listReleaseKeys(db: Queryable): Promise<ReleaseKeyRow[]> {
  const { rows } = await db.query<ReleaseKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM firmware_release_keys ORDER BY retired_at IS NOT NULL, trusted_at, key_id`,
  );
  return rows;
}

/** Trusted and not retired: the keys devices should hold. */
export function isActive(key: ReleaseKeyRow): key is ReleaseKeyRow & { publicKeyPem: string; trustedAt: Date } {
  return key.publicKeyPem !== null && key.trustedAt !== null && key.retiredAt === null;
}

/** What a bundle's signature is checked against. */
export async function releaseKeyring(db: Queryable): Promise<ReleaseKeyring> {
  const all = await listReleaseKeys(db);
  return {
    keys: all.filter(isActive).map((key) => ({ keyId: key.keyId, name: key.name, publicKeyPem: key.publicKeyPem })),
    retiredKeyIds: all.filter((key) => key.retiredAt !== null).map((key) => key.keyId),
  };
}

export type TrustOutcome =
  { kind: 'trusted' } | { kind: 'already-trusted'; name: string } | { kind: 'retired'; retiredBy: string | null };

/** Trusts a key; a retired key is never trusted again. */
export async function trustReleaseKey(db: Queryable, key: ReleaseKey): Promise<TrustOutcome> {
  const existing = (
    await db.query<ReleaseKeyRow>(`SELECT ${KEY_COLUMNS} FROM firmware_release_keys WHERE key_id = $1`, [key.keyId])
  ).rows[0];
  if (existing?.retiredAt) return { kind: 'retired', retiredBy: existing.retiredBy };
  if (existing) return { kind: 'already-trusted', name: existing.name };
  // Two processes trusting the same key at once end with one row either way.
  await db.query(
    'INSERT INTO firmware_release_keys (key_id, name, public_key_pem, trusted_at) VALUES ($1, $2, $3, now()) ON CONFLICT (key_id) DO NOTHING',
    [key.keyId, key.name, key.publicKeyPem],
  );
  return { kind: 'trusted' };
}

/** What a signed manifest's `retires` says: those keys are refused from now on, trusted or not. */
export async function retireReleaseKeys(db: Queryable, keyIds: readonly string[], retiredBy: string): Promise<void> {
  for (const keyId of keyIds) {
    await db.query(
      `INSERT INTO firmware_release_keys (key_id, name, retired_at, retired_by) VALUES ($1, $2, now(), $3)
       ON CONFLICT (key_id) DO UPDATE SET retired_at = COALESCE(firmware_release_keys.retired_at, now()),
         retired_by = COALESCE(firmware_release_keys.retired_by, EXCLUDED.retired_by)`,
      [keyId, `retired by ${retiredBy}`, retiredBy],
    );
  }
}
