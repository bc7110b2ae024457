import {
  checkLedgerChain,
  checkOrgLedgerChain,
  bodyOf,
  ledgerEntryFault,
  ledgerEntryHash,
  type ChainCheck,
  type BrokenLink,
  type LedgerEntry,
  type LedgerLine,
  type OrgLedgerEntry,
} from '../../../domain/ledger';
import type { ServiceClient } from '../../cloud';
import type { Ledger } from './ledger';

/**
 * The ledger and the organization's chain on the service: send the entries the service does not
 * have yet, read its chain back, and check the two against each other. The service keeps a copy
 * the workstation cannot quietly change; the workstation's copy proves its own order.
 */

/** The account the entries belong to: the client holds its key. */
export interface LedgerAccount {
  client: Pick<ServiceClient, 'ledger' | 'workstations'>;
  serviceUrl: string;
  orgId: string;
}

/** Entries per request (the service takes at most 500). */
const BATCH = 200;

function entriesOf(lines: readonly LedgerLine[]): LedgerEntry[] {
  return lines.flatMap((line) => ('entry' in line ? [line.entry] : []));
}

/**
 * Sends every entry of this account that holds on its own (hash, signature); the service skips
 * those it has. A changed entry is not sent: the service would refuse it, and verify names it.
 */
export async function sendLedger(
  ledger: Pick<Ledger, 'readAll'> & Partial<Pick<Ledger, 'enrolment' | 'signerKey'>>,
  account: LedgerAccount,
): Promise<{ received: number; known: number; withheld: number }> {
  const mine = entriesOf(await ledger.readAll()).filter((entry) => entry.serviceUrl === account.serviceUrl && entry.orgId === account.orgId);
  const sound = mine.filter((entry) => ledgerEntryFault(entry) === undefined);
  if (sound.length > 0 && ledger.enrolment && ledger.signerKey) await enrolOwnKey({ enrolment: ledger.enrolment.bind(ledger), signerKey: ledger.signerKey.bind(ledger) }, sound, account);
  let received = 0;
  let known = 0;
  for (let i = 0; i < sound.length; i += BATCH) {
    const result = await account.client.ledger.append(sound.slice(i, i + BATCH));
    received += result.received;
    known += result.known;
  }
  return { received, known, withheld: mine.length - sound.length };
}

/**
 * Enrols this workstation's key for the workstation its entries name, signed in as the account's
 * user: the service takes a workstation's entries only from its enrolled key, and records who
 * enrolled it. Enrolling the key it has already changes nothing; a workstation whose enrolled key
 * is another one gets the service's refusal (an Admin rotates: `ledger enrol --rotate`).
 */
async function enrolOwnKey(ledger: Pick<Ledger, 'enrolment' | 'signerKey'>, entries: readonly LedgerEntry[], account: LedgerAccount): Promise<void> {
  const own = await ledger.signerKey();
  const workstations = new Set(entries.filter((entry) => entry.signerKey === own).map((entry) => entry.workstation));
  for (const workstation of workstations) await account.client.workstations.enrol(await ledger.enrolment(account.orgId, workstation));
}

/** The organization's whole chain, oldest first. */
export async function fetchOrgLedger(client: Pick<ServiceClient, 'ledger'>): Promise<OrgLedgerEntry[]> {
  const all: OrgLedgerEntry[] = [];
  let after = 0;
  for (;;) {
    const page = await client.ledger.page(after);
    all.push(...page.entries);
    if (page.nextAfter === null) return all;
    after = page.nextAfter;
  }
}

function contentHash(entry: LedgerEntry): string {
  try {
    return ledgerEntryHash(bodyOf(entry));
  } catch {
    return 'unreadable';
  }
}

/**
 * Where the service's copy of this workstation's entries and the local ledger disagree: an entry
 * the service holds whose local line has another hash (changed here) or is gone (removed here).
 */
export function compareWithService(local: readonly LedgerLine[], service: readonly OrgLedgerEntry[], workstation: string): BrokenLink | undefined {
  const bySeq = new Map<number, { line: number; hash: string }>();
  // What each local entry hashes to now, not the hash it claims: a changed entry keeps its old hash field.
  for (const line of local) if ('entry' in line) bySeq.set(line.entry.seq, { line: line.line, hash: contentHash(line.entry) });
  const ours = service.filter((item) => item.entry.workstation === workstation).sort((a, b) => a.entry.seq - b.entry.seq);
  for (const { entry } of ours) {
    const here = bySeq.get(entry.seq);
    if (!here) return { line: entry.seq, seq: entry.seq, hash: entry.hash, reason: `the service holds entry ${entry.seq} of this workstation, but the local ledger has no readable entry ${entry.seq} (removed or damaged here)` };
    if (here.hash !== entry.hash) {
      return { line: here.line, seq: entry.seq, hash: entry.hash, reason: `the service holds entry ${entry.seq} with hash ${entry.hash.slice(0, 12)}…, the local entry's content hashes to ${here.hash.slice(0, 12)}… (changed here after it was sent)` };
    }
  }
  return undefined;
}

export interface LedgerVerification {
  local: ChainCheck & { path: string };
  /** Absent when no service was asked. */
  service?: { sent: { received: number; known: number; withheld: number }; chain: ChainCheck; mismatch?: BrokenLink } | { error: string };
}

/** Checks the local chain, and, with an account, sends what the service lacks and checks its chain against ours. */
export async function verifyLedgers(ledger: Pick<Ledger, 'readAll' | 'path'>, options: { account?: LedgerAccount; workstation: string }): Promise<LedgerVerification> {
  const lines = await ledger.readAll();
  const local = { ...checkLedgerChain(lines), path: ledger.path };
  if (!options.account) return { local };
  try {
    const sent = await sendLedger(ledger, options.account);
    const chain = await fetchOrgLedger(options.account.client);
    const mismatch = compareWithService(lines, chain, options.workstation);
    return { local, service: { sent, chain: checkOrgLedgerChain(chain), ...(mismatch ? { mismatch } : {}) } };
  } catch (error) {
    return { local, service: { error: error instanceof Error ? error.message : String(error) } };
  }
}
