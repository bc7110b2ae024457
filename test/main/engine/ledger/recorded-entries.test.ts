import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../../../domain/ledger';
import {
  configurationConfirmation,
  firmwareConfirmation,
  jobResultAt,
  type ConfirmationAddress,
} from '../../../../main/engine/jobs/confirm';
import {
  confirmationLedger,
  confirmationOfEntry,
  withLedgerHash,
  type FirmwareImageFacts,
} from '../../../../main/engine/ledger/confirmation-ledger';
import { Ledger } from '../../../../main/engine/ledger/ledger';
import type { NewConfirmation } from '../../../../main/engine/outbox/outbox-entry';
import { FileSecretStore } from '../../../../platform/secret-store';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * What an interrupted job recorded, read back from the ledger (main/engine/jobs/recorded-outcome.ts):
 * the entries since the job began, found from the file's end, and the confirmation each stands for,
 * said as the job said it, so that the service takes it for a replay when it had it already.
 */

const scratch = useScratchDirPerTest('recorded-entries');

function ledger(): Ledger {
  return new Ledger({
    dir: join(scratch.dir, 'ledger'),
    secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')),
  });
}

function verifyAt(at: Date, serialNumber: string): LedgerRecord {
  return {
    at: at.toISOString(),
    action: 'verify',
    outcome: 'success',
    serialNumber,
    workstation: 'ws-1',
    // Long enough that the entries fill several of the backward reader's 64 KiB chunks.
    facts: { state: 'in-sync', note: 'x'.repeat(1500) },
  };
}

describe('the entries recorded since a time', () => {
  it('are those of that time or later, oldest first, past one a late process appended out of time order, from a ledger of several chunks', async () => {
    const kept = ledger();
    const start = Date.parse('2026-11-28T08:00:00.000Z');
    // 60 entries a minute apart: about 140 KiB.
    for (let i = 0; i < 60; i += 1) await kept.append(verifyAt(new Date(start + i * 60_000), `EPC${100_000 + i}`));
    const since = new Date(start + 57 * 60_000);
    // A process that waited for the lock appends an entry timed before `since`, and another follows.
    await kept.append(verifyAt(new Date(since.getTime() - 30_000), 'EPC999998'));
    await kept.append(verifyAt(new Date(start + 60 * 60_000), 'EPC999999'));

    const found = await kept.entriesSince(since);
    expect(found.map((e) => e.serialNumber)).toEqual(['EPC100057', 'EPC100058', 'EPC100059', 'EPC999999']);
    expect(found.map((e) => e.seq)).toEqual([58, 59, 60, 62]);

    expect(await kept.entriesSince(new Date(start + 61 * 60_000))).toEqual([]);
    expect(await kept.entriesSince(new Date(start))).toHaveLength(62);
  });

  it('are none in a ledger not yet written', async () => {
    expect(await ledger().entriesSince(new Date(0))).toEqual([]);
  });

  it('are read through the confirmation ledger the engine gives its jobs', async () => {
    const kept = ledger();
    const confirmed = confirmationLedger(kept, async () => ({ workstation: 'ws-1' }));
    const at = new Date('2026-11-28T09:00:00.000Z');
    await kept.append(verifyAt(at, 'EPC000101'));
    expect((await confirmed.recordedSince!(at)).map((e) => e.serialNumber)).toEqual(['EPC000101']);
  });
});

describe('the confirmation a ledger entry stands for', () => {
  const address: ConfirmationAddress = { serviceUrl: 'https://dcms.example', orgId: 'org-1', workstation: 'ws-1' };
  const at = new Date('2026-11-28T10:00:00.000Z');
  const image: FirmwareImageFacts = {
    imageSha256: 'ab'.repeat(32),
    signingKeyId: 'cd'.repeat(16),
    signingKeyName: 'release 2026',
  };
  const syncId = '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f';
  const cases: Array<[string, NewConfirmation, FirmwareImageFacts?]> = [
    [
      'a firmware install',
      firmwareConfirmation(address, 'EPC000101', { success: true, version: '1.1.0' }, jobResultAt(at)),
      image,
    ],
    [
      'a failed firmware install of no known version',
      firmwareConfirmation(
        address,
        'EPC000101',
        { success: false, version: null, error: 'no bundle' },
        jobResultAt(at),
      ),
    ],
    [
      'a configuration apply',
      configurationConfirmation(address, 'EPC000101', { success: true, syncId }, jobResultAt(at)),
    ],
    [
      'a failed configuration apply judged after an interruption',
      configurationConfirmation(
        address,
        'EPC000101',
        { success: false, syncId, error: 'Interrupted: it held no configuration' },
        { appliedAt: new Date(at.getTime() - 60_000), observedAt: at, reason: 'job-result' },
      ),
    ],
  ];

  it.each(cases)('is the one written with the entry, field for field, with its hash: %s', async (_, sent, facts) => {
    const kept = ledger();
    const written = await withLedgerHash(
      confirmationLedger(kept, async () => ({ workstation: 'ws-1' })),
      sent,
      facts,
    );
    const [entry] = await kept.entries();
    expect(written.payload.ledgerHash).toBe(entry!.hash);
    expect(confirmationOfEntry(entry!)).toEqual(written);
  });

  it('is none for an entry of another action, or one without its service', async () => {
    const kept = ledger();
    const verify = await kept.append(verifyAt(at, 'EPC000101'));
    expect(confirmationOfEntry(verify)).toBeNull();
    const { serviceUrl: _omitted, ...unaddressed } = await kept.append({
      at: at.toISOString(),
      action: 'firmware-install',
      outcome: 'success',
      serialNumber: 'EPC000101',
      workstation: 'ws-1',
      facts: { firmwareVersion: '1.1.0', appliedAt: at.toISOString() },
    });
    expect(confirmationOfEntry(unaddressed)).toBeNull();
  });
});
