import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { TEXT_LIMITS } from './text-limits';
import { brokenLinkText, ledgerLinkFaultText, shortHash, type LedgerLinkFault } from './ledger-link-fault';

/**
 * The provisioning ledger: one entry per provisioning action (firmware installed, configuration
 * applied, verify, function test; each a success or a failure), in the order they happened. Each
 * entry holds the hash of the one before it and is signed by the workstation that wrote it, so a
 * changed, removed or reordered entry breaks the chain at that entry and cannot be repaired
 * without the workstation's key (docs/ledger.md for what that does and does not protect against).
 *
 * This module is the pure part: the entry's shape, its canonical bytes, its hash and signature,
 * and the chain check. Keeping the file is main/engine/ledger/; keeping the organization's chain is
 * server/store/ledger.ts.
 */

export const LEDGER_FORMAT = 'provisioner-ledger/1';

/** The previous hash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * 'station-shift': an operator confirmed a configuration's parameter checksum at the start of a Station shift (its subject is `configuration:<id>`, not a device).
 * 'key-rotation': an Admin replaced the workstation's enrolled ledger key by the one it has now (its subject is `workstation:<id>`; the first entry the new key signs).
 */
export const LEDGER_ACTIONS = [
  'firmware-install',
  'configuration-apply',
  'verify',
  'function-test',
  'parameter-verification',
  'station-shift',
  'key-rotation',
] as const;
export type LedgerAction = (typeof LEDGER_ACTIONS)[number];

const hexHash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in 64 lowercase hex digits');

/** Facts are flat: strings, numbers, booleans or null. Flat values have one canonical text. */
const factValue = z.union([z.string().max(2000), z.number().finite(), z.boolean(), z.null()]);
export type LedgerFactValue = z.infer<typeof factValue>;

/** Everything an entry says, without its hash and signature: what is hashed. */
export const ledgerEntryBodySchema = z.object({
  format: z.literal(LEDGER_FORMAT),
  /** 1 for the first entry of this ledger, one more for each next. */
  seq: z.number().int().min(1),
  /** When the action ended (ISO 8601). */
  at: z.string().datetime({ offset: true }),
  action: z.enum(LEDGER_ACTIONS),
  outcome: z.enum(['success', 'failure']),
  serialNumber: z.string().min(1).max(64),
  /** The workstation's id (main/engine/jobs/workstation.ts). */
  workstation: z.string().min(1).max(128),
  /** Who was signed in (the API key's name, or the local workspace), when known. */
  actor: z.string().max(200).optional(),
  /** The service and organization the action was done for, when signed in to one. */
  serviceUrl: z.string().max(2000).optional(),
  orgId: z.string().max(200).optional(),
  /** What was done: firmware version and image hash, syncId, function test result, … */
  facts: z.record(z.string().max(64), factValue),
  /** As long as a confirmation's (TEXT_LIMITS.applyError): a longer limit than the service's would leave a clipped error unrecorded. */
  error: z.string().max(TEXT_LIMITS.applyError).optional(),
  prevHash: hexHash,
  /** The signer's Ed25519 public key (SPKI DER, base64): each entry can be checked on its own. */
  signerKey: z.string().min(1).max(200),
});
export type LedgerEntryBody = z.infer<typeof ledgerEntryBodySchema>;

export const ledgerEntrySchema = ledgerEntryBodySchema.extend({
  /** SHA-256 of the body's canonical bytes. */
  hash: hexHash,
  /** Ed25519 signature of the hash's 32 bytes, base64. */
  signature: z.string().min(1).max(200),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** What a writer supplies; the ledger fills in format, seq, prevHash and signerKey. */
export type LedgerRecord = Omit<LedgerEntryBody, 'format' | 'seq' | 'prevHash' | 'signerKey'>;

/** Where a record comes from: the workstation and, when signed in, the key's name, the service and the organization. */
export interface LedgerRecordOrigin {
  workstation: string;
  actor?: string;
  serviceUrl?: string;
  orgId?: string;
}

/** The origin as every kind of record carries it: an unknown part is left out, never written empty. */
export function originFields(origin: LedgerRecordOrigin): LedgerRecordOrigin {
  return {
    workstation: origin.workstation,
    ...(origin.actor ? { actor: origin.actor } : {}),
    ...(origin.serviceUrl ? { serviceUrl: origin.serviceUrl } : {}),
    ...(origin.orgId ? { orgId: origin.orgId } : {}),
  };
}

/** JSON with object keys sorted at every level and no space: equal bodies give equal bytes. */
export function canonicalLedgerBytes(body: LedgerEntryBody): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(sortKeys(body)));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}

export function ledgerEntryHash(body: LedgerEntryBody): string {
  return createHash('sha256').update(canonicalLedgerBytes(body)).digest('hex');
}

