import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLedgerText, type LedgerLine } from '../../../../domain/ledger';
import { nodeFileSystem } from '../../../../platform/durable-file';
import { FileSecretStore } from '../../../../platform/secret-store';
import { Ledger } from '../../../../main/engine/ledger';
import { lineNumberAt, readLedgerBackward, type BackwardLine } from '../../../../main/engine/ledger/ledger-backward';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * The backward reader gives the lines parseLedgerText gives, newest first, whatever the chunk size:
 * lines longer than a chunk, a chunk boundary inside a multi-byte character, empty and damaged
 * lines, a torn last line; and the line number of each line it names by its offset.
 */

const scratch = useScratchDir('ledger-backward');
let n = 0;

async function backward(path: string, chunk: number): Promise<BackwardLine[]> {
  const lines: BackwardLine[] = [];
  for await (const line of readLedgerBackward(nodeFileSystem, path, chunk)) lines.push(line);
  return lines;
}

/** What each line is, without where it is: the entry's hash, or the fault and text. */
function what(line: LedgerLine | BackwardLine): string {
  return 'entry' in line ? `entry ${line.entry.hash}` : `fault ${line.fault}: ${line.text}`;
}

async function ledgerWith(count: number): Promise<{ ledger: Ledger; text: string }> {
  const dir = join(scratch.dir, `l${++n}`);
  const ledger = new Ledger({ dir: join(dir, 'ledger'), secrets: new FileSecretStore(join(dir, 'secrets.json')) });
  for (let i = 0; i < count; i += 1)
    await ledger.append({
      at: new Date(Date.UTC(2026, 10, 28, 17, i)).toISOString(),
      action: 'configuration-apply',
      outcome: 'success',
      serialNumber: `EPC0001${String(i).padStart(2, '0')}`,
      workstation: 'ws-backward',
      // A name in Chinese puts 3-byte characters across chunk boundaries.
      facts: { note: `输送机 ${'x'.repeat(i * 37)}` },
    });
  return { ledger, text: await readFile(ledger.path, 'utf8') };
}

describe('readLedgerBackward', () => {
  it('yields the lines parseLedgerText reads, newest first, at any chunk size, each with its line number', async () => {
    const { ledger, text } = await ledgerWith(12);
    // Damage: an empty line, a line that is not JSON, and a last line torn by a crash (no newline).
    const lines = text.split('\n');
    lines.splice(4, 0, '', 'not an entry {');
    const damaged = `${lines.slice(0, -1).join('\n')}\n{"format":"provisioner-le`;
    await writeFile(ledger.path, damaged);
    const expected = parseLedgerText(damaged).reverse();
    expect(expected.length).toBe(15);
    for (const chunk of [1, 7, 100, 4096, 1 << 20]) {
      const read = await backward(ledger.path, chunk);
      expect(read.map(what), `chunk ${chunk}`).toEqual(expected.map(what));
    }
    // Each offset names its line: what a report says when a line there breaks the chain.
    const read = await backward(ledger.path, 64);
    for (const [i, line] of read.entries())
      expect(await lineNumberAt(nodeFileSystem, ledger.path, line.offset)).toBe(expected[i]!.line);
  });

  it('stops reading when the reader stops, and reads nothing of a missing or empty file', async () => {
    const { ledger, text } = await ledgerWith(5);
    const newest: BackwardLine[] = [];
    for await (const line of readLedgerBackward(nodeFileSystem, ledger.path, 16)) {
      newest.push(line);
      if (newest.length === 2) break;
    }
    expect(newest.map(what)).toEqual(parseLedgerText(text).reverse().slice(0, 2).map(what));
    expect(await backward(join(scratch.dir, 'none.jsonl'), 64)).toEqual([]);
    const empty = join(scratch.dir, 'empty.jsonl');
    await writeFile(empty, '');
    expect(await backward(empty, 64)).toEqual([]);
  });
});
