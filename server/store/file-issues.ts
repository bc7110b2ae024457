import type { Queryable } from '../db/database';
import { usableSequence } from './config-sequences';

/**
 * What a configuration-file download needs from the database beside the content, in one
 * statement: the device's registration and configuration, the content hash stored with its last
 * change and the syncId issued for that content, the organization's signing key, and a new
 * sequence (only when the device is registered here: a sequence taken and then not used is a gap,
 * which devices allow, never a repeat).
 */
export interface FileIssue {
  configurationId: string | null;
  currentSettingsHash: string | null;
  /** The syncId issued before for `currentSettingsHash`, if any. */
  syncId: string | null;
  sequence: number;
  /** The organization's stored signing key, if it has one yet. */
  key: { keyId: string; privateKeySealed: Uint8Array; certificate: Uint8Array } | null;
}

interface Row {
  configuration_id: string | null;
  current_settings_hash: string | null;
  sync_id: string | null;
  sequence: string | number;
  key_id: string | null;
  private_key_sealed: Uint8Array | null;
  certificate: Uint8Array | null;
}

export async function fileIssue(db: Queryable, orgId: string, serialNumber: string): Promise<FileIssue | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT cd.configuration_id, cd.current_settings_hash, s.sync_id, k.key_id, k.private_key_sealed, k.certificate,
       nextval('config_file_sequence') AS sequence
     FROM devices d
     LEFT JOIN configuration_devices cd ON cd.serial_number = d.serial_number
     LEFT JOIN sync_ids s ON s.serial_number = d.serial_number AND s.org_id = d.org_id AND s.settings_hash = cd.current_settings_hash
     LEFT JOIN organization_signing_keys k ON k.org_id = d.org_id
     WHERE d.serial_number = $1 AND d.org_id = $2`,
    [serialNumber, orgId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    configurationId: row.configuration_id,
    currentSettingsHash: row.current_settings_hash,
    syncId: row.sync_id,
    sequence: usableSequence(row.sequence),
    key:
      row.key_id !== null && row.private_key_sealed !== null && row.certificate !== null
        ? {
            keyId: row.key_id,
            privateKeySealed: new Uint8Array(row.private_key_sealed),
            certificate: new Uint8Array(row.certificate),
          }
        : null,
  };
}