/** Only the body's own fields: a parsed entry minus hash and signature (and anything unknown). */
export function bodyOf(entry: LedgerEntry): LedgerEntryBody {
  const { hash: _hash, signature: _signature, ...body } = entry;
  return ledgerEntryBodySchema.parse(body);
}

/** The public half of an Ed25519 private key, as entries carry it. */
export function ledgerSignerKeyOf(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' }).toString('base64');
}

export function signLedgerEntry(body: LedgerEntryBody, privateKeyPem: string): LedgerEntry {
  const parsed = ledgerEntryBodySchema.parse(body);
  const hash = ledgerEntryHash(parsed);
  const signature = sign(null, Buffer.from(hash, 'hex'), createPrivateKey(privateKeyPem)).toString('base64');
  return { ...parsed, hash, signature };
}

/**
 * The signer key's object, made once per key: a ledger's entries are signed by one key (a few over
 * its life), and parsing the key again for each of 100,000 entries was a third of a verify's time.
 * Bounded, so a file of entries each naming a new key cannot grow it without end.
 */
const publicKeys = new Map<string, KeyObject>();
const MAX_KEPT_KEYS = 64;

function signerPublicKey(signerKey: string): KeyObject {
  let key = publicKeys.get(signerKey);
  if (key) return key;
  key = createPublicKey({ key: Buffer.from(signerKey, 'base64'), format: 'der', type: 'spki' });
  if (publicKeys.size >= MAX_KEPT_KEYS) publicKeys.clear();
  publicKeys.set(signerKey, key);
  return key;
}

/** Why one entry does not hold: undefined when it does (ignoring its link to the one before). */
export function ledgerEntryFault(entry: LedgerEntry): string | undefined {
  const fault = ledgerEntryFaultOf(entry);
  return fault && ledgerLinkFaultText(fault);
}

/** As ledgerEntryFault, as a code and its values (said in the reader's language by ledgerLinkFaultText). */
export function ledgerEntryFaultOf(entry: LedgerEntry): LedgerLinkFault | undefined {
  let body: LedgerEntryBody;
  try {
    body = bodyOf(entry);
  } catch {
    return { kind: 'notAnEntry', field: null };
  }
  if (ledgerEntryHash(body) !== entry.hash) return { kind: 'contentNotHash' };
  try {
    const key = signerPublicKey(entry.signerKey);
    if (!verify(null, Buffer.from(entry.hash, 'hex'), key, Buffer.from(entry.signature, 'base64')))
      return { kind: 'signatureNotHash' };
  } catch {
    return { kind: 'signatureUnreadable' };
  }
  return undefined;
}

/** A broken link named by where it is and its fault: the English reason and the fault itself. */
export function brokenBy(where: Omit<BrokenLink, 'reason' | 'why'>, fault: LedgerLinkFault): BrokenLink {
  return { ...where, reason: ledgerLinkFaultText(fault), why: fault };
}

/** One line of a ledger file, read: the entry, or why it is not one (in English, and as a code). */
export type LedgerLine =
  { line: number; entry: LedgerEntry } | { line: number; fault: string; why?: LedgerLinkFault; text: string };

/** One JSON entry per line; a blank last line is the file's final newline. */
export function parseLedgerText(text: string): LedgerLine[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((raw, index) => {
    const line = index + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return lineFault(line, { kind: 'notJson' }, raw);
    }
    const parsed = ledgerEntrySchema.safeParse(json);
    if (!parsed.success)
      return lineFault(line, { kind: 'notAnEntry', field: parsed.error.issues[0]?.path.join('.') || 'entry' }, raw);
    return { line, entry: parsed.data };
  });
}

function lineFault(line: number, why: LedgerLinkFault, text: string): LedgerLine {
  return { line, fault: ledgerLinkFaultText(why), why, text };
}

/** The first link that does not hold, named so a person can find it in the file. */
export interface BrokenLink {
  /** 1-based line in the file (or position in the chain). */
  line: number;
  /** The entry's seq, when the line could be read as an entry. */
  seq?: number;
  /** The entry's hash as written, when readable. */
  hash?: string;
  /** Why, in English (`--json`, the report, logs). */
  reason: string;
  /** Why, as a code and its values, to be said in the reader's language (brokenLinkText). */
  why?: LedgerLinkFault;
}

export interface ChainCheck {
  ok: boolean;
  entries: number;
  /** The last entry's hash: what the next entry will link to. */
  head: string;
  broken?: BrokenLink;
}

/**
 * Checks every entry (fields, hash, signature) and every link (prevHash is the hash before, seq is
 * one more) in order, and stops at the first that does not hold: everything after a broken link
 * is unproven, whatever it says. Each line costs the same (one hash, one signature check), so the
 * time grows with the ledger's length and no more; `onChecked(checked, total)` is told before each
 * line and once at the end (a caller showing progress picks how often it speaks).
 */
