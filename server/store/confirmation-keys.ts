import type { Queryable } from '../db/database';

/**
 * The Idempotency-Key each confirm-apply request came with, and the confirmation it resolved to
 * (recorded then, or recorded before by a replay of the same payload). A request repeated with the
 * same key (the app's outbox sends its entry id) is answered from here, as the first time was.
 */
export interface KeyedConfirmation {
  serialNumber: string;
  kind: 'firmware' | 'configuration';
  payloadHash: string;
}

export async function findKeyedConfirmation(
  db: Queryable,
  orgId: string,
  key: string,
): Promise<KeyedConfirmation | undefined> {
  const { rows } = await db.query<{ serial_number: string; kind: KeyedConfirmation['kind']; payload_hash: string }>(
    `SELECT c.serial_number, c.kind, c.payload_hash FROM confirmation_requests r JOIN confirmations c ON c.id = r.confirmation_id
     WHERE r.org_id = $1 AND r.idempotency_key = $2`,
    [orgId, key],
  );
  const row = rows[0];
  return row && { serialNumber: row.serial_number, kind: row.kind, payloadHash: row.payload_hash };
}

/** Links `key` to the stored confirmation of this payload (call after recording it). */
export async function rememberConfirmationKey(
  db: Queryable,
  orgId: string,
  key: string,
  confirmation: KeyedConfirmation,
): Promise<void> {
  await db.query(
    `INSERT INTO confirmation_requests (org_id, idempotency_key, confirmation_id)
     SELECT $1, $2, id FROM confirmations WHERE serial_number = $3 AND kind = $4 AND payload_hash = $5
     ON CONFLICT DO NOTHING`,
    [orgId, key, confirmation.serialNumber, confirmation.kind, confirmation.payloadHash],
  );
}
