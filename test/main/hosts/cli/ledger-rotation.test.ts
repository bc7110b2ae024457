import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../domain/ledger';
import { workstationId } from '../../../../main/engine/jobs/workstation';
import { LEDGER_KEY_SECRET, openWorkstationLedger } from '../../../../main/engine/ledger';
import { logInCli, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * A key rotation is recorded in the chain: a workstation whose ledger key was lost makes a new one;
 * enrolling it is refused until an Admin rotates (`ledger enrol --rotate`); the rotation is then the
 * new key's first entry, naming the key it replaced and who rotated, on the laptop and in the
 * organization's chain on the service.
 */

const startWorld = worldPerTest();

describe('ledger enrol --rotate', () => {
  it(
    'records the rotation as a chain entry signed by the new key, locally and on the service',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('ledger-rotation');
      await logInCli(w);
      const dataDir = join(w.home, 'data');
      const workstation = await workstationId(dataDir);
      const first = await w.cli(['ledger', 'enrol']);
      expect(first.code, first.stderr).toBe(0);
      const oldKey = await openWorkstationLedger(dataDir).signerKey();

      // The key is lost: the secrets file no longer holds it, so the ledger makes a new one.
      const secretsPath = join(dataDir, 'secrets.json');
      const secrets = JSON.parse(await readFile(secretsPath, 'utf8')) as Record<string, unknown>;
      delete secrets[LEDGER_KEY_SECRET];
      await writeFile(secretsPath, JSON.stringify(secrets));
      const newKey = await openWorkstationLedger(dataDir).signerKey();
      expect(newKey).not.toBe(oldKey);

      const refused = await w.cli(['ledger', 'enrol']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/another key for it is taken only as an Admin's rotation/);

      const rotated = await w.cli(['ledger', 'enrol', '--rotate']);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stdout).toContain('the key it had before signs nothing more');

      const local = await openWorkstationLedger(dataDir).entries();
      const entry = local.at(-1)!;
      expect(entry).toMatchObject({
        action: 'key-rotation',
        outcome: 'success',
        serialNumber: `workstation:${workstation}`,
        workstation,
        orgId: w.orgId,
        signerKey: newKey,
        // Who rotated: the signed-in key's name, from the saved login.
        actor: expect.stringMatching(/\S/),
      });
      expect(entry.facts).toMatchObject({ publicKey: newKey, enrolledBy: expect.any(String) });
      const { rows } = await w.service!.db.query<{ entry: LedgerEntry | string; action: string }>(
        "SELECT entry, action FROM ledger_entries WHERE action = 'key-rotation'",
      );
      expect(rows).toHaveLength(1);
      const onService =
        typeof rows[0]!.entry === 'string' ? (JSON.parse(rows[0]!.entry) as LedgerEntry) : rows[0]!.entry;
      expect(onService.hash).toBe(entry.hash);
      const keys = (
        await w.service!.db.query<{ public_key: string; end_kind: string | null }>(
          'SELECT public_key, end_kind FROM workstation_keys ORDER BY enrolled_at',
        )
      ).rows;
      expect(keys.map((k) => [k.public_key, k.end_kind])).toEqual([
        [oldKey, 'rotated'],
        [newKey, null],
      ]);
    },
  );
});
