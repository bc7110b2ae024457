import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * The syncId of a device's file content: the one issued before for the same content, or a new
 * one. So a download repeated without a change gives the same syncId, and any change a new one.
 */
export async function syncIdFor(
  db: Queryable,
  input: {
    serialNumber: string;
    orgId: string;
    settingsHash: string;
    configurationId: string | null;
    settings: IssuedSettings;
  },
): Promise<string> {
  // Most downloads are of content issued before: one statement finds its syncId.
  const issued = await issuedSyncId(db, input.serialNumber, input.settingsHash);
  if (issued) return issued;
  // Two transactions issuing the same content at once: the second one's insert conflicts with a
  // row its snapshot cannot see, which fails it to be retried (server/db/postgres.ts); the retry finds the row.
  await db.query(
    `INSERT INTO sync_ids (sync_id, serial_number, org_id, settings_hash, configuration_id, settings) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (serial_number, settings_hash) DO NOTHING`,
    [
      randomUUID(),
      input.serialNumber,
      input.orgId,
      input.settingsHash,
      input.configurationId,
      JSON.stringify(input.settings),
    ],
  );
  const stored = await issuedSyncId(db, input.serialNumber, input.settingsHash);
  if (!stored) throw new Error(`No syncId could be issued for ${input.serialNumber}.`);
  return stored;
}

async function issuedSyncId(db: Queryable, serialNumber: string, settingsHash: string): Promise<string | undefined> {
  const { rows } = await db.query<{ sync_id: string }>(
    'SELECT sync_id FROM sync_ids WHERE serial_number = $1 AND settings_hash = $2',
    [serialNumber, settingsHash],
  );
  return rows[0]?.sync_id;
}

/** Whether the service issued this syncId for this device of this organization. */
export async function findIssuedSyncId(
  db: Queryable,
  orgId: string,
  serialNumber: string,
  syncId: string,
): Promise<{ settingsHash: string } | undefined> {
  const { rows } = await db.query<{ settings_hash: string }>(
    'SELECT settings_hash FROM sync_ids WHERE sync_id = $1 AND serial_number = $2 AND org_id = $3',
    [syncId, serialNumber, orgId],
  );
  return rows[0] && { settingsHash: rows[0].settings_hash };
}

/**
 * What a syncId's file sets, as kept with it: the file's settings with the Wifi password replaced by
 * its keyed hash (a change still shows as a change; the password itself is never stored twice nor
 * served).
 */
export type IssuedSettings = Readonly<Record<string, unknown>>;

export interface IssuedSyncId {
  syncId: string;
  serialNumber: string;
  configurationId: string | null;
  issuedAt: string;
  /** Null for a syncId issued before the service kept settings. */
  settings: IssuedSettings | null;
}

/** A syncId the service issued for this device of this organization, with what its file sets. */
export async function issuedSyncIdRecord(
  db: Queryable,
  orgId: string,
  serialNumber: string,
  syncId: string,
): Promise<IssuedSyncId | undefined> {
  const { rows } = await db.query<{
    configuration_id: string | null;
    issued_at: Date | string;
    settings: IssuedSettings | string | null;
  }>(
    'SELECT configuration_id, issued_at, settings FROM sync_ids WHERE sync_id = $1 AND serial_number = $2 AND org_id = $3',
    [syncId, serialNumber, orgId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const settings = typeof row.settings === 'string' ? (JSON.parse(row.settings) as IssuedSettings) : row.settings;
  return {
    syncId,
    serialNumber,
    configurationId: row.configuration_id,
    issuedAt: new Date(row.issued_at).toISOString(),
    settings,
  };
}
