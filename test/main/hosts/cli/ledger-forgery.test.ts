import { generateKeyPairSync } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyOf, ledgerSignerKeyOf, signLedgerEntry, type LedgerEntry } from '../../../../domain/ledger';
import { functionTestRecord } from '../../../../main/features/function-test/record';
import { workstationId } from '../../../../main/engine/jobs/workstation';
import { openWorkstationLedger } from '../../../../main/engine/ledger';
import { logInCli, worldPerTest, type World } from '../../engine/jobs/helpers/world';

/**
 * The ledger as the attacker forges it: a "function test passed" written after a real failed test,
 * correctly linked, under this workstation's id, signed with a key made a minute before. Appended to
 * the workstation's ledger file, `ledger verify` (offline and online) names it; posted to the service
 * with the technician's key, it is refused; the service's chain and enrolled keys stay as they were.
 */

const startWorld = worldPerTest();

interface Verification {
  ok: boolean;
  keys: { from: string; count?: number };
  local: { ok: boolean; entries: number; broken?: { line: number; seq?: number; reason: string } };
  service?:
    | { sent: { received: number; known: number; withheld: number }; chain: { ok: boolean; entries: number } }
    | { error: string };
}

function testRecord(world: World, workstation: string, outcome: 'pass' | 'fail') {
  return functionTestRecord({
    serialNumber: 'EPC000101',
    workstation,
    serviceUrl: world.url,
    orgId: world.orgId,
    observation: {
      pressed: true,
      ended: 'pressed',
      pressedAt: '2026-06-01T10:00:00.000Z',
      receivers: [
        {
          serialNumber: 'EPC000102',
          tripped: outcome === 'pass',
          reactionMs: outcome === 'pass' ? 40 : null,
          trippedBy: outcome === 'pass' ? 'EPC000101' : null,
        },
      ],
      unreachable: [],
    },
    verdict: { result: outcome, reasons: outcome === 'pass' ? [] : ['EPC000102 did not trip'] },
    note: '',
    syncId: null,
    configurationName: 'Loader 7',
    at: new Date('2026-06-01T10:00:01.000Z'),
  });
}

async function serviceState(world: World): Promise<{ chain: unknown[]; keys: unknown[] }> {
  const db = world.service!.db;
  const chain = (await db.query('SELECT org_seq, entry_hash, org_hash FROM ledger_entries ORDER BY org_seq')).rows;
  const keys = (await db.query('SELECT * FROM workstation_keys ORDER BY public_key')).rows;
  return { chain, keys };
}

describe('a forged ledger entry', () => {
  it(
    "signed by a fresh key under this workstation's id fails verify offline and online, and the service refuses it",
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('ledger-forgery');
      await logInCli(w);
      const dataDir = join(w.home, 'data');
      const workstation = await workstationId(dataDir);
      const ledger = openWorkstationLedger(dataDir);
      const failed = await ledger.append(testRecord(w, workstation, 'fail'));

      const first = await w.cli(['--json', 'ledger', 'verify']);
      expect(first.code, first.stderr + first.stdout).toBe(0);
      expect(JSON.parse(first.stdout) as Verification).toMatchObject({
        ok: true,
        keys: { from: 'service', count: 1 },
        service: { sent: { received: 1 }, chain: { ok: true, entries: 1 } },
      });
      const enrolled = (await serviceState(w)).keys as Array<{
        workstation: string;
        public_key: string;
        enrolled_by: string;
      }>;
      expect(enrolled.map((k) => [k.workstation, k.public_key])).toEqual([[workstation, await ledger.signerKey()]]);
      expect(enrolled[0]!.enrolled_by).toEqual(expect.any(String));
      const before = await serviceState(w);

      // The forgery: the project's own entry code, a key made now, linked to the real failure.
      const attackerPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const forged: LedgerEntry = signLedgerEntry(
        {
          ...bodyOf(failed),
          ...testRecord(w, workstation, 'pass'),
          seq: failed.seq + 1,
          prevHash: failed.hash,
          signerKey: ledgerSignerKeyOf(attackerPem),
        },
        attackerPem,
      );
      const ledgerBytesBefore = await readFile(ledger.path);
      await appendFile(ledger.path, `${JSON.stringify(forged)}\n`);

      const offline = await w.cli(['--json', 'ledger', 'verify', '--local']);
      expect(offline.code).toBe(1);
      const offlineResult = JSON.parse(offline.stdout) as Verification;
      // The list of enrolled keys kept by the first verify, checked against the root key, offline.
      expect(offlineResult.keys).toMatchObject({ from: 'kept', count: 1 });
      expect(offlineResult.local.broken).toMatchObject({ line: 2, seq: 2 });
      expect(offlineResult.local.broken?.reason).toMatch(
        new RegExp(`names workstation ${workstation} but is signed by key .*not that workstation's enrolled key`),
      );
      const words = await w.cli(['ledger', 'verify', '--local']);
      expect(words.stdout).toMatch(/BROKEN at entry 2 at line 2/);

      const online = await w.cli(['--json', 'ledger', 'verify']);
      expect(online.code).toBe(1);
      const onlineResult = JSON.parse(online.stdout) as Verification;
      expect(onlineResult.local.ok).toBe(false);
      // Not sent: only what this workstation's key signed goes to the service.
      expect(onlineResult.service).toMatchObject({
        sent: { received: 0, known: 1, withheld: 1 },
        chain: { ok: true, entries: 1 },
      });

      // Posted straight to the service with the technician's own key: refused.
      const response = await fetch(`${w.url}/v1/organizations/${w.orgId}/ledger/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entries: [forged] }),
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { errors: Array<{ code: string }> }).errors.map((e) => e.code)).toEqual([
        'LEDGER_KEY_NOT_ENROLLED',
      ]);

      // Nothing changed on the service; the ledger file holds only what was appended to it.
      expect(await serviceState(w)).toEqual(before);
      expect((await readFile(ledger.path)).subarray(0, ledgerBytesBefore.length)).toEqual(ledgerBytesBefore);

      // Entries cut from the end: the forgery taken out, a real entry appended, then cut as well. The
      // chain that is left holds link by link; the head sealed in the secret store does not match it.
      await writeFile(ledger.path, ledgerBytesBefore);
      await ledger.append(testRecord(w, workstation, 'pass'));
      await writeFile(ledger.path, ledgerBytesBefore);
      const cut = await w.cli(['--json', 'ledger', 'verify', '--local']);
      expect(cut.code).toBe(1);
      expect((JSON.parse(cut.stdout) as Verification).local.broken?.reason).toMatch(
        /reached entry 2 .* the file ends at entry 1: entries were cut from the end/,
      );
    },
  );
});
