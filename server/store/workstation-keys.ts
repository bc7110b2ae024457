import type { EnrolledWorkstationKey } from '../../domain/workstation-keys';
import type { Queryable } from '../db/database';

/**
 * The enrolled ledger keys of an organization's workstations (migration 9). One key per
 * workstation at a time; a key, once enrolled, belongs to that workstation for good (rows are
 * ended, never deleted), so an ended key can never be enrolled again, for it or another workstation.
 */

interface KeyRow {
  workstation: string;
  public_key: string;
  enrolled_by: string;
  enrolled_at: Date | string;
  ended_at: Date | string | null;
  ended_by: string | null;
  end_kind: 'rotated' | 'revoked' | null;
  end_reason: string | null;
  valid_through_seq: number | null;
}

const COLUMNS =
  'workstation, public_key, enrolled_by, enrolled_at, ended_at, ended_by, end_kind, end_reason, valid_through_seq';

function keyOf(row: KeyRow): EnrolledWorkstationKey {
  return {
    workstation: row.workstation,
    publicKey: row.public_key,
    enrolledBy: row.enrolled_by,
    enrolledAt: new Date(row.enrolled_at).toISOString(),
    status: row.end_kind ?? 'active',
    endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
    endedBy: row.ended_by,
    reason: row.end_reason,
    validThroughSeq: row.valid_through_seq === null ? null : Number(row.valid_through_seq),
  };
}

/** Every key the organization ever enrolled, oldest first. */
export async function listWorkstationKeys(db: Queryable, orgId: string): Promise<EnrolledWorkstationKey[]> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 ORDER BY enrolled_at, workstation, public_key`,
    [orgId],
  );
  return rows.map(keyOf);
}

/** The keys that sign for these workstations, and whichever workstation these public keys are enrolled for. */
export async function workstationKeysFor(
  db: Queryable,
  orgId: string,
  workstations: readonly string[],
  publicKeys: readonly string[],
): Promise<EnrolledWorkstationKey[]> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 AND (workstation = ANY($2::text[]) OR public_key = ANY($3::text[]))`,
    [orgId, [...workstations], [...publicKeys]],
  );
  return rows.map(keyOf);
}

export type EnrolOutcome =
  | { kind: 'enrolled'; key: EnrolledWorkstationKey }
  | { kind: 'already'; key: EnrolledWorkstationKey }
  /** The key is enrolled already, for another workstation or ended. */
  | { kind: 'key-taken'; key: EnrolledWorkstationKey }
  /** The workstation has another active key, and this is no rotation. */
  | { kind: 'workstation-has-key'; key: EnrolledWorkstationKey };

/** The last seq the organization's chain holds from this key (0 for none). */
async function lastReceivedSeq(db: Queryable, orgId: string, publicKey: string): Promise<number> {
  const { rows } = await db.query<{ seq: number | null }>(
    `SELECT max(seq) AS seq FROM ledger_entries WHERE org_id = $1 AND entry->>'signerKey' = $2`,
    [orgId, publicKey],
  );
  return Number(rows[0]?.seq ?? 0);
}

/**
 * Enrols `publicKey` for the workstation. The organization's row is locked, as for ledger appends,
 * so two enrolments of one workstation cannot both win. With `rotate`, the workstation's active key
 * ends ('rotated') first; the caller checks that an Admin asks.
 */
