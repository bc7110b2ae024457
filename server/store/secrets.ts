import { createHmac, createPublicKey, randomBytes } from 'node:crypto';
import { createOrganizationKey, generateSigningKeyPair, keyIdOf, type OrganizationKeyPair } from '../../domain/files';
import { createSecretBox, type SecretBox } from '../auth/secret-box';
import type { Queryable } from '../db/database';
import type { SigningKey } from '../../domain/records';

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
}

/**
 * Stores `value` under `name` unless one is there already, and returns the stored one: several
 * instances starting together on one server end up with the same secret.
 */
async function getOrCreate(db: Queryable, name: string, make: () => string): Promise<string> {
  await db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, make()]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [name]);
  const row = rows[0];
  if (!row) throw new Error(`The service secret ${name} could not be stored.`);
  return row.value;
}

/**
 * The sealing key comes from PROVISIONER_SEALING_KEY (base64, 32 bytes) when the operator sets it,
 * so a copy of the database alone does not reveal sealed values; otherwise the service makes one
 * and keeps it in the database (the embedded default, where database and service share a disk).
 */
export async function loadServiceSecrets(db: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<ServiceSecrets> {
  let sealingKey: Uint8Array;
  const fromEnv = env.PROVISIONER_SEALING_KEY;
  if (fromEnv) {
    sealingKey = Buffer.from(fromEnv, 'base64');
    if (sealingKey.length !== 32) throw new Error('PROVISIONER_SEALING_KEY must be 32 bytes, base64-encoded.');
  } else {
    sealingKey = Buffer.from(await getOrCreate(db, 'sealing-key', () => randomBytes(32).toString('base64')), 'base64');
  }
  // The root key keeps the name it had when it signed every file itself.
  const rootPrivateKeyPem = await getOrCreate(db, 'config-file-signing-key', () => generateSigningKeyPair().privateKeyPem);
  const publicKeyPem = createPublicKey(rootPrivateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  const hashKey = createHmac('sha256', sealingKey).update('provisioner/config-file-content-hash/1').digest();
  return {
    box: createSecretBox(sealingKey),
    contentHash: (content) => createHmac('sha256', hashKey).update(content, 'utf8').digest('hex'),
    signingKey: { keyId: keyIdOf(publicKeyPem), algorithm: 'ES256', publicKeyPem },
    createOrganizationKey: (orgId) => createOrganizationKey(orgId, rootPrivateKeyPem),
  };
}
