import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ConfigurationRecord, DeviceRecord } from '../../../../domain';
import type { LedgerRecord } from '../../../../domain/ledger';
import { compareParameters, intendedParameters, parameterChecksum } from '../../../../domain/running-parameters';
import { parameterVerificationRecord } from '../../../../main/app/jobs/parameter-check';
import { Ledger } from '../../../../main/app/ledger';
import { buildCommissioningReport, renderReportPdf } from '../../../../main/app/report';
import { FileSecretStore } from '../../../../platform/secret-store';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * The PDF a technician signs (issue 32), read back with poppler's pdftotext: people's words in
 * the body (statuses, times with their zone, who did the work), a sign-off block, and the exact
 * values (entry hashes, image SHA-256, syncIds) only in the appendix, with how to check them.
 */

const run = promisify(execFile);
const scratch = useScratchDir('report-pdf');
const HERE = 'ws-bench-3';
const IMAGE = 'ab'.repeat(32);
const SYNC = '8a179902-2abb-4d5f-ac0b-d3c8960396a2';
const intended = intendedParameters({
  serialNumber: 'EPC000101',
  device: { deviceConfigurationType: 'Sender', commInterface: 'Ethernet' },
  peers: [{ serialNumber: 'EPC000102', deviceConfigurationType: 'Receiver' }],
  safety: { timeoutConfiguration: '500ms' },
});

function at(minute: number): string {
  return new Date(Date.UTC(2026, 10, 28, 17, minute)).toISOString();
}

function entry(action: LedgerRecord['action'], minute: number, facts: LedgerRecord['facts'], serialNumber = 'EPC000101'): LedgerRecord {
  return { at: at(minute), action, outcome: 'success', serialNumber, workstation: HERE, actor: 'bench key', facts };
}

function device(serialNumber: string, deployStatus: string, deployedSyncId: string | null): DeviceRecord {
  return { serialNumber, name: serialNumber, deviceType: 'EPC', model: 'EPC-300 endpoint controller', firmwareVersion: '1.1.0', deployStatus, deployedSyncId, lastConfigurationApply: null, lastFirmwareApply: null } as unknown as DeviceRecord;
}

async function pdfText(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(scratch.dir, name);
  await writeFile(path, bytes);
  // To look at it: PROVISIONER_KEEP_REPORT=/tmp/report.pdf npx vitest run test/main/app/report/report-pdf.test.ts
  if (process.env.PROVISIONER_KEEP_REPORT) await writeFile(process.env.PROVISIONER_KEEP_REPORT, bytes);
  return (await run('pdftotext', ['-layout', path, '-'])).stdout;
}

