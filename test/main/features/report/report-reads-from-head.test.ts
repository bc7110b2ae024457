import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ConfigurationRecord } from '../../../../domain';
import type { LedgerEntry, LedgerRecord } from '../../../../domain/ledger';
import { FileSecretStore } from '../../../../platform/secret-store';
import { Ledger } from '../../../../main/engine/ledger';
import { buildCommissioningReport, renderReportPdf, type CommissioningReport } from '../../../../main/features/report';
import { REPORT_SYNC, reportDeviceRecord } from '../../../fixtures/commissioning-report';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * The commissioning report reads the ledger from its head back only as far as its devices' last
 * firmware install and configuration apply (issue 30), and says so: "every link from entry K to the
 * head holds". Here 30 entries of other devices come first (entries 1–30), then the configuration's
 * two devices are installed, applied and tested (31–36). A change among the entries read makes the
 * report say the ledger is broken, as before; a change in entry 5 is not read (by design), the
 * report names entry 31 as where its check began, and `ledger verify` finds the change.
 */

const run = promisify(execFile);
const scratch = useScratchDirPerTest('report-from-head');
const HERE = 'ws-report-head';
const SERIALS = ['EPC000101', 'EPC000102'];

function record(action: LedgerRecord['action'], serialNumber: string, facts: LedgerRecord['facts'] = {}): LedgerRecord {
  return {
    at: new Date(Date.UTC(2026, 10, 28, 17, 0)).toISOString(),
    action,
    outcome: 'success',
    serialNumber,
    workstation: HERE,
    actor: 'bench key',
    facts,
  };
}

async function sampleLedger(): Promise<{ ledger: Ledger; entries: LedgerEntry[] }> {
  const ledger = new Ledger({
    dir: join(scratch.dir, 'ledger'),
    secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')),
  });
  const entries: LedgerEntry[] = [];
  for (let i = 0; i < 15; i += 1) {
    const other = `EPC0009${String(i).padStart(2, '0')}`;
    entries.push(await ledger.append(record('firmware-install', other, { firmwareVersion: '1.0.0' })));
    entries.push(await ledger.append(record('configuration-apply', other, { syncId: 'sync-old' })));
  }
  for (const serial of SERIALS) {
    entries.push(await ledger.append(record('firmware-install', serial, { firmwareVersion: '1.1.0' })));
    entries.push(await ledger.append(record('configuration-apply', serial, { syncId: REPORT_SYNC })));
    entries.push(await ledger.append(record('function-test', serial, { result: 'pass' })));
  }
  return { ledger, entries };
}

async function reportOf(ledger: Ledger, serials: readonly string[] = SERIALS): Promise<CommissioningReport> {
  return buildCommissioningReport({
    configuration: { id: 'c', name: 'Loader 7' } as unknown as ConfigurationRecord,
    devices: serials.map((serial) => reportDeviceRecord(serial)),
    ledger: ledger.fromHead(),
    signerKey: await ledger.signerKey(),
    firmware: async () => undefined,
    workstation: HERE,
    service: 'http://127.0.0.1',
    orgId: 'demo',
    now: new Date(Date.UTC(2026, 10, 28, 18, 0)),
    timeZone: 'UTC',
  });
}

async function pdfWords(report: CommissioningReport): Promise<{ body: string; appendix: string }> {
  const path = join(scratch.dir, 'report.pdf');
  await writeFile(path, await renderReportPdf(report));
  const text = (await run('pdftotext', ['-layout', path, '-'])).stdout;
  const [body, appendix] = text.split('Appendix: exact values, to check against the ledger');
  return { body: body!.replace(/\s+/g, ' '), appendix: (appendix ?? '').replace(/\s+/g, ' ') };
}

/** Changes one byte of what the entry on `line` (1-based) says, so its hash no longer holds. */
async function changeEntryOnLine(ledger: Ledger, line: number): Promise<void> {
  const lines = (await readFile(ledger.path, 'utf8')).split('\n');
  lines[line - 1] = lines[line - 1]!.replace('"actor":"bench key"', '"actor":"bench kez"');
  await writeFile(ledger.path, lines.join('\n'));
}

describe('the commissioning report reads the ledger from its head', () => {
  it("reads back to its devices' last install and apply and says every link from there to the head holds", async () => {
    const { ledger, entries } = await sampleLedger();
    const report = await reportOf(ledger);
    expect(report.ledger).toMatchObject({
      intact: true,
      fromSeq: 31,
      entries: 6,
      headSeq: 36,
      head: entries.at(-1)!.hash,
      broken: null,
    });
    expect(report.devices.map((d) => d.ledgerEntries.map((e) => e.seq))).toEqual([
      [31, 32, 33],
      [34, 35, 36],
    ]);
    const { body, appendix } = await pdfWords(report);
    expect(body).toContain('Ledger every link from entry 31 to the head holds');
    expect(appendix).toContain("Every link from entry 31 to the head of this workstation's ledger holds.");
    expect(appendix).toContain(
      'entries before entry 31 were not read, and "provisioner ledger verify" checks the whole ledger',
    );
    expect(appendix).not.toMatch(/ledger held \d+ entr/);
  });

  it('says the ledger is broken when an entry it read was changed', async () => {
    const { ledger, entries } = await sampleLedger();
    await changeEntryOnLine(ledger, 35);
    const report = await reportOf(ledger);
    expect(report.ledger.intact).toBe(false);
    expect(report.ledger.broken).toMatch(/^entry 35 at line 35 .*does not match its hash/);
    const { body, appendix } = await pdfWords(report);
    expect(body).toMatch(
      /Ledger BROKEN at entry 35 at line 35: its content does not match its hash .*: that entry and the ones before it are not proven/,
    );
    expect(appendix).toContain(`The ledger is BROKEN at entry 35 at line 35 (hash ${entries[34]!.hash.slice(0, 12)}…)`);
  });

  it("does not read a change before its devices' entries (by design), says where its check began, and ledger verify finds it", async () => {
    const { ledger } = await sampleLedger();
    await changeEntryOnLine(ledger, 5);
    const report = await reportOf(ledger);
    expect(report.ledger).toMatchObject({ intact: true, fromSeq: 31 });
    expect((await pdfWords(report)).body).toContain('every link from entry 31 to the head holds');
    expect((await ledger.verify()).broken).toMatchObject({ line: 5, seq: 5 });
  });

  it('reads the whole ledger for a device it never installed, and then finds the change', async () => {
    const { ledger } = await sampleLedger();
    await changeEntryOnLine(ledger, 5);
    const report = await reportOf(ledger, [...SERIALS, 'EPC000103']);
    expect(report.ledger.intact).toBe(false);
    expect(report.ledger.broken).toMatch(/^entry 5 at line 5 /);
  });
});
