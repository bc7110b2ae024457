import { GENESIS_HASH, orgChainHash, type LedgerEntry } from '../../domain/ledger';
import type { Queryable } from '../db/database';

/**
 * The organization's ledger chain: every ledger entry a workstation of the organization sent, in
 * the order the service received them, each linked to the one before (orgHash = sha256(orgPrevHash
 * ‖ entryHash)). Entries of all workstations interleave; each also still links to its own
 * workstation's previous entry, which only that workstation's ledger can show.
 */

export interface StoredLedgerEntry {
  orgSeq: number;
  orgPrevHash: string;
  orgHash: string;
  receivedAt: string;
  entry: LedgerEntry;
}

/**
 * Appends the entries not yet received (by hash) to the organization's chain, in the order given.
 * The organization's row is locked for the transaction, so two instances never give out one orgSeq.
 */
export async function appendLedgerEntries(
  db: Queryable,
  orgId: string,
  entries: readonly LedgerEntry[],
): Promise<{ received: number; known: number }> {
  await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  const { rows: heads } = await db.query<{ org_seq: string; org_hash: string }>(
    'SELECT org_seq, org_hash FROM ledger_entries WHERE org_id = $1 ORDER BY org_seq DESC LIMIT 1',
    [orgId],
  );
  let orgSeq = heads[0] ? Number(heads[0].org_seq) : 0;
  let orgPrevHash = heads[0]?.org_hash ?? GENESIS_HASH;
  let received = 0;
  let known = 0;
  for (const entry of entries) {
    const { rows: existing } = await db.query('SELECT 1 FROM ledger_entries WHERE org_id = $1 AND entry_hash = $2', [
      orgId,
      entry.hash,
    ]);
    if (existing.length > 0) {
      known += 1;
      continue;
    }
    orgSeq += 1;
    const orgHash = orgChainHash(orgPrevHash, entry.hash);
    await db.query(
      `INSERT INTO ledger_entries (org_id, org_seq, entry_hash, org_prev_hash, org_hash, workstation, seq, serial_number, action, entry)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
      [
        orgId,
        orgSeq,
        entry.hash,
        orgPrevHash,
        orgHash,
        entry.workstation,
        entry.seq,
        entry.serialNumber,
        entry.action,
        JSON.stringify(entry),
      ],
    );
    orgPrevHash = orgHash;
    received += 1;
  }
  return { received, known };
}

/** The chain from `afterOrgSeq` on, oldest first; only one workstation's entries when it is given. */
export async function listLedgerEntries(
  db: Queryable,
  orgId: string,
  query: { afterOrgSeq: number; limit: number; workstation?: string },
): Promise<StoredLedgerEntry[]> {
  const { rows } = await db.query<{
    org_seq: string;
    org_prev_hash: string;
    org_hash: string;
    received_at: Date | string;
    entry: LedgerEntry | string;
  }>(
    `SELECT org_seq, org_prev_hash, org_hash, received_at, entry FROM ledger_entries
     WHERE org_id = $1 AND org_seq > $2 AND ($3::text IS NULL OR workstation = $3)
     ORDER BY org_seq LIMIT $4`,
    [orgId, query.afterOrgSeq, query.workstation ?? null, query.limit],
  );
  return rows.map((row) => ({
    orgSeq: Number(row.org_seq),
    orgPrevHash: row.org_prev_hash,
    orgHash: row.org_hash,
    receivedAt: new Date(row.received_at).toISOString(),
    entry: typeof row.entry === 'string' ? (JSON.parse(row.entry) as LedgerEntry) : row.entry,
  }));
}

/** Which of these entry hashes the organization's chain holds already. */
export async function knownLedgerHashes(db: Queryable, orgId: string, hashes: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ entry_hash: string }>(
    'SELECT entry_hash FROM ledger_entries WHERE org_id = $1 AND entry_hash = ANY($2::text[])',
    [orgId, [...hashes]],
  );
  return new Set(rows.map((row) => row.entry_hash));
}
