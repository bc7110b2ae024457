import type { LedgerEntry } from '../../../domain/ledger';
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

export async function readLedgerTail(fs: FileSystem, path: string): Promise<LedgerTail> {
  let handle;
  try {
    handle = await fs.open(path, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { exists: false, last: undefined, tornTail: false };
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { exists: true, last: undefined, tornTail: false };
    for (let window = FIRST_WINDOW; ; window *= 2) {
      const start = Math.max(0, size - window);
      const bytes = Buffer.alloc(size - start);
      await handle.read(bytes, 0, bytes.length, start);
      const tornTail = bytes[bytes.length - 1] !== 0x0a;
      let text = bytes.toString('utf8');
      // The window's first line may be the end of a longer one: not a line of its own.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
      const lines = parseLedgerText(text);
      const last = lines.findLast(
        (line): line is Extract<typeof line, { entry: LedgerEntry }> => 'entry' in line,
      )?.entry;
      if (last || start === 0) return { exists: true, last, tornTail };
    }
  } finally {
    await handle.close();
  }
}
