import {
  GENESIS_HASH,
  ledgerEntryFault,
  type BrokenLink,
  type LedgerEntry,
  type LedgerLine,
} from '../../../domain/ledger';
import type { LedgerHead } from './ledger-head';
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
  sealedHead(): Promise<LedgerHead | { fault: string } | undefined>;
}

/** Lines already read (oldest first, as parseLedgerText gives them) as a ledger read from its head; a line's offset is its number. */
export function ledgerFromLines(lines: readonly LedgerLine[], head?: LedgerHead | { fault: string }): LedgerFromHead {
  return {
    async *lines() {
      for (let i = lines.length - 1; i >= 0; i -= 1) {
        const line = lines[i]!;
        yield 'entry' in line
          ? { offset: line.line, entry: line.entry }
          : { offset: line.line, fault: line.fault, text: line.text };
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

function linkReason(entry: LedgerEntry, before: LedgerEntry): string | undefined {
  if (entry.prevHash !== before.hash)
    return `it links to ${entry.prevHash.slice(0, 12)}…, but the entry before it has hash ${before.hash.slice(0, 12)}… (an entry was removed, inserted or reordered)`;
  if (entry.seq !== before.seq + 1) return `its number is ${entry.seq}, expected ${before.seq + 1}`;
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
      fail({ reason: line.fault }, at);
      after = undefined;
      continue;
    }
    const { entry } = line;
    oldest = entry;
    const name = { seq: entry.seq, hash: entry.hash };
    if (!newest) {
      newest = { entry, offset: line.offset };
      if (sealed && 'fault' in sealed) fail({ ...name, reason: sealed.fault }, at);
    }
    const satisfied = options.enough?.(entry) ?? false;
    const foreign = options.signerKey !== undefined && entry.signerKey !== options.signerKey;
    if (!foreign) entries.push(entry);
    if (!broken) {
      const fault = ledgerEntryFault(entry);
      if (fault) fail({ ...name, reason: fault }, at);
      else if (after) {
        const successor = after;
        const reason = linkReason(successor.entry, entry);
        if (reason)
          fail({ seq: successor.entry.seq, hash: successor.entry.hash, reason }, () =>
            source.lineNumber(successor.offset),
          );
      }
    }
    if (!broken && foreign)
      fail(
        {
          ...name,
          reason: `it is signed by key …${entry.signerKey.slice(-12)}, not by this workstation's key (it was signed elsewhere; the report leaves it out)`,
        },
        at,
      );
    if (sealed && !('fault' in sealed) && !headMet) {
      if (entry.seq === sealed.seq) {
        headMet = true;
        if (entry.hash !== sealed.hash)
          fail(
            {
              ...name,
              reason: `the sealed head names entry ${sealed.seq} with hash ${sealed.hash.slice(0, 12)}…, the file's entry ${sealed.seq} has ${entry.hash.slice(0, 12)}…: the end of the ledger was replaced`,
            },
            at,
          );
      } else if (entry.seq < sealed.seq) {
        headMet = true;
        const last = newest;
        fail(
          {
            seq: sealed.seq,
            hash: sealed.hash,
            reason: `the sealed head says the ledger reached entry ${sealed.seq} (hash ${sealed.hash.slice(0, 12)}…), but the file ends at entry ${last.entry.seq}: entries were cut from the end`,
          },
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
        fail(
          {
            seq: first.entry.seq,
            hash: first.entry.hash,
            reason: `it is the file's first entry, but it is number ${first.entry.seq} and links to ${first.entry.prevHash.slice(0, 12)}… (entries were removed from the start)`,
          },
          () => source.lineNumber(first.offset),
        );
    }
    if (sealed && !('fault' in sealed) && !headMet)
      fail(
        {
          seq: sealed.seq,
          hash: sealed.hash,
          reason: `the sealed head says the ledger reached entry ${sealed.seq} (hash ${sealed.hash.slice(0, 12)}…), but the file ends at entry ${newest?.entry.seq ?? 0}: entries were cut from the end`,
        },
        async () => (newest ? (await source.lineNumber(newest.offset)) + 1 : 1),
      );
  }
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
