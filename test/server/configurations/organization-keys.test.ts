import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOrganizationKey, generateSigningKeyPair } from '../../../domain/files';
import { createSecretBox } from '../../../server/auth/secret-box';
import { organizationSigner } from '../../../server/configurations/organization-keys';
import type { Queryable, QueryResult } from '../../../server/db/database';
import type { ServiceSecrets } from '../../../server/store/secrets';

/** The signer of an organization's files is made once per stored key, and again when the stored key is another. */
describe('organization signer', () => {
  const root = generateSigningKeyPair();
  const box = createSecretBox(randomBytes(32));
  const secrets = {
    box,
    createOrganizationKey: (orgId: string) => createOrganizationKey(orgId, root.privateKeyPem),
  } as unknown as ServiceSecrets;
  const storedRow = (orgId: string) => {
    const made = secrets.createOrganizationKey(orgId);
    return {
      key_id: made.keyId,
      public_key_pem: made.publicKeyPem,
      private_key_sealed: box.seal(made.privateKeyPem),
      certificate: made.certificate,
    };
  };
  /** The organization_signing_keys table, one row, as a database would answer. */
  const table = (row: ReturnType<typeof storedRow>) => {
    const db = {
      row,
      reads: 0,
      async query<Row>(): Promise<QueryResult<Row>> {
        db.reads++;
        return { rows: [db.row as Row], rowCount: 1 };
      },
    };
    return db as typeof db & Queryable;
  };

  it('reads the stored key for every file, and makes its signer once', async () => {
    const db = table(storedRow('org-signer-a'));
    const first = await organizationSigner(db, secrets, 'org-signer-a');
    const second = await organizationSigner(db, secrets, 'org-signer-a');
    expect(second).toBe(first);
    expect(first.keyId).toBe(db.row.key_id);
    expect(db.reads).toBe(2);
  });

  it('signs with the key the database holds now, should it be another (a database restored under the instance)', async () => {
    const db = table(storedRow('org-signer-b'));
    const before = await organizationSigner(db, secrets, 'org-signer-b');
    db.row = storedRow('org-signer-b');
    const after = await organizationSigner(db, secrets, 'org-signer-b');
    expect(after.keyId).toBe(db.row.key_id);
    expect(after.keyId).not.toBe(before.keyId);
  });
});
