import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerVerifyProgress } from '../../../contract/ledger';
import { createServiceClient } from '../../../main/cloud';
import { LOCAL_WORKSPACE_SERVICE, type CliCore, type CliCoreOptions } from '../../../main/core';
import { workstationId } from '../../../main/engine/jobs/workstation';
import { LEDGER_FILE, openWorkstationLedger } from '../../../main/engine/ledger';
import { cliCoreFor } from '../../fixtures/cli-core';
import { appendThreeFunctionTests } from '../../fixtures/ledger';

/**
 * Issue 27: the CLI's `ledger verify|enrol|revoke` through the door (createCliCore's `ledger.*`
 * channels). The check runs on a real ledger in a data directory, with its progress as events; a
 * changed entry is named through the channel; input that cannot be right is refused before any
 * account is asked for. The service asked is a loopback port nobody listens on: a real refused
 * connection.
 */

const NOBODY_LISTENS = 'http://127.0.0.1:9';

let dataDir = '';
let core: CliCore | undefined;
/** How often a channel asked for the account. */
let settled = 0;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-core-ledger-'));
  settled = 0;
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

function cliCore(serviceUrl = NOBODY_LISTENS, more: Partial<CliCoreOptions> = {}): CliCore {
  core = cliCoreFor(dataDir, undefined, {
    settleAccount: async () => {
      settled += 1;
      return {
        client: createServiceClient({ baseUrl: NOBODY_LISTENS, orgId: 'org-1', apiKey: 'k' }),
        serviceUrl,
        orgId: 'org-1',
      };
    },
    ...more,
  });
  return core;
}

/** Three function tests in this data directory's ledger, by this workstation, signed by its key. */
async function threeEntries() {
  const ledger = openWorkstationLedger(dataDir);
  const workstation = await workstationId(dataDir);
  return { workstation, appended: await appendThreeFunctionTests(ledger, workstation) };
}

describe("the CLI core's ledger channels", () => {
  it('ledger.verify checks the local chain, drawing its progress, and finds entries by hash', async () => {
    const { workstation, appended } = await threeEntries();
    const ledgerCore = cliCore();
    const progress: LedgerVerifyProgress[] = [];
    const stop = ledgerCore.subscribe('ledger.verifyProgress', (p) => progress.push(p));
    const result = await ledgerCore.invoke('ledger.verify', {
      local: true,
      entries: [appended[2]!.hash, 'f'.repeat(64)],
    });
    stop();
    expect(result).toMatchObject({ ok: false, workstation, local: { ok: true, entries: 3 } });
    expect(result.local.head).toBe(appended[2]!.hash);
    expect(result.local.path).toBe(join(dataDir, 'ledger', LEDGER_FILE));
    expect(result.keys).toMatchObject({ from: 'none' });
    expect(result.service).toBeUndefined();
    // The missing hash is why it does not hold; the one in the ledger holds.
    expect(result.entries!.map((e) => [e.found, e.holds])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(progress[0]).toEqual({ stage: 'read' });
    expect(progress.at(-1)).toEqual({ stage: 'local', checked: 3, total: 3 });
    expect(progress.some((p) => p.stage === 'service')).toBe(false);
    // --local asks for no account.
    expect(settled).toBe(0);
  });

  it('ledger.verify names the entry whose byte was changed, and every entry after it is unproven', async () => {
    const { appended } = await threeEntries();
    const file = join(dataDir, 'ledger', LEDGER_FILE);
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    // The failed test becomes a pass in the file, its hash kept.
    lines[1] = lines[1]!.replace('"outcome":"failure"', '"outcome":"success"');
    expect(lines.join('\n')).not.toBe(text);
    await writeFile(file, lines.join('\n'));
    const result = await cliCore().invoke('ledger.verify', {
      local: true,
      entries: appended.map((entry) => entry.hash),
    });
    expect(result.ok).toBe(false);
    expect(result.local.ok).toBe(false);
    expect(result.local.broken).toMatchObject({ line: 2, seq: appended[1]!.seq });
    expect(result.local.broken!.reason).toMatch(/\S/);
    expect(result.entries!.map((e) => e.holds)).toEqual([true, false, false]);
  });

  it('ledger.verify with a service says what went wrong there, and the check does not hold', async () => {
    await threeEntries();
    const progress: LedgerVerifyProgress['stage'][] = [];
    const ledgerCore = cliCore();
    ledgerCore.subscribe('ledger.verifyProgress', (p) => progress.push(p.stage));
    const result = await ledgerCore.invoke('ledger.verify', {});
    expect(settled).toBe(1);
    expect(result.local.ok).toBe(true);
    expect(result.service).toMatchObject({ error: expect.stringMatching(/\S/) });
    expect(result.ok).toBe(false);
    // None of these entries is the account's, so none was sent: the organization's chain was asked for, and not read.
    expect(result.service).not.toHaveProperty('sent');
    expect(progress).toEqual(['read', 'local', 'local', 'local', 'local', 'service']);
  });

  it('refuses input that cannot be right, saying what is wrong, before an account is asked for', async () => {
    const ledgerCore = cliCore();
    await expect(ledgerCore.invoke('ledger.verify', { entries: ['not-a-hash'] })).rejects.toThrow(
      /entries\.0: not a ledger entry hash/,
    );
    await expect(ledgerCore.invoke('ledger.revoke', { workstation: 'ws-1', reason: '   ' })).rejects.toThrow(
      /reason: say why the key is revoked/,
    );
    await expect(ledgerCore.invoke('ledger.revoke', { workstation: '', reason: 'stolen' })).rejects.toThrow(
      /workstation: name the workstation/,
    );
    await expect(
      ledgerCore.invoke('ledger.enrol', { rotate: 'yes' } as unknown as { rotate: boolean }),
    ).rejects.toThrow(/Invalid input for ledger\.enrol: rotate/);
    expect(settled).toBe(0);
  });

  it('ledger.enrol and ledger.revoke are refused for the local workspace, which keeps no workstation keys', async () => {
    const ledgerCore = cliCore(LOCAL_WORKSPACE_SERVICE);
    await expect(ledgerCore.invoke('ledger.enrol', {})).rejects.toThrow(/local workspace enrols nothing/);
    await expect(ledgerCore.invoke('ledger.revoke', { workstation: 'ws-1', reason: 'stolen' })).rejects.toThrow(
      /local workspace has no enrolled keys/,
    );
  });
});
