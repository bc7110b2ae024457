import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLedgerChain, type LedgerLine } from '../../../../domain/ledger';
import { Ledger } from '../../../../main/engine/ledger';
import { checkLedgerEntries } from '../../../../domain/ledger-entry-check';
import { FileSecretStore } from '../../../../platform/secret-store';
import { useScratchDir } from '../../../fixtures/scratch';
import { appendThreeFunctionTests } from '../../../fixtures/ledger';

/**
 * `ledger verify --entry HASH` (a hash from a commissioning report's appendix): an entry counts
 * only when it is in the ledger and every link up to it holds. One changed in the file is not
 * proven, nor is any after it; one before the break still is.
 */

const scratch = useScratchDir('ledger-verify-entry');

describe('checkLedgerEntries', () => {
  it('says of each hash whether it is in the ledger with its links intact up to it', async () => {
    const ledger = new Ledger({
      dir: join(scratch.dir, 'ledger'),
      secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')),
    });
    const [first, second, third] = await appendThreeFunctionTests(ledger, 'ws-1');
    const lines = await ledger.readAll();
    const intact = checkLedgerEntries(lines, checkLedgerChain(lines), [first.hash, third.hash]);
    expect(intact).toEqual([
      {
        hash: first.hash,
        found: true,
        holds: true,
        seq: first.seq,
        action: 'function-test',
        serialNumber: 'EPC000101',
        at: first.at,
      },
      {
        hash: third.hash,
        found: true,
        holds: true,
        seq: third.seq,
        action: 'function-test',
        serialNumber: 'EPC000101',
        at: third.at,
      },
    ]);

    // The failed test made a pass in the file, its hash kept: the chain breaks there.
    const changed: LedgerLine[] = lines.map((line) =>
      'entry' in line && line.entry.hash === second.hash
        ? { ...line, entry: { ...line.entry, outcome: 'success', facts: { result: 'pass' } } }
        : line,
    );
    const chain = checkLedgerChain(changed);
    expect(chain.ok).toBe(false);
    const checked = checkLedgerEntries(changed, chain, [first.hash, second.hash, third.hash, 'f'.repeat(64)]);
    expect(checked.map((c) => [c.seq ?? null, c.found, c.holds])).toEqual([
      [first.seq, true, true],
      [second.seq, true, false],
      [third.seq, true, false],
      [null, false, false],
    ]);
  });
});
