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
  const { rows } = await db.query<KeyRow>('SELECT key_id, public_key_pem, private_key_sealed, certificate FROM organization_signing_keys WHERE org_id = $1', [orgId]);
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

export async function organizationSigningKey(db: Queryable, secrets: ServiceSecrets, orgId: string): Promise<OrganizationSigningKey> {
  const row = await keyRow(db, secrets, orgId);
  return { orgId, keyId: row.key_id, publicKeyPem: row.public_key_pem, certificate: new Uint8Array(row.certificate), rootKeyId: secrets.signingKey.keyId };
}

/** The signer of the organization's files; its private key is unsealed for this one use. */
export async function organizationSigner(db: Queryable, secrets: ServiceSecrets, orgId: string): Promise<ConfigFileSigner> {
  const row = await keyRow(db, secrets, orgId);
  return createConfigFileSigner(secrets.box.open(new Uint8Array(row.private_key_sealed)), new Uint8Array(row.certificate));
}
