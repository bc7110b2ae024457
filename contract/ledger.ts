import { z } from 'zod';
import type { BrokenLink, ChainCheck } from '../domain/ledger';
import type { LedgerEntryCheck } from '../domain/ledger-entry-check';
import type { EnrolledWorkstationKey } from '../domain/workstation-keys';
import { command, noInput } from './channel-spec';

export type { LedgerEntryCheck } from '../domain/ledger-entry-check';

/**
 * How far a check of the ledger is, for a person watching a long one (100,000 entries take
 * seconds): reading the file, then each line of the local chain checked (of all its lines), then
 * the organization's chain on the service. The payload of the `ledger.verifyProgress` event.
 */
export type LedgerVerifyProgress =
  { stage: 'read' } | { stage: 'local'; checked: number; total: number } | { stage: 'service' };

/** What `ledger.send` (and a check) sent the service: counts of this account's entries. */
export interface LedgerSendView {
  /** Entries the service took now. */
  received: number;
  /** Entries it had already. */
  known: number;
  /** Entries not sent because they do not hold on their own (changed, or signed by another key): verify names them. */
  withheld: number;
}

/**
 * The check of this workstation's ledger, as `ledger verify --json` prints it (with the host's own
 * label for the service): the local chain, the keys its entries were checked against and, when the
 * service was asked, what was sent and how the organization's chain there holds.
 */
export interface LedgerVerifyView {
  /** Every check that ran holds, and every entry asked for is in the ledger with its links intact. */
  ok: boolean;
  /** This workstation's id, as its entries name it. */
  workstation: string;
  local: ChainCheck & { path: string };
  /** Which keys the entries were checked against: fresh from the service, the list kept here, or none (and why). */
  keys: { from: 'service' | 'kept'; count: number; issuedAt: string } | { from: 'none'; why: string };
  /** Absent when no service was asked. */
  service?: { sent: LedgerSendView; chain: ChainCheck; mismatch?: BrokenLink } | { error: string };
  /** The entries asked for by hash; absent when none was. */
  entries?: LedgerEntryCheck[];
}

/** What an enrolment did: whether the key was enrolled now (false: it was already), the key, and this workstation's id. */
export interface LedgerEnrolView {
  workstation: string;
  enrolment: { enrolled: boolean; key: EnrolledWorkstationKey };
}

/** An entry's hash as the ledger names it: 64 hexadecimal digits, lower case. */
const entryHash = z.string().regex(/^[0-9a-f]{64}$/, {
  message: 'not a ledger entry hash: give the 64 hexadecimal digits (lower case) the entry or the report names',
});

/** A workstation's id as the service keeps it (domain/workstation-keys.ts). */
const workstationName = z
  .string({ message: 'name the workstation whose key is revoked (its id, as its ledger entries name it)' })
  .min(1, { message: 'name the workstation whose key is revoked (its id, as its ledger entries name it)' })
  .max(128, { message: 'a workstation id is at most 128 characters' });

export const ledgerVerifyInput = z
  .object({
    /** Check on this computer only: nothing is sent to or asked of the service. */
    local: z.boolean().default(false),
    /** Entries to look for by hash (`--entry`); each counts only when its links up to it hold. */
    entries: z.array(entryHash).max(1000, { message: 'at most 1000 entry hashes in one check' }).default([]),
  })
  .strict();

export const ledgerEnrolInput = z
  .object({
    /** Replace the key enrolled for this workstation by the one it has now (an Admin's). */
    rotate: z.boolean().default(false),
  })
  .strict();

export const ledgerRevokeInput = z
  .object({
    workstation: workstationName,
    reason: z
      .string({ message: 'say why the key is revoked (--reason TEXT)' })
      .trim()
      .min(1, { message: 'say why the key is revoked (--reason TEXT)' })
      .max(500, { message: 'the reason is at most 500 characters' }),
  })
  .strict();

/**
 * This workstation's ledger and its key on the service (docs/ledger.md). The signing key and the
 * workstation's id stay in the core; a check's progress comes as `ledger.verifyProgress` events.
 */
export const LEDGER_CHANNELS = {
  /** Checks the local chain and, unless `local`, sends the service what it lacks and checks the organization's chain there. */
  'ledger.verify': command(ledgerVerifyInput).returns<LedgerVerifyView>(),
  /** Enrols this workstation's ledger key with the service (`rotate`: replaces the one enrolled; the rotation is recorded in the chain). */
  'ledger.enrol': command(ledgerEnrolInput).returns<LedgerEnrolView>(),
  /** Revokes a workstation's enrolled key (an Admin's): its later entries fail verify, with the reason. */
  'ledger.revoke': command(ledgerRevokeInput).returns<EnrolledWorkstationKey>(),
  /** Sends the service this account's entries it lacks now (what a recorded action does after writing its entry). */
  'ledger.send': command(noInput).returns<LedgerSendView>(),
} as const;
export type LedgerChannel = keyof typeof LEDGER_CHANNELS;
