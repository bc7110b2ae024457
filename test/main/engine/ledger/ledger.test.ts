import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, type LedgerRecord } from '../../../../domain/ledger';
import { FileSecretStore } from '../../../../platform/secret-store';
import type { QuarantinedFile } from '../../../../platform/quarantine';
import { Ledger, LEDGER_KEY_SECRET } from '../../../../main/engine/ledger';
import { useScratchDir } from '../../../fixtures/scratch';

const scratch = useScratchDir('ledger');
let n = 0;

function ledgerIn(
  name: string,
  onQuarantine?: (file: QuarantinedFile) => void,
): { ledger: Ledger; secrets: FileSecretStore; dir: string } {
  const dir = join(scratch.dir, `${name}-${++n}`);
  const secrets = new FileSecretStore(join(dir, 'secrets.json'));
  return { ledger: new Ledger({ dir: join(dir, 'ledger'), secrets, onQuarantine }), secrets, dir };
}

function record(serialNumber: string, facts: LedgerRecord['facts'] = {}): LedgerRecord {
  return {
    at: new Date('2026-11-25T10:00:00Z').toISOString(),
    action: 'configuration-apply',
    outcome: 'success',
    serialNumber,
    workstation: 'ws-test-0001',
    facts,
  };
}

describe('Ledger', () => {
  it('links each appended entry to the one before and signs it with one kept key', async () => {
    const { ledger, secrets } = ledgerIn('chain');
    const first = await ledger.append(record('EPC000101', { syncId: 'a' }));
    const second = await ledger.append(record('EPC000102'));
    expect(first.seq).toBe(1);
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(second.seq).toBe(2);
    expect(second.prevHash).toBe(first.hash);
    expect(second.signerKey).toBe(first.signerKey);
    expect(await secrets.get(LEDGER_KEY_SECRET)).toContain('ed25519');
    const check = await ledger.verify();
    expect(check).toMatchObject({ ok: true, entries: 2, head: second.hash });
  });

  it('names the entry whose byte was changed, and the line that no longer parses', async () => {
    const { ledger } = ledgerIn('tamper');
    for (const serial of ['EPC000201', 'EPC000202', 'EPC000203']) await ledger.append(record(serial));
    const text = await readFile(ledger.path, 'utf8');
    await writeFile(ledger.path, text.replace('EPC000202', 'EPC000299'));
    const changed = await ledger.verify();
    expect(changed.ok).toBe(false);
    expect(changed.broken).toMatchObject({ line: 2, seq: 2 });
    expect(changed.broken?.reason).toMatch(/does not match its hash/);

    const lines = text.split('\n');
    lines[2] = lines[2]!.replace('{', '[');
    await writeFile(ledger.path, lines.join('\n'));
    const torn = await ledger.verify();
    expect(torn.broken).toMatchObject({ line: 3 });
    expect(torn.broken?.reason).toMatch(/not valid JSON/);
  });

  it('finds a removed entry by the link of the one after it', async () => {
    const { ledger } = ledgerIn('removed');
    for (const serial of ['EPC000301', 'EPC000302', 'EPC000303']) await ledger.append(record(serial));
    const lines = (await readFile(ledger.path, 'utf8')).split('\n');
    await writeFile(ledger.path, [lines[0], lines[2], ''].join('\n'));
    const check = await ledger.verify();
    expect(check.broken).toMatchObject({ line: 2, seq: 3 });
    expect(check.broken?.reason).toMatch(/removed, inserted or reordered/);
  });

  it('keeps one chain when two writers (two processes) append at once', async () => {
    const { ledger, secrets, dir } = ledgerIn('concurrent');
    const other = new Ledger({ dir: join(dir, 'ledger'), secrets });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? ledger : other).append(record(`EPC0004${String(i).padStart(2, '0')}`)),
      ),
    );
    const check = await ledger.verify();
    expect(check).toMatchObject({ ok: true, entries: 20 });
  });

  it('ends a line torn by a crash so the next entry is whole, and verify names the torn line', async () => {
    const { ledger } = ledgerIn('torn');
    await ledger.append(record('EPC000501'));
    const text = await readFile(ledger.path, 'utf8');
    await writeFile(ledger.path, text + text.slice(0, 40));
    const next = await ledger.append(record('EPC000502'));
    expect(next.seq).toBe(2);
    const lines = await ledger.readAll();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toHaveProperty('entry');
    expect((await ledger.verify()).broken).toMatchObject({ line: 2 });
  });

  it('sets a damaged key aside, reports it and signs on with a new one', async () => {
    const quarantined: QuarantinedFile[] = [];
    const { ledger, secrets } = ledgerIn('badkey', (file) => quarantined.push(file));
    await secrets.set(LEDGER_KEY_SECRET, 'not a key');
    const entry = await ledger.append(record('EPC000601'));
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]?.reason).toMatch(/damaged/);
    expect(await secrets.get(quarantined[0]!.path.replace('secret ', ''))).toBe('not a key');
    expect((await ledger.verify()).ok).toBe(true);
    expect(entry.signerKey.length).toBeGreaterThan(20);
  });
});

describe('Ledger append reads the file from its end (issue 30)', () => {
  it('links to the last entry behind more damaged lines than its first window holds', async () => {
    const { ledger } = ledgerIn('tail');
    const first = await ledger.append(record('EPC000301'));
    // 150 KiB of damaged lines after the entry: the 64 KiB window at the end holds no entry, so it grows.
    await writeFile(ledger.path, `${await readFile(ledger.path, 'utf8')}${'not an entry\n'.repeat(12_000)}`);
    const second = await ledger.append(record('EPC000302'));
    expect(second.prevHash).toBe(first.hash);
    expect(second.seq).toBe(2);
  });

  it('links to the last entry when the lines before it are longer than the window (a cut first line is not read as an entry)', async () => {
    const { ledger } = ledgerIn('long-lines');
    let last = await ledger.append(record('EPC000401', { note: 'x'.repeat(1900) }));
    for (let i = 0; i < 60; i += 1)
      last = await ledger.append(record(`EPC0004${String(i).padStart(2, '0')}`, { note: 'x'.repeat(1900) }));
    expect((await readFile(ledger.path)).length).toBeGreaterThan(64 * 1024);
    const next = await ledger.append(record('EPC000499'));
    expect(next).toMatchObject({ seq: 62, prevHash: last.hash });
    expect(await ledger.verify()).toMatchObject({ ok: true, entries: 62 });
  });
});
