import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../../fixtures/scratch';
import { configurationConfirmation, firmwareConfirmation, jobResultAt } from '../../../../main/engine/jobs/confirm';
import { join } from 'node:path';
import { TEXT_LIMITS } from '../../../../domain/text-limits';
import { openWorkstationLedger } from '../../../../main/engine/ledger';
import {
  confirmationLedger,
  ledgerRecordOf,
  withLedgerHash,
  type FirmwareImageFacts,
} from '../../../../main/engine/ledger/confirmation-ledger';

const scratch = useScratchDir('confirmation-ledger');

/** What a confirmation's ledger entry says: for a firmware install, the image and its signer too. */

const address = { serviceUrl: 'https://dcms.example', orgId: 'org-1', workstation: 'ws-1' };
const at = new Date('2026-11-25T10:00:00Z');
const image: FirmwareImageFacts = {
  imageSha256: 'ab'.repeat(32),
  signingKeyId: 'cd'.repeat(16),
  signingKeyName: 'release 2026',
};

describe('the ledger record of a confirmation', () => {
  it('names the installed image and the key that signed it', () => {
    const record = ledgerRecordOf(
      firmwareConfirmation(address, 'EPC000101', { success: true, version: '1.1.0' }, jobResultAt(at)),
      { workstation: 'ws-1' },
      image,
    );
    expect(record).toMatchObject({ action: 'firmware-install', outcome: 'success', serialNumber: 'EPC000101' });
    expect(record.facts).toMatchObject({ firmwareVersion: '1.1.0', ...image });
  });

  it('keeps the image of a failed install too, and says nothing of an image it was not told', () => {
    const failed = ledgerRecordOf(
      firmwareConfirmation(
        address,
        'EPC000101',
        { success: false, version: '1.1.0', error: 'power lost' },
        jobResultAt(at),
      ),
      { workstation: 'ws-1' },
      image,
    );
    expect(failed).toMatchObject({
      outcome: 'failure',
      error: 'power lost',
      facts: { imageSha256: image.imageSha256 },
    });
    const unknown = ledgerRecordOf(
      firmwareConfirmation(
        address,
        'EPC000101',
        { success: false, version: null, error: 'no bundle' },
        jobResultAt(at),
      ),
      { workstation: 'ws-1' },
    );
    expect(Object.keys(unknown.facts)).not.toContain('imageSha256');
  });

  it("hands the image to the ledger with the confirmation, and the confirmation carries only the entry's hash and number (the ledger's head)", async () => {
    const seen: Array<FirmwareImageFacts | undefined> = [];
    const confirmation = firmwareConfirmation(
      address,
      'EPC000101',
      { success: true, version: '1.1.0' },
      jobResultAt(at),
    );
    const sent = await withLedgerHash(
      { record: async (_c, given) => (seen.push(given), { hash: 'ef'.repeat(32), seq: 7 }) },
      confirmation,
      image,
    );
    expect(seen).toEqual([image]);
    expect(sent.payload).toEqual({ ...confirmation.payload, ledgerHash: 'ef'.repeat(32), ledgerSeq: 7 });
  });

  it('records a failure with the longest error a confirmation carries, in a real ledger', async () => {
    // A device's error text clipped to the confirmation's limit must fit the ledger entry too, or
    // the ledger write fails and the confirmation goes out with no entry behind it.
    const long = 'E'.repeat(TEXT_LIMITS.applyError * 2);
    const confirmation = configurationConfirmation(
      address,
      'EPC000101',
      { success: false, syncId: 'ab'.repeat(16), error: long },
      jobResultAt(at),
    );
    expect(confirmation.payload.error).toHaveLength(TEXT_LIMITS.applyError);
    const ledger = openWorkstationLedger(join(scratch.dir, 'long-error'));
    const failures: unknown[] = [];
    const recorder = confirmationLedger(
      ledger,
      async () => ({ workstation: 'ws-1' }),
      (error) => failures.push(error),
    );
    const sent = await withLedgerHash(recorder, confirmation);
    expect(failures).toEqual([]);
    expect(sent.payload.ledgerHash).toMatch(/^[0-9a-f]{64}$/);
    const [entry] = await ledger.entries();
    expect(entry).toMatchObject({ hash: sent.payload.ledgerHash, error: confirmation.payload.error });
  });

  it('gives a configuration apply its syncId and no image', () => {
    const record = ledgerRecordOf(
      configurationConfirmation(address, 'EPC000101', { success: true, syncId: 'a-sync-id' }, jobResultAt(at)),
      { workstation: 'ws-1' },
    );
    expect(record.facts).toEqual({ syncId: 'a-sync-id', appliedAt: at.toISOString(), reason: 'job-result' });
  });
});
