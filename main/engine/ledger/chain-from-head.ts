import {
  brokenBy,
  GENESIS_HASH,
  ledgerEntryFaultOf,
  type BrokenLink,
  type LedgerEntry,
  type LedgerLine,
} from '../../../domain/ledger';
import { shortHash, type LedgerLinkFault } from '../../../domain/ledger-link-fault';
import { endCut, endReplaced, type LedgerHead, type SealedHeadFault } from './ledger-head';
import type { BackwardLine } from './ledger-backward';

/**
 * The chain checked from its head back, as far as a reader needs (issue 30): a commissioning
 * report wants the last entries of a few devices, which are near the head, and checking 100,000
 * entries to print ten was linear in a ledger that only grows.
 *
 * Each entry read is checked on its own (fields, hash, signature) and against the entry after it
 * (that one's prevHash is its hash, its number one more), and the newest entries against the head
 * the last append sealed. So every entry from the oldest one read (entry K) to the head is proven
 * as the whole check would prove it, and a change, removal or forgery among them is caught. What
 * lies before entry K is not read and not vouched for; `ledger verify` remains the whole check.
 */

/** A ledger as read from its head back. */
export interface LedgerFromHead {
  /** The lines, newest first. */
  lines(): AsyncIterable<BackwardLine>;
  /** The 1-based line number of the line at `offset`: asked only to name a break. */
  lineNumber(offset: number): Promise<number>;
  /** The head the last append sealed; undefined when none is kept (a ledger older than sealing). */
  sealedHead(): Promise<LedgerHead | SealedHeadFault | undefined>;
}

/** Lines already read (oldest first, as parseLedgerText gives them) as a ledger read from its head; a line's offset is its number. */
export function ledgerFromLines(lines: readonly LedgerLine[], head?: LedgerHead | SealedHeadFault): LedgerFromHead {
  return {
    async *lines() {
      for (let i = lines.length - 1; i >= 0; i -= 1) {
        const line = lines[i]!;
        yield 'entry' in line
          ? { offset: line.line, entry: line.entry }
          : { offset: line.line, fault: line.fault, ...(line.why ? { why: line.why } : {}), text: line.text };
      }
    },
    lineNumber: async (offset) => offset,
    sealedHead: async () => head,
  };
}

export interface ChainFromHead {
  /** Every link read holds, the newest entries match the sealed head, and (with `signerKey`) every entry read is this workstation's. */
  ok: boolean;
  /** The entries read, oldest first; with `signerKey`, only those it signed. */
  entries: LedgerEntry[];
  /** The newest entry's number and hash: the head the reader started from (0 and the genesis hash when there is none). */
  headSeq: number;
  head: string;
  /** The oldest entry read: every link from it to the head was checked (0 when none was read). */
  fromSeq: number;
  /** The whole file was read, down to its first line. */
  reachedStart: boolean;
  /** The newest link that does not hold: it and everything before it are not proven. */
  broken?: BrokenLink;
}

export interface ChainFromHeadOptions {
  /** This workstation's ledger key: an entry another key signed is a break, and is left out of `entries`. */
  signerKey?: string;
  /**
   * Told of each entry read, newest first (before its checks, foreign ones too); true once the
   * reader has all it needs. Reading stops there, once the sealed head's entry has also been read.
   * Without it the whole file is read.
   */
  enough?: (entry: LedgerEntry) => boolean;
}

type Break = { link: Omit<BrokenLink, 'line'>; line: () => Promise<number> };

function linkFault(entry: LedgerEntry, before: LedgerEntry): LedgerLinkFault | undefined {
  if (entry.prevHash !== before.hash)
    return { kind: 'linksElsewhere', linksTo: shortHash(entry.prevHash), previous: shortHash(before.hash) };
  if (entry.seq !== before.seq + 1) return { kind: 'numberOutOfOrder', seq: entry.seq, expected: before.seq + 1 };
  return undefined;
}

