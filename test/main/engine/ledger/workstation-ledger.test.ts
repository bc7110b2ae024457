import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../../../domain/ledger';
import { FileSecretStore, type SecretStore } from '../../../../platform/secret-store';
import { LEDGER_KEY_SECRET, openWorkstationLedger } from '../../../../main/engine/ledger';
import { useScratchDir } from '../../../fixtures/scratch';

const scratch = useScratchDir('workstation-ledger');

/** The host's own store (the desktop app's OS key store), kept in memory. */
function hostStore(): SecretStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => void values.set(name, value),
    delete: async (name) => void values.delete(name),
  };
}

const record: LedgerRecord = {
  at: '2026-11-25T10:00:00.000Z',
  action: 'verify',
  outcome: 'success',
  serialNumber: 'EPC000101',
  workstation: 'ws-test-0001',
  facts: {},
};

describe('the workstation ledger’s key', () => {
  it('is kept in the host’s secret store when it has one, not in the data directory', async () => {
    const dataDir = join(scratch.dir, 'host-store');
    const store = hostStore();
    await openWorkstationLedger(dataDir, undefined, store).append(record);
    expect(store.values.get(LEDGER_KEY_SECRET)).toContain('ed25519');
    expect(await new FileSecretStore(join(dataDir, 'secrets.json')).get(LEDGER_KEY_SECRET)).toBeNull();
  });

  it('moves a key an earlier version left in the data directory to the host’s store, and signs on with it', async () => {
    const dataDir = join(scratch.dir, 'adopted');
    const before = await openWorkstationLedger(dataDir).append(record);
    const file = new FileSecretStore(join(dataDir, 'secrets.json'));
    const left = await file.get(LEDGER_KEY_SECRET);
    expect(left).toContain('ed25519');

    const store = hostStore();
    const after = await openWorkstationLedger(dataDir, undefined, store).append(record);
    expect(after.signerKey).toBe(before.signerKey);
    expect(after.prevHash).toBe(before.hash);
    expect(store.values.get(LEDGER_KEY_SECRET)).toBe(left);
    expect(await file.get(LEDGER_KEY_SECRET)).toBeNull();
  });
});
