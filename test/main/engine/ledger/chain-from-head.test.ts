import { generateKeyPairSync } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  ledgerSignerKeyOf,
  signLedgerEntry,
  type LedgerEntry,
  type LedgerRecord,
} from '../../../../domain/ledger';
import { FileSecretStore } from '../../../../platform/secret-store';
import { checkChainFromHead, Ledger } from '../../../../main/engine/ledger';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * The chain checked from the head back, as far as a reader needs (issue 30), on a real ledger file
 * with its sealed head: 10 older devices installed and applied (entries 1–20), the configuration's
 * two devices (21–24), then three verifies of another device (25–27). A reader that needs
 * EPC000101's install stops at entry 21. Damage among the entries read is found and named by its
 * line; damage before entry 21 is not read, by design, and `ledger verify` still finds it.
 */

const scratch = useScratchDirPerTest('chain-from-head');

function record(action: LedgerRecord['action'], serialNumber: string): LedgerRecord {
  return {
    at: new Date(Date.UTC(2026, 10, 28, 17, 0)).toISOString(),
    action,
    outcome: 'success',
    serialNumber,
    workstation: 'ws-chain',
    facts: {},
  };
}

async function sampleLedger(): Promise<{ ledger: Ledger; entries: LedgerEntry[] }> {
  const ledger = new Ledger({
    dir: join(scratch.dir, 'ledger'),
    secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')),
  });
  const entries: LedgerEntry[] = [];
  const serials = [
    ...Array.from({ length: 10 }, (_, i) => `EPC0002${String(i).padStart(2, '0')}`),
    'EPC000101',
    'EPC000102',
  ];
  for (const serial of serials) {
    entries.push(await ledger.append(record('firmware-install', serial)));
    entries.push(await ledger.append(record('configuration-apply', serial)));
  }
  for (let i = 0; i < 3; i += 1) entries.push(await ledger.append(record('verify', 'EPC000301')));
  return { ledger, entries };
}

/** Stops at EPC000101's firmware install (entry 21). */
const untilInstallOf101 = (entry: LedgerEntry) =>
  entry.serialNumber === 'EPC000101' && entry.action === 'firmware-install';

/** The file with its lines changed by `change` (lines without the final newline's empty one). */
async function rewrite(ledger: Ledger, change: (lines: string[]) => string[]): Promise<void> {
  const lines = (await readFile(ledger.path, 'utf8')).split('\n').slice(0, -1);
  await writeFile(ledger.path, `${change(lines).join('\n')}\n`);
}

describe('checkChainFromHead', () => {
  it('checks every link from the entry where the reader stops to the sealed head, or the whole file without a stop', async () => {
    const { ledger, entries } = await sampleLedger();
    const near = await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 });
    expect(near).toMatchObject({ ok: true, fromSeq: 21, headSeq: 27, head: entries[26]!.hash, reachedStart: false });
    expect(near.entries.map((e) => e.seq)).toEqual([21, 22, 23, 24, 25, 26, 27]);

    const whole = await checkChainFromHead(ledger.fromHead());
    expect(whole).toMatchObject({ ok: true, fromSeq: 1, headSeq: 27, reachedStart: true });
    expect(whole.entries).toHaveLength(27);
  });

  it('names a changed entry among those read by its line, as the whole check does', async () => {
    const { ledger } = await sampleLedger();
    await rewrite(ledger, (lines) =>
      lines.map((line, i) => (i === 22 ? line.replace('"outcome":"success"', '"outcome":"failure"') : line)),
    );
    const check = await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 });
    expect(check.ok).toBe(false);
    expect(check.broken).toMatchObject({ line: 23, seq: 23 });
    expect(check.broken?.reason).toMatch(/does not match its hash/);
  });

  it('does not read a changed entry before where the reader stops (by design); ledger verify still finds it', async () => {
    const { ledger } = await sampleLedger();
    await rewrite(ledger, (lines) =>
      lines.map((line, i) => (i === 4 ? line.replace('"outcome":"success"', '"outcome":"failure"') : line)),
    );
    expect(await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 })).toMatchObject({
      ok: true,
      fromSeq: 21,
    });
    expect((await ledger.verify()).broken).toMatchObject({ line: 5, seq: 5 });
    // Read to the start, the change is found.
    expect((await checkChainFromHead(ledger.fromHead())).broken).toMatchObject({ line: 5, seq: 5 });
  });

  it('finds an entry removed among those read by the link of the one after it', async () => {
    const { ledger } = await sampleLedger();
    await rewrite(ledger, (lines) => lines.filter((_, i) => i !== 23));
    const check = await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 });
    expect(check.broken).toMatchObject({ line: 24, seq: 25 });
    expect(check.broken?.reason).toMatch(/removed, inserted or reordered/);
  });

  it('finds entries cut from the end by the sealed head', async () => {
    const { ledger } = await sampleLedger();
    await rewrite(ledger, (lines) => lines.slice(0, -2));
    const check = await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 });
    expect(check).toMatchObject({ ok: false, headSeq: 25 });
    expect(check.broken).toMatchObject({ line: 26, seq: 27 });
    expect(check.broken?.reason).toMatch(/reached entry 27 .* file ends at entry 25: entries were cut from the end/);
  });

  it('takes an entry linked after the head but signed by another key as a break, and leaves it out', async () => {
    const { ledger, entries } = await sampleLedger();
    const last = entries.at(-1)!;
    const attackerPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const forged = signLedgerEntry(
      { ...bodyOf(last), seq: 28, prevHash: last.hash, signerKey: ledgerSignerKeyOf(attackerPem) },
      attackerPem,
    );
    await appendFile(ledger.path, `${JSON.stringify(forged)}\n`);
    const signerKey = await ledger.signerKey();
    const check = await checkChainFromHead(ledger.fromHead(), { signerKey, enough: untilInstallOf101 });
    expect(check.broken).toMatchObject({ line: 28, seq: 28 });
    expect(check.broken?.reason).toMatch(/not by this workstation's key/);
    expect(check.entries.map((e) => e.seq)).toEqual([21, 22, 23, 24, 25, 26, 27]);
    // Without the key it links like any other: a head one entry past the sealed one is not a fault.
    expect(await checkChainFromHead(ledger.fromHead(), { enough: untilInstallOf101 })).toMatchObject({
      ok: true,
      headSeq: 28,
    });
  });

  it('finds entries removed from the start when it reads the whole file', async () => {
    const { ledger } = await sampleLedger();
    await rewrite(ledger, (lines) => lines.slice(2));
    const check = await checkChainFromHead(ledger.fromHead());
    expect(check.broken).toMatchObject({ line: 1, seq: 3 });
    expect(check.broken?.reason).toMatch(/first entry, but it is number 3/);
  });
});
