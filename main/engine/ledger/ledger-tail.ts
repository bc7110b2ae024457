import type { LedgerEntry, LedgerLine } from '../../../domain/ledger';
import { parseLedgerText } from '../../../domain/ledger';
import { errnoCode, type FileSystem } from '../../../platform/durable-file';

/**
 * The end of a ledger file, read from its end: what an append links to. Reading the whole file on
 * each append made every confirmation cost time in proportion to the ledger (400 ms at 10,000
 * entries, seconds at 100,000); an entry line is under 2 KiB, so the last 64 KiB almost always hold
 * the last entry, and the window doubles until it does (damaged lines at the end are passed over,
 * as before: the entry links to the last one that can be read, and verify names the damage).
 */
export interface LedgerTail {
  /** False when there is no file yet. */
  exists: boolean;
  /** The last line that is an entry; undefined in an empty file or one with none readable. */
  last: LedgerEntry | undefined;
  /** The file ends without a newline: a line torn by a crash mid-append. */
  tornTail: boolean;
}

const FIRST_WINDOW = 64 * 1024;

/**
 * Entries are appended in about the order of their times, not exactly: a process may take its
 * time, wait for the ledger's lock (at most 20 s, ledger.ts) and append after a later-timed entry.
 * Reading back to an entry older than this before the time asked for finds every later one.
 */
const APPEND_ORDER_SLACK_MS = 60_000;

/** One window of the file's end: its lines (the first whole line on), and whether it reaches the file's start. */
interface TailWindow {
  lines: LedgerLine[];
  whole: boolean;
  tornTail: boolean;
}

/**
 * Reads ever larger windows of the file's end, each twice the last, until `enough` says a window
 * holds what is looked for or the window is the whole file. undefined when there is no file.
 */
async function readFromEnd(
  fs: FileSystem,
  path: string,
  enough: (window: TailWindow) => boolean,
): Promise<TailWindow | undefined> {
  let handle;
  try {
    handle = await fs.open(path, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { lines: [], whole: true, tornTail: false };
    for (let window = FIRST_WINDOW; ; window *= 2) {
      const start = Math.max(0, size - window);
      const bytes = Buffer.alloc(size - start);
      await handle.read(bytes, 0, bytes.length, start);
      const tornTail = bytes[bytes.length - 1] !== 0x0a;
      let text = bytes.toString('utf8');
      // The window's first line may be the end of a longer one: not a line of its own.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
      const read: TailWindow = { lines: parseLedgerText(text), whole: start === 0, tornTail };
      if (read.whole || enough(read)) return read;
    }
  } finally {
    await handle.close();
  }
}

function entriesOf(lines: readonly LedgerLine[]): LedgerEntry[] {
  return lines.flatMap((line) => ('entry' in line ? [line.entry] : []));
}

export async function readLedgerTail(fs: FileSystem, path: string): Promise<LedgerTail> {
  const read = await readFromEnd(fs, path, (window) => entriesOf(window.lines).length > 0);
  if (!read) return { exists: false, last: undefined, tornTail: false };
  return { exists: true, last: entriesOf(read.lines).at(-1), tornTail: read.tornTail };
}

/**
 * The entries whose time is `since` or later, oldest first, read from the file's end: what a job
 * interrupted since then may have recorded is among the last entries, and looking for it must not
 * cost time in proportion to the ledger.
 */
export async function readLedgerEntriesSince(fs: FileSystem, path: string, since: Date): Promise<LedgerEntry[]> {
  const from = since.getTime();
  const read = await readFromEnd(fs, path, (window) => {
    const first = entriesOf(window.lines)[0];
    return first !== undefined && Date.parse(first.at) < from - APPEND_ORDER_SLACK_MS;
  });
  return read ? entriesOf(read.lines).filter((entry) => Date.parse(entry.at) >= from) : [];
}
