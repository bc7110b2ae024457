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
     ON CONFLICT (org_id, name) DO NOTHING
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

export async function findApiKeyByName(db: Queryable, orgId: string, name: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE org_id = $1 AND name = $2', [orgId, name]);
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
     ORDER BY name, id LIMIT $3 OFFSET $4`,
    [orgId, options.name === undefined ? null : likePattern(options.name), options.limit, options.offset],
  );
  return rows.map(toRecord);
}

export async function setApiKeyRole(db: Queryable, id: string, role: ApiKeyRole): Promise<void> {
  await db.query('UPDATE api_keys SET role = $2 WHERE id = $1', [id, role]);
}

export async function markApiKeyUsed(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
}
