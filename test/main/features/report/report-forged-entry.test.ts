import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bodyOf, ledgerSignerKeyOf, signLedgerEntry, type LedgerRecord } from '../../../../domain/ledger';
import type { ConfigurationRecord } from '../../../../domain';
import type { DeviceRecord } from '../../../../domain';
import { FileSecretStore } from '../../../../platform/secret-store';
import { Ledger } from '../../../../main/engine/ledger';
import { buildCommissioningReport, renderReportPdf } from '../../../../main/features/report';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * A "function test passed" signed with a fresh key and linked after a real failed test: the report
 * takes none of it, so the device stays not commissioned, and the report says its ledger is broken.
 */

const scratch = useScratchDir('report-forged');
const SERIAL = 'EPC000101';

function record(action: LedgerRecord['action'], outcome: LedgerRecord['outcome']): LedgerRecord {
  const facts: LedgerRecord['facts'] =
    action === 'configuration-apply'
      ? { syncId: 'a' }
      : action === 'parameter-verification'
        ? { confirmedBy: 'Ada Lovelace' }
        : { result: outcome === 'success' ? 'pass' : 'fail' };
  return { at: new Date().toISOString(), action, outcome, serialNumber: SERIAL, workstation: 'ws-report-1', facts };
}

describe('the commissioning report and a forged ledger entry', () => {
  it("leaves out an entry not signed by this workstation's key", async () => {
    const dir = join(scratch.dir, 'ledger');
    const ledger = new Ledger({ dir, secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')) });
    await ledger.append(record('configuration-apply', 'success'));
    await ledger.append(record('parameter-verification', 'success'));
    const failed = await ledger.append(record('function-test', 'failure'));
    const attackerPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const forged = signLedgerEntry(
      {
        ...bodyOf(failed),
        ...record('function-test', 'success'),
        seq: failed.seq + 1,
        prevHash: failed.hash,
        signerKey: ledgerSignerKeyOf(attackerPem),
      },
      attackerPem,
    );
    const lines = [...(await ledger.readAll()), { line: 4, entry: forged }];
    const device = {
      serialNumber: SERIAL,
      name: SERIAL,
      deviceType: 'EPC',
      model: 'EPC-300',
      firmwareVersion: '1.1.0',
      deployStatus: 'Deployed',
      deployedSyncId: 'a',
      lastConfigurationApply: null,
      lastFirmwareApply: null,
    } as unknown as DeviceRecord;
    const sources = {
      configuration: { id: 'c', name: 'Loader 7' } as unknown as ConfigurationRecord,
      devices: [device],
      ledger: lines,
      firmware: async () => undefined,
      workstation: 'ws-report-1',
      service: 'http://127.0.0.1',
      orgId: 'demo',
      now: new Date(),
    };

    // Without this workstation's key the forgery would count (what the report did before).
    const fooled = await buildCommissioningReport(sources);
    expect(fooled.devices[0]!.commissioning).toBe('commissioned');

    const report = await buildCommissioningReport({ ...sources, signerKey: await ledger.signerKey() });
    expect(report.devices[0]!.commissioning).not.toBe('commissioned');
    expect(report.devices[0]!.functionTest.result).toBe('fail');
    expect(report.ledger.intact).toBe(false);
    expect(report.ledger.broken).toMatch(/entry 4 at line 4 .*not by this workstation's key/);

    // The PDF says so in words on its first page; the entry's hash is left to the appendix.
    const path = join(scratch.dir, 'forged.pdf');
    await writeFile(path, await renderReportPdf(report));
    const text = (await promisify(execFile)('pdftotext', ['-layout', path, '-'])).stdout;
    const [body, appendix] = text.split('Appendix: exact values, to check against the ledger');
    expect(body!.replace(/\s+/g, ' ')).toMatch(
      /Ledger BROKEN at entry 4 at line 4: it is signed by key …\S+, not by this workstation's key .*: that entry and the ones before it are not proven/,
    );
    expect(body).not.toContain(forged.hash.slice(0, 12));
    expect(appendix!.replace(/\s+/g, ' ')).toContain(
      `The ledger is BROKEN at entry 4 at line 4 (hash ${forged.hash.slice(0, 12)}…)`,
    );
  });
});
