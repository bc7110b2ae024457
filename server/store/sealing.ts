import { createHmac } from 'node:crypto';
import { createSecretBox, type SecretBox } from '../auth/secret-box';
import type { Queryable } from '../db/database';

/**
 * Which key seals the database's secrets, checked at start, and moving them to another key.
 *
 * Every sealed value is one of these columns. A new sealed column must be named here, or
 * `secrets reseal` leaves it under the old key (test/server/sealing.test.ts compares this list
 * with the schema's bytea columns named *_sealed).
 */
export const SEALED_COLUMNS = [
  { table: 'api_keys', id: 'id', column: 'key_sealed' },
  { table: 'configuration_devices', id: 'serial_number', column: 'wifi_password_sealed' },
  { table: 'ip_network_templates', id: 'id', column: 'password_sealed' },
  { table: 'organization_signing_keys', id: 'org_id', column: 'private_key_sealed' },
] as const;

/** service_secrets names: the key a database without PROVISIONER_SEALING_KEY keeps, and the sealed content-hash key. */
export const STORED_SEALING_KEY = 'sealing-key';
const CONTENT_HASH_KEY = 'content-hash-key-sealed';

/** The sealing key this process was given does not open the database's secrets. */
export class SealingKeyError extends Error {}

/** The key that hashes device file contents (keyed, since they hold Wifi passwords), as first made from a sealing key. */
function contentHashKeyFrom(sealingKey: Uint8Array): Buffer {
  return createHmac('sha256', sealingKey).update('provisioner/config-file-content-hash/1').digest();
}

async function secretNamed(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [name]);
  return rows[0]?.value;
}

/** Any one sealed value of the database, to try a key on; none in a new database. */
export async function anySealedValue(db: Queryable): Promise<Uint8Array | undefined> {
  for (const { table, column } of SEALED_COLUMNS) {
    const { rows } = await db.query<{ sealed: Uint8Array }>(
      `SELECT ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL LIMIT 1`,
    );
    if (rows[0]) return rows[0].sealed;
  }
  return undefined;
}

export async function hasContentHashKey(db: Queryable): Promise<boolean> {
  return (await secretNamed(db, CONTENT_HASH_KEY)) !== undefined;
}

function opens(box: SecretBox, sealed: Uint8Array): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * The content-hash key, kept sealed in service_secrets so that it survives a reseal (the hashes
 * stored with every issued file stay valid) and so that opening it proves the sealing key right at
 * start. A database from before it was kept: made from the sealing key as it always was, once a
 * sealed value shows that key is the right one.
 */
export async function openContentHashKey(
  db: Queryable,
  box: SecretBox,
  sealingKey: Uint8Array,
  wrongKey: string,
): Promise<Buffer> {
  let stored = await secretNamed(db, CONTENT_HASH_KEY);
  if (stored === undefined) {
    const sample = await anySealedValue(db);
    if (sample && !opens(box, sample)) throw new SealingKeyError(wrongKey);
    const made = Buffer.from(box.seal(contentHashKeyFrom(sealingKey).toString('base64'))).toString('base64');
    await db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      CONTENT_HASH_KEY,
      made,
    ]);
    stored = (await secretNamed(db, CONTENT_HASH_KEY))!;
  }
  try {
    return Buffer.from(box.open(Buffer.from(stored, 'base64')), 'base64');
  } catch {
    throw new SealingKeyError(wrongKey);
  }
}

/**
 * Opens every sealed value with `from` and seals it again with `to`, the content-hash key with
 * them; run in one transaction, so the database is under one key or the other, never both.
 * Returns how many values were moved.
 */
export async function resealAll(db: Queryable, from: SecretBox, to: Uint8Array): Promise<number> {
  const box = createSecretBox(to);
  let moved = 0;
  for (const { table, id, column } of SEALED_COLUMNS) {
    const { rows } = await db.query<{ id: string; sealed: Uint8Array }>(
      `SELECT ${id} AS id, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL`,
    );
    for (const row of rows) {
      let plain: string;
      try {
        plain = from.open(row.sealed);
      } catch {
        throw new SealingKeyError(
          `A value in ${table}.${column} does not open with the current sealing key: nothing was changed.`,
        );
      }
      await db.query(`UPDATE ${table} SET ${column} = $2 WHERE ${id} = $1`, [row.id, box.seal(plain)]);
      moved += 1;
    }
  }
  const hashKey = await secretNamed(db, CONTENT_HASH_KEY);
  if (hashKey !== undefined) {
    const plain = from.open(Buffer.from(hashKey, 'base64'));
    await db.query('UPDATE service_secrets SET value = $2 WHERE name = $1', [
      CONTENT_HASH_KEY,
      Buffer.from(box.seal(plain)).toString('base64'),
    ]);
    moved += 1;
  }
  // The new key lives outside the database from now on: the copy kept in it would undo the point.
  await db.query('DELETE FROM service_secrets WHERE name = $1', [STORED_SEALING_KEY]);
  return moved;
}

/** PROVISIONER_SEALING_KEY and its like: base64 of 32 bytes, or a clear error naming the variable. */
export function parseSealingKey(value: string, what: string): Uint8Array {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32)
    throw new SealingKeyError(`${what} must be 32 bytes, base64-encoded (make one with: openssl rand -base64 32).`);
  return key;
}
