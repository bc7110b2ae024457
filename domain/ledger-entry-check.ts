import type { ChainCheck, LedgerLine } from './ledger';

/**
 * What `ledger verify --entry HASH` found (a hash from a commissioning report's appendix): the
 * entry of that hash in the local ledger, and whether the chain holds up to it.
 */
export interface LedgerEntryCheck {
  hash: string;
  found: boolean;
  /** In the ledger and every link up to it holds: it is the entry that was written, unchanged. */
  holds: boolean;
  seq?: number;
  action?: string;
  serialNumber?: string;
  at?: string;
}

/** Each hash's entry in the ledger's lines, and whether the chain (checked already) holds up to it. */
export function checkLedgerEntries(
  lines: readonly LedgerLine[],
  chain: ChainCheck,
  hashes: readonly string[],
): LedgerEntryCheck[] {
  return hashes.map((hash) => {
    const line = lines.find((l): l is Extract<LedgerLine, { entry: unknown }> => 'entry' in l && l.entry.hash === hash);
    if (!line) return { hash, found: false, holds: false };
    // A link broken before it leaves it unproven; one broken after it does not touch it.
    const holds = chain.ok || (chain.broken !== undefined && line.line < chain.broken.line);
    const { seq, action, serialNumber, at } = line.entry;
    return { hash, found: true, holds, seq, action, serialNumber, at };
  });
}
