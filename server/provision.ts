import type { ApiKeyRole, Region } from '../domain';
import type { Database } from './db/database';
import { issueApiKey } from './store/api-keys';
import { createOrganization } from './store/organizations';
import { loadServiceSecrets } from './store/secrets';

/** Issues a key (what `key create` does), for tests and the app's local workspace. */
export async function issueKey(
  db: Database,
  input: { orgId: string; name: string; role: ApiKeyRole },
): Promise<string> {
  const secrets = await loadServiceSecrets(db);
  const issued = await issueApiKey(db, secrets.box, input);
  if (issued === 'name-taken') throw new Error(`Organization ${input.orgId} already has a key named ${input.name}.`);
  return issued.key;
}

/** An organization (created unless it exists) and a key in it. */
export async function createOrganizationWithKey(
  db: Database,
  input: { orgId: string; region?: Region; name?: string; keyName: string; role: ApiKeyRole },
): Promise<string> {
  await createOrganization(db, { id: input.orgId, name: input.name ?? input.orgId, region: input.region ?? 'NA' });
  return issueKey(db, { orgId: input.orgId, name: input.keyName, role: input.role });
}
