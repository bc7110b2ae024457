import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../../../domain/ledger';
import { FileSecretStore } from '../../../../platform/secret-store';
import { Ledger, verifyLedgers } from '../../../../main/engine/ledger';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * The ledger's head kept sealed in the secret store: entries cut from the end of the file leave a
 * chain that holds link by link, and only the head kept elsewhere shows the cut, with no network.
 */

const scratch = useScratchDir('ledger-head');

function record(serialNumber: string): LedgerRecord {
  return {
    at: '2026-11-25T10:00:00.000Z',
    action: 'function-test',
    outcome: 'success',
    serialNumber,
    workstation: 'ws-head-0001',
    facts: {},
  };
}

describe('the sealed ledger head', () => {
  it('names entries cut from the end, a replaced end, and a head not signed by the ledger key', async () => {
    const dir = join(scratch.dir, 'cut');
    const secrets = new FileSecretStore(join(dir, 'secrets.json'));
    const ledger = new Ledger({ dir: join(dir, 'ledger'), secrets });
    for (const serial of ['EPC000101', 'EPC000102', 'EPC000103']) await ledger.append(record(serial));
    const whole = await verifyLedgers(ledger, { workstation: 'ws-head-0001' });
    expect(whole.local).toMatchObject({ ok: true, entries: 3 });

    const text = await readFile(ledger.path, 'utf8');
    const lines = text.trimEnd().split('\n');
    await writeFile(ledger.path, `${lines.slice(0, 2).join('\n')}\n`);
    const cut = await verifyLedgers(ledger, { workstation: 'ws-head-0001' });
    expect(cut.local.ok).toBe(false);
    expect(cut.local.broken).toMatchObject({ seq: 3, line: 3 });
    expect(cut.local.broken?.reason).toMatch(
      /sealed head says the ledger reached entry 3 .* file ends at entry 2: entries were cut from the end/,
    );

    // The head edited by hand to match the shorter file: its signature no longer holds.
    const kept = JSON.parse((await secrets.get('ledger-head'))!) as { seq: number; hash: string };
    const second = JSON.parse(lines[1]!) as { hash: string };
    await secrets.set('ledger-head', JSON.stringify({ ...kept, seq: 2, hash: second.hash }));
    const forged = await verifyLedgers(ledger, { workstation: 'ws-head-0001' });
    expect(forged.local.broken?.reason).toMatch(/not signed by this workstation's ledger key/);

    await writeFile(ledger.path, text);
    await ledger.append(record('EPC000104'));
    expect((await verifyLedgers(ledger, { workstation: 'ws-head-0001' })).local).toMatchObject({
      ok: true,
      entries: 4,
    });
  });
});