export function checkLedgerChain(
  lines: readonly LedgerLine[],
  onChecked?: (checked: number, total: number) => void,
): ChainCheck {
  let previous = GENESIS_HASH;
  let seq = 0;
  for (const [index, item] of lines.entries()) {
    onChecked?.(index, lines.length);
    if (!('entry' in item))
      return {
        ok: false,
        entries: lines.length,
        head: previous,
        broken: { line: item.line, reason: item.fault, ...(item.why ? { why: item.why } : {}) },
      };
    const { entry } = item;
    const name = { line: item.line, seq: entry.seq, hash: entry.hash };
    const fault = ledgerEntryFaultOf(entry);
    if (fault) return { ok: false, entries: lines.length, head: previous, broken: brokenBy(name, fault) };
    if (entry.prevHash !== previous) {
      return {
        ok: false,
        entries: lines.length,
        head: previous,
        broken: brokenBy(name, {
          kind: 'linksElsewhere',
          linksTo: shortHash(entry.prevHash),
          previous: shortHash(previous),
        }),
      };
    }
    if (entry.seq !== seq + 1)
      return {
        ok: false,
        entries: lines.length,
        head: previous,
        broken: brokenBy(name, { kind: 'numberOutOfOrder', seq: entry.seq, expected: seq + 1 }),
      };
    previous = entry.hash;
    seq = entry.seq;
  }
  onChecked?.(lines.length, lines.length);
  return { ok: true, entries: lines.length, head: previous };
}

/** "line 3 (entry 3, 9f2c…): its content does not match its hash" */
export function describeBrokenLink(broken: BrokenLink): string {
  return brokenLinkText({ ...broken, why: undefined });
}

/**
 * The organization's chain on the service: each received entry is linked to the one the service
 * received before it, whichever workstation wrote it. `orgHash = sha256(orgPrevHash ‖ entryHash)`.
 */
export function orgChainHash(orgPrevHash: string, entryHash: string): string {
  return createHash('sha256').update(`${orgPrevHash}${entryHash}`).digest('hex');
}

/** One entry of the organization's chain as the service gives it. */
export const orgLedgerEntrySchema = z.object({
  orgSeq: z.number().int().min(1),
  orgPrevHash: hexHash,
  orgHash: hexHash,
  receivedAt: z.string(),
  entry: ledgerEntrySchema,
});
export type OrgLedgerEntry = z.infer<typeof orgLedgerEntrySchema>;

/** A page of the organization's chain; nextAfter is where the next page starts, null on the last. */
export const orgLedgerPageSchema = z.object({
  entries: z.array(orgLedgerEntrySchema),
  nextAfter: z.number().int().nullable(),
});

/** What the service answers to entries sent: how many were new, how many it had. */
export const ledgerAppendResultSchema = z.object({ received: z.number().int(), known: z.number().int() });

/** A fault of an entry of the organization's chain, named by its place there and its workstation's. */
export function inOrgChain(item: OrgLedgerEntry, fault: LedgerLinkFault): LedgerLinkFault {
  return { kind: 'inOrgChain', orgSeq: item.orgSeq, workstation: item.entry.workstation, seq: item.entry.seq, fault };
}

/** The organization's chain check: every link, every entry's own hash and signature. */
export function checkOrgLedgerChain(entries: readonly OrgLedgerEntry[]): ChainCheck {
  let previous = GENESIS_HASH;
  for (const [index, item] of entries.entries()) {
    const name = { line: item.orgSeq, seq: item.entry.seq, hash: item.entry.hash };
    const reasonOf = (fault: LedgerLinkFault): BrokenLink => brokenBy(name, inOrgChain(item, fault));
    if (item.orgSeq !== index + 1)
      return {
        ok: false,
        entries: entries.length,
        head: previous,
        broken: reasonOf({ kind: 'orgNumberMissing', expected: index + 1 }),
      };
    if (item.orgPrevHash !== previous)
      return {
        ok: false,
        entries: entries.length,
        head: previous,
        broken: reasonOf({ kind: 'orgNotLinked' }),
      };
    if (item.orgHash !== orgChainHash(item.orgPrevHash, item.entry.hash))
      return {
        ok: false,
        entries: entries.length,
        head: previous,
        broken: reasonOf({ kind: 'orgLinkHashWrong' }),
      };
    const fault = ledgerEntryFaultOf(item.entry);
    if (fault) return { ok: false, entries: entries.length, head: previous, broken: reasonOf(fault) };
    previous = item.orgHash;
  }
  return { ok: true, entries: entries.length, head: previous };
}