export async function enrolWorkstationKey(
  db: Queryable,
  orgId: string,
  input: { workstation: string; publicKey: string; enrolledBy: string; rotate: boolean },
): Promise<EnrolOutcome> {
  await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  const { rows: same } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 AND public_key = $2`,
    [orgId, input.publicKey],
  );
  if (same[0]) {
    const key = keyOf(same[0]);
    return key.workstation === input.workstation && key.status === 'active'
      ? { kind: 'already', key }
      : { kind: 'key-taken', key };
  }
  const { rows: active } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 AND workstation = $2 AND ended_at IS NULL`,
    [orgId, input.workstation],
  );
  if (active[0]) {
    if (!input.rotate) return { kind: 'workstation-has-key', key: keyOf(active[0]) };
    await endKey(db, orgId, active[0].public_key, {
      kind: 'rotated',
      by: input.enrolledBy,
      reason: `replaced by key …${input.publicKey.slice(-12)}`,
    });
  }
  const { rows } = await db.query<KeyRow>(
    `INSERT INTO workstation_keys (org_id, public_key, workstation, enrolled_by) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [orgId, input.publicKey, input.workstation, input.enrolledBy],
  );
  return { kind: 'enrolled', key: keyOf(rows[0]!) };
}

async function endKey(
  db: Queryable,
  orgId: string,
  publicKey: string,
  end: { kind: 'rotated' | 'revoked'; by: string; reason: string },
): Promise<void> {
  const through = await lastReceivedSeq(db, orgId, publicKey);
  await db.query(
    `UPDATE workstation_keys SET ended_at = now(), ended_by = $3, end_kind = $4, end_reason = $5, valid_through_seq = $6
     WHERE org_id = $1 AND public_key = $2 AND ended_at IS NULL`,
    [orgId, publicKey, end.by, end.kind, end.reason, through],
  );
}

/** Revokes the workstation's active key; undefined when it has none. */
export async function revokeWorkstationKey(
  db: Queryable,
  orgId: string,
  workstation: string,
  input: { by: string; reason: string },
): Promise<EnrolledWorkstationKey | undefined> {
  await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  const { rows: active } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 AND workstation = $2 AND ended_at IS NULL`,
    [orgId, workstation],
  );
  if (!active[0]) return undefined;
  await endKey(db, orgId, active[0].public_key, { kind: 'revoked', by: input.by, reason: input.reason });
  const { rows } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM workstation_keys WHERE org_id = $1 AND public_key = $2`,
    [orgId, active[0].public_key],
  );
  return keyOf(rows[0]!);
}

/** A one-time enrolment grant, issued with a work package (migration 11). */
export interface EnrolmentGrantRow {
  grantId: string;
  packageId: string;
  expiresAt: string;
  issuedBy: string;
  usedAt: string | null;
  usedKey: string | null;
}

export async function issueEnrolmentGrant(
  db: Queryable,
  orgId: string,
  input: { grantId: string; tokenSha256: string; packageId: string; expiresAt: string; issuedBy: string },
): Promise<void> {
  await db.query(
    `INSERT INTO workstation_enrolment_grants (grant_id, org_id, token_sha256, package_id, expires_at, issued_by) VALUES ($1, $2, $3, $4, $5, $6)`,
    [input.grantId, orgId, input.tokenSha256, input.packageId, input.expiresAt, input.issuedBy],
  );
}

/** The grant of this organization whose token hashes to `tokenSha256`, locked for the transaction. */
export async function findEnrolmentGrant(
  db: Queryable,
  orgId: string,
  grantId: string,
  tokenSha256: string,
): Promise<EnrolmentGrantRow | undefined> {
  const { rows } = await db.query<{
    grant_id: string;
    package_id: string;
    expires_at: Date | string;
    issued_by: string;
    used_at: Date | string | null;
    used_key: string | null;
  }>(
    `SELECT grant_id, package_id, expires_at, issued_by, used_at, used_key FROM workstation_enrolment_grants
     WHERE org_id = $1 AND grant_id = $2 AND token_sha256 = $3 FOR UPDATE`,
    [orgId, grantId, tokenSha256],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    grantId: row.grant_id,
    packageId: row.package_id,
    expiresAt: new Date(row.expires_at).toISOString(),
    issuedBy: row.issued_by,
    usedAt: row.used_at === null ? null : new Date(row.used_at).toISOString(),
    usedKey: row.used_key,
  };
}

export async function useEnrolmentGrant(
  db: Queryable,
  grantId: string,
  input: { usedBy: string; publicKey: string },
): Promise<void> {
  await db.query(
    'UPDATE workstation_enrolment_grants SET used_at = now(), used_by = $2, used_key = $3 WHERE grant_id = $1 AND used_at IS NULL',
    [grantId, input.usedBy, input.publicKey],
  );
}
