import { z } from 'zod';
import {
  describeBrokenLink,
  ledgerAppendResultSchema,
  ledgerEntryFault,
  ledgerEntrySchema,
  orgLedgerPageSchema,
} from '../../domain/ledger';
import { badRequest, forbidden } from '../http/errors';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { orgParams } from '../http/schemas';
import { workstationKeyFault } from '../../domain/workstation-keys';
import { appendLedgerEntries, knownLedgerHashes, listLedgerEntries } from '../store/ledger';
import { workstationKeysFor } from '../store/workstation-keys';

/** Entries one request may carry: a workstation sends what it has not sent yet, in batches. */
export const MAX_LEDGER_BATCH = 500;
const MAX_LEDGER_PAGE = 1000;

export const ledgerOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'ledger.append',
    method: 'POST',
    path: '/organizations/:orgId/ledger/entries',
    tag: 'Ledger',
    summary: "Adds a workstation's signed ledger entries to the organization's chain (ours).",
    description:
      'Each entry must hold: its hash matches its content and its signature its hash, and the key that signed it is the key enrolled for the workstation it names (POST workstations/keys), not ended by a rotation or revocation. Entries the service already has (by hash) are skipped, so a workstation may send its whole ledger again. Entries of another organization are refused. One entry refused refuses the request: nothing of it is added.',
    params: orgParams,
    body: z.object({ entries: z.array(ledgerEntrySchema).min(1).max(MAX_LEDGER_BATCH) }),
    mutates: true,
    response: {
      kind: 'json',
      data: ledgerAppendResultSchema,
      description: 'How many entries were new, and how many the service had.',
    },
    handler: async ({ db, caller, body }) => {
      body.entries.forEach((entry, index) => {
        const fault = ledgerEntryFault(entry);
        if (fault)
          throw badRequest(
            'LEDGER_ENTRY_INVALID',
            `Ledger entry ${describeBrokenLink({ line: index + 1, seq: entry.seq, hash: entry.hash, reason: fault })}; send the entry exactly as the workstation wrote it.`,
            `entries.${index}`,
          );
        if (entry.orgId !== undefined && entry.orgId !== caller.orgId) {
          throw badRequest(
            'LEDGER_ENTRY_OTHER_ORGANIZATION',
            `Ledger entry ${entry.seq} records an action for organization ${entry.orgId}: send it to that organization.`,
            `entries.${index}.orgId`,
          );
        }
      });
      // Only the key enrolled for the workstation an entry names may sign for it: without this, any
      // key made a minute before could add "function test passed" under any workstation's name.
      const known = await knownLedgerHashes(
        db,
        caller.orgId,
        body.entries.map((entry) => entry.hash),
      );
      const fresh = body.entries.filter((entry) => !known.has(entry.hash));
      const keys = await workstationKeysFor(
        db,
        caller.orgId,
        [...new Set(fresh.map((e) => e.workstation))],
        [...new Set(fresh.map((e) => e.signerKey))],
      );
      for (const entry of fresh) {
        const fault = workstationKeyFault(entry, keys);
        if (fault) {
          const index = body.entries.indexOf(entry);
          throw forbidden(
            'LEDGER_KEY_NOT_ENROLLED',
            `Ledger entry ${entry.seq} (${entry.hash.slice(0, 12)}…) is refused: ${fault}. A signed-in user enrols a workstation's key (provisioner ledger enrol); entry index ${index}.`,
          );
        }
      }
      return appendLedgerEntries(db, caller.orgId, body.entries);
    },
  }),
  orgOperation({
    id: 'ledger.list',
    method: 'GET',
    path: '/organizations/:orgId/ledger/entries',
    tag: 'Ledger',
    summary: "The organization's ledger chain, oldest first, with each entry's link (ours).",
    params: orgParams,
    query: z.object({
      after: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(MAX_LEDGER_PAGE).default(MAX_LEDGER_PAGE),
      workstation: z.string().min(1).max(128).optional(),
    }),
    mutates: false,
    response: {
      kind: 'json',
      data: orgLedgerPageSchema,
      description: 'A page of the chain; nextAfter is the after of the next page, null on the last.',
    },
    handler: async ({ db, caller, query }) => {
      const entries = await listLedgerEntries(db, caller.orgId, {
        afterOrgSeq: query.after,
        limit: query.limit,
        ...(query.workstation ? { workstation: query.workstation } : {}),
      });
      return { entries, nextAfter: entries.length === query.limit ? (entries.at(-1)?.orgSeq ?? null) : null };
    },
  }),
];
