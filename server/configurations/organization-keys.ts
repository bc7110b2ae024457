import { createConfigFileSigner, type ConfigFileSigner } from '../../domain/files';
import type { Queryable } from '../db/database';
import type { ServiceSecrets } from '../store/secrets';

/** An organization's configuration-file signing key: what signs its files, and what the public operation shows. */
export interface OrganizationSigningKey {
  orgId: string;
  keyId: string;
  publicKeyPem: string;
  /** The root key's certificate for `publicKeyPem`. */
  certificate: Uint8Array;
  /** The root key that certified it. */
  rootKeyId: string;
}

interface KeyRow {
  key_id: string;
  public_key_pem: string;
  private_key_sealed: Uint8Array;
  certificate: Uint8Array;
}

async function storedKey(db: Queryable, orgId: string): Promise<KeyRow | undefined> {
  const { rows } = await db.query<KeyRow>(
    'SELECT key_id, public_key_pem, private_key_sealed, certificate FROM organization_signing_keys WHERE org_id = $1',
    [orgId],
  );
  return rows[0];
}

/**
 * The organization's key, made on first use: for an organization created since, and for one from
 * before keys were per organization alike. Made with ON CONFLICT DO NOTHING and read back, so that
 * concurrent first uses (other transactions, other instances) all end up with the one stored.
 */
async function keyRow(db: Queryable, secrets: ServiceSecrets, orgId: string): Promise<KeyRow> {
  const existing = await storedKey(db, orgId);
  if (existing) return existing;
  const made = secrets.createOrganizationKey(orgId);
  await db.query(
    `INSERT INTO organization_signing_keys (org_id, key_id, public_key_pem, private_key_sealed, certificate) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id) DO NOTHING`,
    [orgId, made.keyId, made.publicKeyPem, secrets.box.seal(made.privateKeyPem), made.certificate],
  );
  const stored = await storedKey(db, orgId);
  if (!stored) throw new Error(`The configuration-file signing key of organization ${orgId} could not be stored.`);
  return stored;
}

export async function organizationSigningKey(
  db: Queryable,
  secrets: ServiceSecrets,
  orgId: string,
): Promise<OrganizationSigningKey> {
  const row = await keyRow(db, secrets, orgId);
  return {
    orgId,
    keyId: row.key_id,
    publicKeyPem: row.public_key_pem,
    certificate: new Uint8Array(row.certificate),
    rootKeyId: secrets.signingKey.keyId,
  };
}

/**
 * Signers made from a stored key, by organization. Unsealing the key, parsing it and checking its
 * certificate cost more than the rest of a download; a key row is never changed once stored, but
 * the row is still read for every file and the signer made again if it differs (a database
 * restored under a running instance), so a file is never signed with a key the database no longer
 * holds. The process holds the sealing key already, so keeping the opened key adds no exposure.
 */
const signers = new Map<string, { sealed: Uint8Array; certificate: Uint8Array; signer: ConfigFileSigner }>();

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** The signer of the organization's files (its key is made on first use). */
export async function organizationSigner(
  db: Queryable,
  secrets: ServiceSecrets,
  orgId: string,
): Promise<ConfigFileSigner> {
  const row = await keyRow(db, secrets, orgId);
  return signerOfStoredKey(secrets, orgId, { privateKeySealed: row.private_key_sealed, certificate: row.certificate });
}

/** The signer of a key row read just now. */
export function signerOfStoredKey(
  secrets: ServiceSecrets,
  orgId: string,
  key: { privateKeySealed: Uint8Array; certificate: Uint8Array },
): ConfigFileSigner {
  const sealed = new Uint8Array(key.privateKeySealed);
  const certificate = new Uint8Array(key.certificate);
  const made = signers.get(orgId);
  if (made && sameBytes(made.sealed, sealed) && sameBytes(made.certificate, certificate)) return made.signer;
  const signer = createConfigFileSigner(secrets.box.open(sealed), certificate);
  signers.set(orgId, { sealed, certificate, signer });
  return signer;
}