describe('the commissioning report PDF', () => {
  it('reads in words, names the technician, ends with a sign-off and keeps the exact values in the appendix', async () => {
    const ledger = new Ledger({ dir: join(scratch.dir, 'ledger'), secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')) });
    const install = await ledger.append(entry('firmware-install', 0, { firmwareVersion: '1.1.0', imageSha256: IMAGE, signingKeyId: '81ec776d3ea0512b1c5b0927c76a7a02', signingKeyName: 'default release key' }));
    const apply = await ledger.append(entry('configuration-apply', 5, { syncId: SYNC }));
    const comparison = compareParameters(intended, { values: intended, checksum: parameterChecksum(intended), checksumBy: 'device' });
    const tool = { name: 'Provisioner', version: '0.1.0', build: 'commit 25ff31afec848946c9d34235acf09354d00b156f' };
    const confirmation = { person: 'Ada Lovelace', at: new Date(at(6)) };
    const verified = await ledger.append(
      parameterVerificationRecord({ serialNumber: 'EPC000101', syncId: SYNC, comparison, workstation: HERE, actor: 'bench key', tool, person: 'Ada Lovelace', link: 'serial:/dev/pts/4', confirmation, at: new Date(at(6)) }),
    );
    const test = await ledger.append(entry('function-test', 9, { result: 'pass', note: 'cabinet 3', receivers: 'EPC000102 9 ms', maxReactionMs: 9 }));
    const report = await buildCommissioningReport({
      configuration: { id: 'da5b5bcd-00db-4358-a7b0-be3e103bd04b', name: 'Conveyor 2 stations', timeoutConfiguration: '500ms' } as unknown as ConfigurationRecord,
      devices: [device('EPC000101', 'Deployed', SYNC), device('EPC000102', 'NotDeployed', null)],
      ledger: await ledger.readAll(),
      signerKey: await ledger.signerKey(),
      firmware: async () => undefined,
      workstation: HERE,
      service: 'organization demo at http://127.0.0.1:1',
      orgId: 'demo',
      now: new Date(at(15)),
      timeZone: 'UTC',
    });
    // The JSON keeps every exact value, and names who did the work and each entry's number.
    expect(report.timeZone).toBe('UTC');
    expect(report.people).toEqual([
      { name: 'Ada Lovelace', role: 'confirmed the parameters', serialNumbers: ['EPC000101'] },
      { name: 'bench key', role: 'signed in', serialNumbers: ['EPC000101'] },
    ]);
    expect(report.devices[0]!.ledgerEntries.map((e) => [e.step, e.seq, e.hash])).toEqual([
      ['firmware install', install.seq, install.hash],
      ['configuration apply', apply.seq, apply.hash],
      ['parameter verification', verified.seq, verified.hash],
      ['function test', test.seq, test.hash],
    ]);
    expect(report.devices[0]!.functionTest.by).toBe('bench key');

    const text = await pdfText('report.pdf', await renderReportPdf(report));
    const [body, appendix] = text.split('Appendix: exact values, to check against the ledger');
    expect(appendix, 'the PDF has an appendix').toBeDefined();
    const words = body!.replace(/\s+/g, ' ');

    // No raw values in the running text.
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(body).not.toMatch(/[0-9a-f]{32}/);
    expect(body).not.toContain(SYNC);
    expect(body).not.toContain('NotDeployed');
    expect(body).not.toContain('none applied');
    // Statuses and times as a person reads them.
    expect(words).toContain('Configuration: Deployed, applied 28 Nov 2026, 17:05 UTC on this workstation, signed in as "bench key".');
    expect(words).toContain('Configuration: Not yet applied; no configuration applied yet.');
    expect(words).toContain('Firmware: version 1.1.0, installed 28 Nov 2026, 17:00 UTC, signed in as "bench key"; signed by release key "default release key".');
    expect(words).toContain('Parameters: verified, confirmed by Ada Lovelace on 28 Nov 2026, 17:06 UTC.');
    expect(words).toContain('Function test: PASSED on 28 Nov 2026, 17:09 UTC on this workstation, signed in as "bench key".');
    expect(words).toContain('Made 28 Nov 2026, 17:15 UTC on this workstation');
    expect(words).toContain('Result 1 of 2 devices commissioned');
    // The technician, and the sign-off block for both signers with the technician's name filled in.
    expect(words).toContain('Work done by Ada Lovelace (confirmed the parameters of EPC000101); signed in to the service as "bench key" (EPC000101)');
    const signOff = body!.slice(body!.indexOf('Sign-off'));
    expect(signOff).toMatch(/Work done by \(technician\)\s+Accepted by/);
    expect(signOff).toMatch(/Name:\s+Ada Lovelace\s+Name:/);
    expect(signOff.match(/Date:/g)).toHaveLength(2);
    expect(signOff.match(/Signature:/g)).toHaveLength(2);

    // The appendix: how to check, and each exact value in full.
    const exact = appendix!.replace(/\s+/g, ' ');
    expect(exact).toContain('provisioner ledger verify --entry HASH --entry HASH');
    expect(exact).toContain(`made from its head: entry ${test.seq}, hash ${test.hash}`);
    for (const e of [install, apply, verified, test]) expect(appendix).toMatch(new RegExp(`Ledger entry ${e.seq}: .*${e.hash}`));
    expect(appendix).toContain(IMAGE);
    expect(appendix).toContain(SYNC);
    expect(appendix).toContain('default release key (81ec776d3ea0512b1c5b0927c76a7a02)');
    expect(exact).toContain('2026-11-28T17:15:00.000Z');
    expect(exact).toContain('none: no configuration applied yet');
    // Every page says which report it belongs to and how many pages it has.
    expect(text).toMatch(/Commissioning report: Conveyor 2 stations - page 1 of \d/);
  });
});
