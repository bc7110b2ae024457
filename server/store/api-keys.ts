import { randomUUID } from 'node:crypto';
import { apiKeySuffix, generateApiKey, hashApiKey } from '../auth/api-key-value';
import type { ApiKeyRole } from '../../domain/enums';
import type { SecretBox } from '../auth/secret-box';
import type { Queryable } from '../db/database';
import { likePattern } from '../http/query';

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  role: ApiKeyRole;
  keySuffix: string;
  keySealed: Uint8Array;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Set on a key a rotation replaced: it is refused from this time on. */
  expiresAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  org_id: string;
  name: string;
  role: ApiKeyRole;
  key_suffix: string;
  key_sealed: Uint8Array;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
}

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  role: row.role,
  keySuffix: row.key_suffix,
  keySealed: row.key_sealed,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
});

/** Key names are path segments (PUT .../apiKeys/{keyName}/role). */
export const API_KEY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Issues a key; returns the key value, which is shown this once (and later only sealed). */
export async function issueApiKey(
  db: Queryable,
  box: SecretBox,
  input: { orgId: string; name: string; role: ApiKeyRole },
): Promise<{ key: string; record: ApiKeyRecord } | 'name-taken'> {
  const key = generateApiKey();
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, org_id, name, role, key_hash, key_suffix, key_sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (org_id, name) WHERE expires_at IS NULL DO NOTHING
     RETURNING *`,
    [randomUUID(), input.orgId, input.name, input.role, hashApiKey(key), apiKeySuffix(key), box.seal(key)],
  );
  const row = rows[0];
  return row ? { key, record: toRecord(row) } : 'name-taken';
}

export async function findApiKeyByValue(db: Queryable, key: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [hashApiKey(key)]);
  return rows[0] && toRecord(rows[0]);
}

/** The key of that name that does not end (a rotation's predecessors are not it). */
export async function findApiKeyByName(db: Queryable, orgId: string, name: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    'SELECT * FROM api_keys WHERE org_id = $1 AND name = $2 AND expires_at IS NULL',
    [orgId, name],
  );
  return rows[0] && toRecord(rows[0]);
}

export async function listApiKeys(
  db: Queryable,
  orgId: string,
  options: { limit: number; offset: number; name?: string },
): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT * FROM api_keys
     WHERE org_id = $1 AND ($2::text IS NULL OR name ILIKE $2)
     ORDER BY name, expires_at DESC NULLS FIRST, id LIMIT $3 OFFSET $4`,
    [orgId, options.name === undefined ? null : likePattern(options.name), options.limit, options.offset],
  );
  return rows.map(toRecord);
}

/** Sets the role of the key and of the keys a rotation of it left working a while: a name has one role. */
export async function setApiKeyRole(db: Queryable, id: string, role: ApiKeyRole): Promise<void> {
  await db.query(
    `UPDATE api_keys AS k SET role = $2 FROM api_keys AS named
     WHERE named.id = $1 AND k.org_id = named.org_id AND k.name = named.name`,
    [id, role],
  );
}

/**
 * Revokes every key of that name (the current one and any a rotation left working): each is
 * refused on its next request, on every instance (the commit is heard as a change to api_keys).
 * Returns the keys revoked, none when the name is unknown.
 */
export async function revokeApiKeys(db: Queryable, orgId: string, name: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>('DELETE FROM api_keys WHERE org_id = $1 AND name = $2 RETURNING *', [
    orgId,
    name,
  ]);
  return rows.map(toRecord);
}

/** The longest an old key may keep working after a rotation: long enough to roll a fleet of clients over. */
export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 24 * 3600;

/**
 * Rotates a key: a new key under the same name and role; the old one keeps working until
 * `oldValidUntil` (now or later), then is refused. Run it in a transaction.
 */
export async function rotateApiKey(
  db: Queryable,
  box: SecretBox,
  input: { orgId: string; name: string; oldValidUntil: Date },
): Promise<{ key: string; record: ApiKeyRecord; replaced: ApiKeyRecord } | 'not-found'> {
  const { rows } = await db.query<ApiKeyRow>(
    'UPDATE api_keys SET expires_at = $3 WHERE org_id = $1 AND name = $2 AND expires_at IS NULL RETURNING *',
    [input.orgId, input.name, input.oldValidUntil],
  );
  const old = rows[0];
  if (!old) return 'not-found';
  const issued = await issueApiKey(db, box, { orgId: input.orgId, name: input.name, role: old.role });
  // The name's only key that does not end was just given an end: the name is free.
  if (issued === 'name-taken') throw new Error(`Key "${input.name}" was issued again during its rotation.`);
  return { ...issued, replaced: toRecord(old) };
}

/** Whether a key is past the end a rotation gave it. */
export function apiKeyExpired(record: ApiKeyRecord, now: Date): boolean {
  return record.expiresAt !== null && record.expiresAt.getTime() <= now.getTime();
}

export async function markApiKeyUsed(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
}
