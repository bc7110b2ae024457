import { createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createOrganizationKey, generateSigningKeyPair, keyIdOf, type OrganizationKeyPair } from '../../domain/files';
import { createSecretBox, type SecretBox } from '../auth/secret-box';
import type { Queryable } from '../db/database';
import type { SigningKey } from '../../domain/records';
import {
  anySealedValue,
  hasContentHashKey,
  openContentHashKey,
  parseSealingKey,
  SealingKeyError,
  STORED_SEALING_KEY,
} from './sealing';

export interface ServiceSecrets {
  box: SecretBox;
  /**
   * Keyed hash (HMAC-SHA256) of a device's file content. Keyed because the content holds Wifi
   * passwords: a plain hash stored in the database would let a reader test password guesses.
   */
  contentHash(canonicalContent: string): string;
  /**
   * The public half of the service's root key: devices are made trusting it (GET
   * /v1/config-file-signing-key). It signs no file itself: it certifies organization keys.
   */
  signingKey: SigningKey;
  /** A new configuration-file signing key for an organization, certified by the root key. */
  createOrganizationKey(orgId: string): OrganizationKeyPair;
  /** Whether the sealing key was given (environment or file) or is the one the database keeps. */
  sealedBy: 'given' | 'database';
}

/**
 * Stores `value` under `name` unless one is there already, and returns the stored one: several
 * instances starting together on one server end up with the same secret.
 */
async function getOrCreate(db: Queryable, name: string, make: () => string): Promise<string> {
  await db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    make(),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [name]);
  const row = rows[0];
  if (!row) throw new Error(`The service secret ${name} could not be stored.`);
  return row.value;
}

/**
 * Where the sealing key comes from: PROVISIONER_SEALING_KEY (base64 of 32 bytes), or the file
 * PROVISIONER_SEALING_KEY_FILE names (the same, for a systemd credential or a 0600 file, so the key
 * is in no process's environment listing), or else the database keeps one itself (the embedded
 * default, where database and service share a disk).
 */
export function sealingKeyFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): { key: Uint8Array; from: string } | undefined {
  if (env.PROVISIONER_SEALING_KEY)
    return {
      key: parseSealingKey(env.PROVISIONER_SEALING_KEY, 'PROVISIONER_SEALING_KEY'),
      from: 'PROVISIONER_SEALING_KEY',
    };
  const file = env.PROVISIONER_SEALING_KEY_FILE;
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SealingKeyError(`PROVISIONER_SEALING_KEY_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
  return { key: parseSealingKey(text, `The sealing key in ${file}`), from: file };
}

/**
 * The service's secrets. The sealing key is checked before anything uses it: a key that does not
 * open the database's sealed values is refused here, in one line (SealingKeyError), never as a 500
 * on the first request that opens one.
 */
export async function loadServiceSecrets(db: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<ServiceSecrets> {
  let sealingKey: Uint8Array;
  let wrongKey: string;
  const given = sealingKeyFromEnvironment(env);
  const kept = await storedSealingKey(db);
  if (given) {
    sealingKey = given.key;
    wrongKey = kept
      ? `The sealing key from ${given.from} does not open this database's secrets: they are sealed with the key the database keeps itself (it ran without one). Move them to the new key first: stop the service, run \`server secrets reseal\` with the new key in PROVISIONER_NEW_SEALING_KEY and without ${given.from}, then start with it (docs/operations.md).`
      : `The sealing key from ${given.from} does not open this database's secrets: it is not the key they were sealed with. Start with the key the service ran with before (docs/operations.md, "Secrets at rest").`;
  } else {
    if (kept === undefined && (await sealedUnderGivenKey(db))) {
      throw new SealingKeyError(
        'This database\'s secrets are sealed with a key given from outside, and none is given: set PROVISIONER_SEALING_KEY or PROVISIONER_SEALING_KEY_FILE to it (docs/operations.md, "Secrets at rest").',
      );
    }
    sealingKey = Buffer.from(
      await getOrCreate(db, STORED_SEALING_KEY, () => randomBytes(32).toString('base64')),
      'base64',
    );
    wrongKey =
      'The sealing key this database keeps does not open its secrets: the database was changed by hand or restored in parts. Restore a whole backup (docs/operations.md).';
  }
  const box = createSecretBox(sealingKey);
  const hashKey = await openContentHashKey(db, box, sealingKey, wrongKey);
  // The root key keeps the name it had when it signed every file itself.
  const rootPrivateKeyPem = await getOrCreate(
    db,
    'config-file-signing-key',
    () => generateSigningKeyPair().privateKeyPem,
  );
  const publicKeyPem = createPublicKey(rootPrivateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  return {
    box,
    contentHash: (content) => createHmac('sha256', hashKey).update(content, 'utf8').digest('hex'),
    signingKey: { keyId: keyIdOf(publicKeyPem), algorithm: 'ES256', publicKeyPem },
    createOrganizationKey: (orgId) => createOrganizationKey(orgId, rootPrivateKeyPem),
    sealedBy: given ? 'given' : 'database',
  };
}

async function storedSealingKey(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [
    STORED_SEALING_KEY,
  ]);
  return rows[0]?.value;
}

/** Called when the database keeps no key: whether it holds sealed secrets all the same (they were sealed with a given key). */
async function sealedUnderGivenKey(db: Queryable): Promise<boolean> {
  return (await hasContentHashKey(db)) || (await anySealedValue(db)) !== undefined;
}
