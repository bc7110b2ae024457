import { describe, expect, it } from 'vitest';
import { ledgerEntries, worldPerTest } from '../../app/jobs/helpers/world';
import { applyConfiguration } from './helpers/applied-configuration';

/** `device verify` is a provisioning action the ledger keeps: who looked, when, and what was seen. */

const startWorld = worldPerTest();

describe('device verify in the ledger', () => {
  it('records an in-sync verify as a success and a behind one as a failure with what was seen, and the service keeps both', { timeout: 300_000 }, async () => {
    const w = await startWorld('verify-ledger');
    const { configurationId } = await applyConfiguration(w, [{ serialNumber: 'EPC000101' }]);

    const inSync = await w.cli(['device', 'verify', 'EPC000101']);
    expect(inSync.code, inSync.stderr).toBe(0);
    await w.client.configurations.update(configurationId, { timeoutConfiguration: '1000ms' });
    const behind = await w.cli(['device', 'verify', 'EPC000101']);
    expect(behind.code).toBe(1);

    const entries = await ledgerEntries(w);
    expect(entries.map((e) => [e.action, e.outcome])).toEqual([
      ['configuration-apply', 'success'],
      ['verify', 'success'],
      ['verify', 'failure'],
    ]);
    expect(entries[1]!.facts).toMatchObject({ state: 'in-sync', syncId: entries[0]!.facts.syncId });
    expect(entries[2]!.facts.state).not.toBe('in-sync');
    expect(entries[2]!.error).toMatch(/configuration/);

    const { rows } = await w.service!.db.query<{ action: string }>("SELECT entry->>'action' AS action FROM ledger_entries WHERE serial_number = 'EPC000101' ORDER BY org_seq");
    expect(rows.map((r) => r.action)).toEqual(['configuration-apply', 'verify', 'verify']);
  });
});
