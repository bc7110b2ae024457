import {
  checkLedgerChain,
  checkOrgLedgerChain,
  bodyOf,
  brokenBy,
  inOrgChain,
  ledgerEntryFault,
  ledgerEntryHash,
  type ChainCheck,
  type BrokenLink,
  type LedgerEntry,
  type LedgerLine,
  type OrgLedgerEntry,
} from '../../../domain/ledger';
import type { WorkstationKeyListBody } from '../../../domain/workstation-key-list';
import {
  ownEntryKeyFaultOf,
  workstationKeyFaultOf,
  type EnrolledWorkstationKey,
} from '../../../domain/workstation-keys';
import { shortHash } from '../../../domain/ledger-link-fault';
import type { ServiceClient } from '../../cloud';
import type { Ledger } from './ledger';
import { headFault } from './ledger-head';

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
  const mine = entriesOf(await ledger.readAll()).filter(
    (entry) => entry.serviceUrl === account.serviceUrl && entry.orgId === account.orgId,
  );
  // This workstation's own ledger sends only what its key signed: an entry signed elsewhere and
  // slipped into the file would have the service refuse the whole batch, and verify names it anyway.
  const own = ledger.signerKey ? await ledger.signerKey() : undefined;
  const sound = mine.filter(
    (entry) => ledgerEntryFault(entry) === undefined && (own === undefined || entry.signerKey === own),
  );
  if (sound.length > 0 && ledger.enrolment && ledger.signerKey)
    await enrolOwnKey(
      { enrolment: ledger.enrolment.bind(ledger), signerKey: ledger.signerKey.bind(ledger) },
      sound,
      account,
    );
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
async function enrolOwnKey(
  ledger: Pick<Ledger, 'enrolment' | 'signerKey'>,
  entries: readonly LedgerEntry[],
  account: LedgerAccount,
): Promise<void> {
  const own = await ledger.signerKey();
  const workstations = new Set(entries.filter((entry) => entry.signerKey === own).map((entry) => entry.workstation));
  for (const workstation of workstations)
    await account.client.workstations.enrol(await ledger.enrolment(account.orgId, workstation));
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
export function compareWithService(
  local: readonly LedgerLine[],
  service: readonly OrgLedgerEntry[],
  workstation: string,
): BrokenLink | undefined {
  const bySeq = new Map<number, { line: number; hash: string }>();
  // What each local entry hashes to now, not the hash it claims: a changed entry keeps its old hash field.
  for (const line of local)
    if ('entry' in line) bySeq.set(line.entry.seq, { line: line.line, hash: contentHash(line.entry) });
  const ours = service
    .filter((item) => item.entry.workstation === workstation)
    .sort((a, b) => a.entry.seq - b.entry.seq);
  for (const { entry } of ours) {
    const here = bySeq.get(entry.seq);
    if (!here)
      return brokenBy({ line: entry.seq, seq: entry.seq, hash: entry.hash }, { kind: 'missingHere', seq: entry.seq });
    if (here.hash !== entry.hash) {
      return brokenBy(
        { line: here.line, seq: entry.seq, hash: entry.hash },
        { kind: 'changedHere', seq: entry.seq, serviceHash: shortHash(entry.hash), localHash: shortHash(here.hash) },
      );
    }
  }
  return undefined;
}

/** Where the organization's enrolled keys came from: just fetched from the service, the kept list, or none (and why). */
export type KeySource =
  | { from: 'service' | 'kept'; keys: readonly EnrolledWorkstationKey[]; issuedAt: string }
  | { from: 'none'; why: string };

export interface LedgerVerification {
  local: ChainCheck & { path: string };
  /** Which keys the entries were checked against. */
  keys: { from: 'service' | 'kept'; count: number; issuedAt: string } | { from: 'none'; why: string };
  /** Absent when no service was asked. */
  service?:
    | { sent: { received: number; known: number; withheld: number }; chain: ChainCheck; mismatch?: BrokenLink }
    | { error: string };
}

/** Where to get the organization's enrolled keys: fresh from the service (with an account), else the kept list. */
export interface KeyListSource {
  fetch?: () => Promise<WorkstationKeyListBody>;
  kept?: () => Promise<WorkstationKeyListBody | undefined>;
}

async function keysFor(source: KeyListSource | undefined): Promise<KeySource> {
  let fetchError: string | undefined;
  if (source?.fetch) {
    try {
      const body = await source.fetch();
      return { from: 'service', keys: body.keys, issuedAt: body.issuedAt };
    } catch (error) {
      fetchError = error instanceof Error ? error.message : String(error);
    }
  }
  try {
    const kept = await source?.kept?.();
    if (kept) return { from: 'kept', keys: kept.keys, issuedAt: kept.issuedAt };
  } catch (error) {
    return { from: 'none', why: error instanceof Error ? error.message : String(error) };
  }
  return {
    from: 'none',
    why: fetchError ?? 'no list of enrolled keys is kept here (sign in and verify once to keep it)',
  };
}

/** The first entry of this workstation's ledger that is not signed by its key (see ownEntryKeyFault). */
function firstForeignEntry(
  lines: readonly LedgerLine[],
  own: { workstation: string; signerKey: string; keys?: readonly EnrolledWorkstationKey[] },
): BrokenLink | undefined {
  for (const line of lines) {
    if (!('entry' in line)) continue;
    const fault = ownEntryKeyFaultOf(line.entry, own);
    if (fault) return brokenBy({ line: line.line, seq: line.entry.seq, hash: line.entry.hash }, fault);
  }
  return undefined;
}

/** The first entry of the organization's chain not signed by the key enrolled for its workstation. */
function firstUnvouchedOrgEntry(
  chain: readonly OrgLedgerEntry[],
  keys: readonly EnrolledWorkstationKey[],
): BrokenLink | undefined {
  for (const item of chain) {
    const fault = workstationKeyFaultOf(item.entry, keys);
    if (fault)
      return brokenBy({ line: item.orgSeq, seq: item.entry.seq, hash: item.entry.hash }, inOrgChain(item, fault));
  }
  return undefined;
}

/**
 * How far a verification is, for a person watching a long one: reading the file, then each entry
 * of the local chain checked (of all its lines), then the service's chain.
 */
export type LedgerVerifyProgress =
  { stage: 'read' } | { stage: 'local'; checked: number; total: number } | { stage: 'service' };

/**
 * Checks the local chain, and that each of its entries is this workstation's (signed by its key,
 * by the organization's enrolled keys when known); with an account, sends what the service lacks
 * and checks its chain, each entry against its workstation's enrolled key, and against ours.
 */
export async function verifyLedgers(
  ledger: Pick<Ledger, 'readAll' | 'path'> & Partial<Pick<Ledger, 'enrolment' | 'signerKey' | 'sealedHead'>>,
  options: {
    account?: LedgerAccount;
    workstation: string;
    keyList?: KeyListSource;
    onProgress?: (progress: LedgerVerifyProgress) => void;
  },
): Promise<LedgerVerification> {
  const { onProgress } = options;
  onProgress?.({ stage: 'read' });
  const lines = await ledger.readAll();
  const chainCheck = checkLedgerChain(
    lines,
    onProgress ? (checked, total) => onProgress({ stage: 'local', checked, total }) : undefined,
  );
  // Sent first: sending enrols this workstation's key, and the list fetched next then names it.
  let sent: { received: number; known: number; withheld: number } | { error: string } | undefined;
  if (options.account)
    sent = await sendLedger(ledger, options.account).catch((error: unknown) => ({
      error: error instanceof Error ? error.message : String(error),
    }));
  const source = await keysFor(options.keyList);
  const keys = source.from === 'none' ? undefined : source.keys;
  const keysView: LedgerVerification['keys'] =
    source.from === 'none' ? source : { from: source.from, count: source.keys.length, issuedAt: source.issuedAt };
  let local: LedgerVerification['local'] = { ...chainCheck, path: ledger.path };
  if (chainCheck.ok && ledger.signerKey) {
    const foreign = firstForeignEntry(lines, {
      workstation: options.workstation,
      signerKey: await ledger.signerKey(),
      ...(keys ? { keys } : {}),
    });
    if (foreign) local = { ...local, ok: false, broken: foreign };
  }
  if (local.ok && ledger.sealedHead) {
    const head = await ledger.sealedHead();
    const cut = head ? headFault(lines, head) : undefined;
    if (cut) local = { ...local, ok: false, broken: cut };
  }
  if (!options.account || !sent) return { local, keys: keysView };
  if ('error' in sent) return { local, keys: keysView, service: sent };
  onProgress?.({ stage: 'service' });
  try {
    const chain = await fetchOrgLedger(options.account.client);
    const mismatch = compareWithService(lines, chain, options.workstation);
    let chainResult = checkOrgLedgerChain(chain);
    if (chainResult.ok && keys) {
      const unvouched = firstUnvouchedOrgEntry(chain, keys);
      if (unvouched) chainResult = { ...chainResult, ok: false, broken: unvouched };
    }
    return { local, keys: keysView, service: { sent, chain: chainResult, ...(mismatch ? { mismatch } : {}) } };
  } catch (error) {
    return { local, keys: keysView, service: { error: error instanceof Error ? error.message : String(error) } };
  }
}