export async function checkChainFromHead(
  source: LedgerFromHead,
  options: ChainFromHeadOptions = {},
): Promise<ChainFromHead> {
  const sealed = await source.sealedHead();
  // A head sealed by an append: the entry it names must be read, and match, before reading may stop.
  let headMet = sealed === undefined || 'fault' in sealed;
  let broken: Break | undefined;
  const fail = (link: Omit<BrokenLink, 'line'>, line: () => Promise<number>) => {
    broken ??= { link, line };
  };
  const failBy = (
    where: Omit<BrokenLink, 'line' | 'reason' | 'why'>,
    fault: LedgerLinkFault,
    line: () => Promise<number>,
  ) => {
    const { line: _unknownYet, ...link } = brokenBy({ line: 0, ...where }, fault);
    fail(link, line);
  };
  const entries: LedgerEntry[] = [];
  let newest: { entry: LedgerEntry; offset: number } | undefined;
  let after: { entry: LedgerEntry; offset: number } | undefined;
  let oldest: LedgerEntry | undefined;
  let reachedStart = true;
  let lastOffset: number | undefined;
  for await (const line of source.lines()) {
    lastOffset = line.offset;
    const at = () => source.lineNumber(line.offset);
    if (!('entry' in line)) {
      fail({ reason: line.fault, ...(line.why ? { why: line.why } : {}) }, at);
      after = undefined;
      continue;
    }
    const { entry } = line;
    oldest = entry;
    const name = { seq: entry.seq, hash: entry.hash };
    if (!newest) {
      newest = { entry, offset: line.offset };
      if (sealed && 'fault' in sealed)
        fail({ ...name, reason: sealed.fault, ...(sealed.why ? { why: sealed.why } : {}) }, at);
    }
    const satisfied = options.enough?.(entry) ?? false;
    const foreign = options.signerKey !== undefined && entry.signerKey !== options.signerKey;
    if (!foreign) entries.push(entry);
    if (!broken) {
      const fault = ledgerEntryFaultOf(entry);
      if (fault) failBy(name, fault, at);
      else if (after) {
        const successor = after;
        const broke = linkFault(successor.entry, entry);
        if (broke)
          failBy({ seq: successor.entry.seq, hash: successor.entry.hash }, broke, () =>
            source.lineNumber(successor.offset),
          );
      }
    }
    if (!broken && foreign) failBy(name, { kind: 'signedElsewhereLeftOut', key: entry.signerKey.slice(-12) }, at);
    if (sealed && !('fault' in sealed) && !headMet) {
      if (entry.seq === sealed.seq) {
        headMet = true;
        if (entry.hash !== sealed.hash) failBy(name, endReplaced(sealed, entry.hash), at);
      } else if (entry.seq < sealed.seq) {
        headMet = true;
        const last = newest;
        failBy(
          { seq: sealed.seq, hash: sealed.hash },
          endCut(sealed, last.entry.seq),
          async () => (await source.lineNumber(last.offset)) + 1,
        );
      }
    }
    after = { entry, offset: line.offset };
    if (satisfied && headMet) {
      reachedStart = false;
      break;
    }
  }
  if (reachedStart) {
    // The file's first entry starts the chain: one that links elsewhere had entries cut from before it.
    if (after && lastOffset === after.offset && !broken) {
      const first = after;
      if (first.entry.prevHash !== GENESIS_HASH || first.entry.seq !== 1)
        failBy(
          { seq: first.entry.seq, hash: first.entry.hash },
          { kind: 'startCut', seq: first.entry.seq, linksTo: shortHash(first.entry.prevHash) },
          () => source.lineNumber(first.offset),
        );
    }
    if (sealed && !('fault' in sealed) && !headMet)
      failBy({ seq: sealed.seq, hash: sealed.hash }, endCut(sealed, newest?.entry.seq ?? 0), async () =>
        newest ? (await source.lineNumber(newest.offset)) + 1 : 1,
      );
  }
  // Set only inside `fail`, which the compiler's narrowing does not follow.
  const found = broken as Break | undefined;
  return {
    ok: found === undefined,
    entries: entries.reverse(),
    headSeq: newest?.entry.seq ?? 0,
    head: newest?.entry.hash ?? GENESIS_HASH,
    fromSeq: oldest?.seq ?? 0,
    reachedStart,
    ...(found ? { broken: { line: await found.line(), ...found.link } } : {}),
  };
}
