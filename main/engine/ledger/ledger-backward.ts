import type { LedgerEntry, LedgerLine } from '../../../domain/ledger';
import { parseLedgerText } from '../../../domain/ledger';
import { ledgerLinkFaultText, type LedgerLinkFault } from '../../../domain/ledger-link-fault';
import { errnoCode, type FileSystem } from '../../../platform/durable-file';

/**
 * A ledger file read from its end backwards, a chunk at a time: what an append needs (its last
 * entry) and what a commissioning report needs (the last entries of a few devices) are near the
 * head, and reading 70 MB to find them made both cost time in proportion to the ledger.
 *
 * Lines are what parseLedgerText makes of the file: every newline-ended line, and a last line
 * without its newline (torn by a crash mid-append). Each line is yielded with the byte offset it
 * starts at; its number in the file is counted only when one must be named (lineNumberAt), since
 * counting means reading everything before it.
 */

/** One line read from the end: the entry, or why it is not one, and the byte offset it starts at. */
export type BackwardLine = { offset: number } & (
  { entry: LedgerEntry } | { fault: string; why?: LedgerLinkFault; text: string }
);

export const BACKWARD_CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** What the file holds at its end, read before its lines: whether it exists and whether its last line is torn. */
export interface LedgerFileEnd {
  exists: boolean;
  size: number;
  /** The file ends without a newline: a line torn by a crash mid-append. */
  tornTail: boolean;
}

export async function ledgerFileEnd(fs: FileSystem, path: string): Promise<LedgerFileEnd> {
  let handle;
  try {
    handle = await fs.open(path, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { exists: false, size: 0, tornTail: false };
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { exists: true, size, tornTail: false };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { exists: true, size, tornTail: last[0] !== NEWLINE };
  } finally {
    await handle.close();
  }
}

function lineAt(offset: number, bytes: Buffer): BackwardLine {
  const text = bytes.toString('utf8');
  // parseLedgerText drops an empty last line as the file's final newline; an empty line here is a line.
  const parsed: LedgerLine = parseLedgerText(text)[0] ?? {
    line: 1,
    fault: ledgerLinkFaultText({ kind: 'notJson' }),
    why: { kind: 'notJson' },
    text,
  };
  if ('entry' in parsed) return { offset, entry: parsed.entry };
  return { offset, fault: parsed.fault, ...(parsed.why ? { why: parsed.why } : {}), text: parsed.text };
}

/**
 * The file's lines, newest first. Memory holds one chunk and the line being read (a line longer than
 * a chunk is gathered over several reads). Nothing when the file does not exist. Stopping the
 * iteration early (break) closes the file.
 */
export async function* readLedgerBackward(
  fs: FileSystem,
  path: string,
  chunkBytes: number = BACKWARD_CHUNK,
): AsyncGenerator<BackwardLine> {
  let handle;
  try {
    handle = await fs.open(path, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    // `pending` holds the file's bytes from `pendingStart` up to the end of the line being looked for.
    let pending = Buffer.alloc(0);
    let pendingStart = size;
    let lineEnd = size;
    const readBefore = async () => {
      const start = Math.max(0, pendingStart - chunkBytes);
      const chunk = Buffer.alloc(pendingStart - start);
      await handle.read(chunk, 0, chunk.length, start);
      pending = Buffer.concat([chunk, pending]);
      pendingStart = start;
    };
    await readBefore();
    // The file's final newline ends its last line; it does not start an empty one.
    if (pending[pending.length - 1] === NEWLINE) lineEnd = size - 1;
    for (;;) {
      const newline = lineEnd > pendingStart ? pending.lastIndexOf(NEWLINE, lineEnd - pendingStart - 1) : -1;
      if (newline >= 0) {
        const lineStart = pendingStart + newline + 1;
        yield lineAt(lineStart, pending.subarray(newline + 1, lineEnd - pendingStart));
        lineEnd = pendingStart + newline;
        pending = pending.subarray(0, newline);
        continue;
      }
      if (pendingStart === 0) {
        yield lineAt(0, pending.subarray(0, lineEnd));
        return;
      }
      await readBefore();
    }
  } finally {
    await handle.close();
  }
}

/** The 1-based number of the line that starts at `offset`: the newlines before it, plus one. */
export async function lineNumberAt(fs: FileSystem, path: string, offset: number): Promise<number> {
  const handle = await fs.open(path, 'r');
  try {
    let newlines = 0;
    const chunk = Buffer.alloc(BACKWARD_CHUNK);
    for (let at = 0; at < offset;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, offset - at), at);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i += 1) if (chunk[i] === NEWLINE) newlines += 1;
      at += bytesRead;
    }
    return newlines + 1;
  } finally {
    await handle.close();
  }
}
