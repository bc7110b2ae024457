import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GENESIS_HASH,
  LEDGER_FORMAT,
  ledgerSignerKeyOf,
  signLedgerEntry,
  type LedgerEntry,
} from '../../../domain/ledger';
import { workstationKeyFault } from '../../../domain/workstation-keys';
import { migrate } from '../../../server/db/migrate';
import { MIGRATIONS } from '../../../server/db/migrations';
import { openPglite } from '../../../server/db/pglite';
import { appendLedgerEntries } from '../../../server/store/ledger';
import { listWorkstationKeys } from '../../../server/store/workstation-keys';

/**
 * A service upgraded with entries in its chain from before keys were enrolled: migration 12 enrols
 * the keys that signed them, so the organization's chain still verifies entry by entry.
 */

function keyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function entry(workstation: string, seq: number, prevHash: string, pem: string): LedgerEntry {
  return signLedgerEntry(
    {
      format: LEDGER_FORMAT,
      seq,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      action: 'verify',
      outcome: 'success',
      serialNumber: 'EPC000101',
      workstation,
      orgId: 'acme',
      facts: {},
      prevHash,
      signerKey: ledgerSignerKeyOf(pem),
    },
    pem,
  );
}

describe('migration 12', () => {
  it("enrols the keys of the entries already received: a workstation's latest key active, an earlier one ended after its entries", async () => {
    const db = await openPglite(await mkdtemp(join(tmpdir(), 'pv-backfill-')));
    try {
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 11),
      );
      await db.query("INSERT INTO organizations (id, name, region) VALUES ('acme', 'Acme', 'EU')");
      const [oldKey, newKey, otherKey] = [keyPem(), keyPem(), keyPem()];
      const a1 = entry('ws-a', 1, GENESIS_HASH, oldKey);
      const a2 = entry('ws-a', 2, a1.hash, oldKey);
      const a3 = entry('ws-a', 3, a2.hash, newKey);
      const b1 = entry('ws-b', 1, GENESIS_HASH, otherKey);
      await appendLedgerEntries(db, 'acme', [a1, a2, b1, a3]);

      await migrate(db);
      const keys = await listWorkstationKeys(db, 'acme');
      expect(keys.map((k) => [k.workstation, k.publicKey, k.status, k.validThroughSeq]).sort()).toEqual(
        [
          ['ws-a', ledgerSignerKeyOf(oldKey), 'rotated', 2],
          ['ws-a', ledgerSignerKeyOf(newKey), 'active', null],
          ['ws-b', ledgerSignerKeyOf(otherKey), 'active', null],
        ].sort(),
      );
      for (const received of [a1, a2, a3, b1]) expect(workstationKeyFault(received, keys)).toBeUndefined();
      // The old key signs nothing new.
      expect(workstationKeyFault(entry('ws-a', 4, a3.hash, oldKey), keys)).toMatch(/replaced by a rotation/);
    } finally {
      await db.close();
    }
  });
});
