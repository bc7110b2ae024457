import type { LedgerEntry } from '../../../domain/ledger';
import type { FileSystem } from '../../../platform/durable-file';
import { ledgerFileEnd, readLedgerBackward } from './ledger-backward';

/**
 * The end of a ledger file, read from its end (ledger-backward.ts): what an append links to.
 * Reading the whole file on each append made every confirmation cost time in proportion to the
 * ledger (400 ms at 10,000 entries, seconds at 100,000). Damaged lines at the end are passed over,
 * as before: the entry links to the last one that can be read, and verify names the damage.
 */
export interface LedgerTail {
  /** False when there is no file yet. */
  exists: boolean;
  /** The last line that is an entry; undefined in an empty file or one with none readable. */
  last: LedgerEntry | undefined;
  /** The file ends without a newline: a line torn by a crash mid-append. */
  tornTail: boolean;
}

/**
 * Entries are appended in about the order of their times, not exactly: a process may take its
 * time, wait for the ledger's lock (at most 20 s, ledger.ts) and append after a later-timed entry.
 * Reading back to an entry older than this before the time asked for finds every later one.
 */
const APPEND_ORDER_SLACK_MS = 60_000;

export async function readLedgerTail(fs: FileSystem, path: string): Promise<LedgerTail> {
  const end = await ledgerFileEnd(fs, path);
  if (!end.exists) return { exists: false, last: undefined, tornTail: false };
  for await (const line of readLedgerBackward(fs, path)) {
    if ('entry' in line) return { exists: true, last: line.entry, tornTail: end.tornTail };
  }
  return { exists: true, last: undefined, tornTail: end.tornTail };
}

/**
 * The entries whose time is `since` or later, oldest first, read from the file's end: what a job
 * interrupted since then may have recorded is among the last entries, and looking for it must not
 * cost time in proportion to the ledger.
 */
export async function readLedgerEntriesSince(fs: FileSystem, path: string, since: Date): Promise<LedgerEntry[]> {
  const from = since.getTime();
  const found: LedgerEntry[] = [];
  for await (const line of readLedgerBackward(fs, path)) {
    if (!('entry' in line)) continue;
    const at = Date.parse(line.entry.at);
    if (at < from - APPEND_ORDER_SLACK_MS) break;
    if (at >= from) found.push(line.entry);
  }
  return found.reverse();
}
