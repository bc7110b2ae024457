import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { logInCli, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * The ledger end to end: an apply through the CLI is recorded, its confirmation carries the entry's
 * hash to the service, `ledger verify` sends the service the entries and finds both chains whole;
 * one byte changed in the ledger file and verify names that entry, here and against the service.
 * The commands run the CLI's main in this process (world.cliInProcess): the same commands and
 * answers without two seconds of start-up each.
 */

const startWorld = worldPerTest();

interface Verification {
  ok: boolean;
  local: { ok: boolean; entries: number; broken?: { line: number; seq?: number; reason: string } };
  service?: {
    sent: { received: number; known: number; withheld: number };
    chain: { ok: boolean; entries: number };
    mismatch?: { seq?: number; reason: string };
  };
}

describe('provisioner ledger verify', () => {
  it(
    'records each apply, carries its hash in the confirmation, and names the entry whose byte was changed',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('ledger');
      await buildFlow(w.client, epcToEpcOverEthernet);
      await logInCli(w);
      await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'pty', firmwareVersion: '1.1.0' });
      await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000102', link: 'pty', firmwareVersion: '1.1.0' });

      for (const serial of ['EPC000101', 'EPC000102']) {
        const applied = await w.cliInProcess(['device', 'configuration', 'update', serial]);
        expect(applied.code, applied.stderr).toBe(0);
      }

      const ledgerPath = join(w.home, 'data', 'ledger', 'ledger.jsonl');
      const lines = (await readFile(ledgerPath, 'utf8')).trim().split('\n');
      // Each apply writes its own entry and the parameter verification that follows it (docs/ledger.md).
      expect(lines).toHaveLength(4);
      const all = lines.map(
        (line) =>
          JSON.parse(line) as {
            seq: number;
            hash: string;
            serialNumber: string;
            action: string;
            outcome: string;
            facts: { syncId?: string };
          },
      );
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(all.filter((e) => e.action === 'parameter-verification').map((e) => e.serialNumber)).toEqual([
        'EPC000101',
        'EPC000102',
      ]);
      const entries = all.filter((e) => e.action === 'configuration-apply');
      expect(entries.map((e) => [e.serialNumber, e.action, e.outcome])).toEqual([
        ['EPC000101', 'configuration-apply', 'success'],
        ['EPC000102', 'configuration-apply', 'success'],
      ]);

      // The service keeps the hash with the confirmation.
      const { rows } = await w.service!.db.query<{ payload: { ledgerHash?: string; syncId: string } }>(
        "SELECT payload FROM confirmations WHERE serial_number = 'EPC000101' AND kind = 'configuration'",
      );
      expect(rows.map((row) => row.payload.ledgerHash)).toEqual([entries[0]!.hash]);
      expect(rows[0]!.payload.syncId).toBe(entries[0]!.facts.syncId);

      const whole = await w.cliInProcess(['--json', 'ledger', 'verify']);
      expect(whole.code, whole.stderr).toBe(0);
      const wholeResult = JSON.parse(whole.stdout) as Verification;
      expect(wholeResult).toMatchObject({
        ok: true,
        local: { ok: true, entries: 4 },
        service: { chain: { ok: true, entries: 4 } },
      });
      // Every entry is on the service: sent with its confirmation already, or by this verify.
      expect(wholeResult.service!.sent.received + wholeResult.service!.sent.known).toBe(4);

      const again = await w.cliInProcess(['ledger', 'verify']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('4 entries, every link holds');
      expect(again.stdout).toContain("This workstation's entries on the service match the local ledger.");

      // One byte of the first entry: its serial number's last digit.
      const bytes = await readFile(ledgerPath);
      const at = bytes.indexOf('EPC000101') + 'EPC000101'.length - 1;
      bytes[at] = '7'.charCodeAt(0);
      await writeFile(ledgerPath, bytes);

      const broken = await w.cliInProcess(['--json', 'ledger', 'verify']);
      expect(broken.code).toBe(1);
      const brokenResult = JSON.parse(broken.stdout) as Verification;
      expect(brokenResult.ok).toBe(false);
      expect(brokenResult.local.broken).toMatchObject({ line: 1, seq: 1 });
      expect(brokenResult.local.broken?.reason).toMatch(/does not match its hash/);
      expect(brokenResult.service?.chain.ok).toBe(true);
      expect(brokenResult.service?.mismatch).toMatchObject({ seq: 1 });
      expect(brokenResult.service?.sent.withheld).toBe(1);

      const words = await w.cliInProcess(['ledger', 'verify']);
      expect(words.code).toBe(1);
      expect(words.stdout).toMatch(
        /BROKEN at entry 1 at line 1 \(hash [0-9a-f]{12}…\): its content does not match its hash/,
      );
      expect(words.stdout).toMatch(/disagree at entry 1 at line 1/);
    },
  );
});
