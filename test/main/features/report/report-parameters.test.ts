import { describe, expect, it } from 'vitest';
import {
  compareParameters,
  intendedParameters,
  parameterChecksum,
  type ParameterValues,
} from '../../../../domain/running-parameters';
import { parameterVerificationRecord } from '../../../../main/engine/jobs/parameter-check';
import { reportParametersOf } from '../../../../main/features/report/report-parameters';
import { signedLedgerEntry } from '../../../fixtures/ledger';

/** The report's parameter section is made from the ledger entries alone: the table, both checksums, who confirmed, the tool. */

const intended = intendedParameters({
  serialNumber: 'EPC000101',
  device: { deviceConfigurationType: 'Sender', commInterface: 'Ethernet' },
  peers: [{ serialNumber: 'EPC000102', deviceConfigurationType: 'Receiver' }],
  safety: { timeoutConfiguration: '500ms' },
});
const tool = { name: 'Provisioner', version: '0.1.0', build: 'commit 0123456789abcdef0123456789abcdef01234567' };

function verification(running: ParameterValues, confirmedBy: string | null) {
  const comparison = compareParameters(intended, {
    values: running,
    checksum: parameterChecksum(running),
    checksumBy: 'device',
  });
  const record = parameterVerificationRecord({
    serialNumber: 'EPC000101',
    syncId: 'sync-1',
    comparison,
    workstation: 'bench-3',
    tool,
    person: confirmedBy,
    link: 'serial:/dev/pts/4',
    confirmation: confirmedBy === null ? null : { person: confirmedBy, at: new Date('2026-11-28T17:00:00Z') },
    at: new Date('2026-11-28T17:00:00Z'),
  });
  return signedLedgerEntry(record);
}

describe('reportParametersOf', () => {
  it('prints the confirmed table with both checksums, the person and the tool', () => {
    const apply = signedLedgerEntry({ action: 'configuration-apply', outcome: 'success' });
    const confirmed = verification(intended, 'Ada Lovelace');
    const later = verification(intended, null);
    const p = reportParametersOf([apply, confirmed, later], 'EPC000101');
    expect(p).toMatchObject({
      match: true,
      confirmedBy: 'Ada Lovelace',
      confirmedAt: '2026-11-28T17:00:00.000Z',
      workstation: 'bench-3',
      ledgerHash: confirmed.hash,
    });
    expect(p!.tool).toBe('Provisioner 0.1.0 (commit 0123456789abcdef0123456789abcdef01234567)');
    expect(p!.intendedChecksum).toBe(p!.runningChecksum);
    expect(p!.rows.find((row) => row.key === 'safety.timeout')).toEqual({
      key: 'safety.timeout',
      label: 'Safety timeout',
      unit: 'ms',
      intended: 500,
      running: 500,
      match: true,
    });
  });

  it('shows a difference, never confirmed, and nothing from before the last apply', () => {
    const bad = verification({ ...intended, 'safety.timeout': 1024 }, 'Ada Lovelace');
    const p = reportParametersOf(
      [signedLedgerEntry({ action: 'configuration-apply', outcome: 'success' }), bad],
      'EPC000101',
    );
    expect(p).toMatchObject({ match: false, confirmedBy: null });
    expect(p!.rows.filter((row) => !row.match).map((row) => [row.key, row.intended, row.running])).toEqual([
      ['safety.timeout', 500, 1024],
    ]);
    expect(
      reportParametersOf([bad, signedLedgerEntry({ action: 'configuration-apply', outcome: 'success' })], 'EPC000101'),
    ).toBeNull();
  });
});
