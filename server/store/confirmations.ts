import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import { canonicalJson } from './json';

/**
 * Whether the device's recorded state already is what an observation reports (the firmware it
 * runs, the syncId it holds): an observation of a state the service knows adds nothing, whichever
 * workstation saw it and when, so it is not recorded again.
 */
export async function stateAlreadyRecorded(
  db: Queryable,
  input: { orgId: string; serialNumber: string } & (
    { kind: 'firmware'; firmwareVersion: string } | { kind: 'configuration'; syncId: string }
  ),
): Promise<boolean> {
  const { rows } = await db.query<{ firmware_version: string | null; deployed_sync_id: string | null }>(
    'SELECT firmware_version, deployed_sync_id FROM devices WHERE serial_number = $1 AND org_id = $2',
    [input.serialNumber, input.orgId],
  );
  const row = rows[0];
  if (!row) return false;
  return input.kind === 'firmware'
    ? row.firmware_version === input.firmwareVersion
    : row.deployed_sync_id?.toLowerCase() === input.syncId.toLowerCase();
}

/** What tells one confirmation from another of the same device and kind: its canonical payload, hashed. */
export function confirmationHash(payload: object): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

/**
 * Stores a confirmation as received, once. Returns false when the same payload was confirmed for
 * this device before: clients replay confirmations from an outbox, and a replay must change nothing.
 */
export async function recordConfirmationOnce(
  db: Queryable,
  input: { orgId: string; serialNumber: string; kind: 'firmware' | 'configuration'; payload: object; outcome: string },
): Promise<boolean> {
  const text = canonicalJson(input.payload);
  const hash = confirmationHash(input.payload);
  const { rows } = await db.query(
    `INSERT INTO confirmations (id, serial_number, org_id, kind, payload_hash, payload, outcome) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (serial_number, kind, payload_hash) DO NOTHING RETURNING id`,
    [randomUUID(), input.serialNumber, input.orgId, input.kind, hash, text, input.outcome],
  );
  return rows.length > 0;
}
