import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderReportPdf } from '../../../../main/features/report';
import {
  REPORT_IMAGE as IMAGE,
  REPORT_SYNC as SYNC,
  sampleCommissioningReport,
} from '../../../fixtures/commissioning-report';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * The PDF a technician signs (issue 32), read back with poppler's pdftotext: people's words in
 * the body (statuses, times with their zone, who did the work), a sign-off block, and the exact
 * values (entry hashes, image SHA-256, syncIds) only in the appendix, with how to check them.
 */

const run = promisify(execFile);
const scratch = useScratchDir('report-pdf');

async function pdfText(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(scratch.dir, name);
  await writeFile(path, bytes);
  // To look at it: PROVISIONER_KEEP_REPORT=/tmp/report.pdf npx vitest run test/main/features/report/report-pdf.test.ts
  if (process.env.PROVISIONER_KEEP_REPORT) await writeFile(process.env.PROVISIONER_KEEP_REPORT, bytes);
  return (await run('pdftotext', ['-layout', path, '-'])).stdout;
}

describe('the commissioning report PDF', () => {
  it('reads in words, names the technician, ends with a sign-off and keeps the exact values in the appendix', async () => {
    const { report, entries } = await sampleCommissioningReport(scratch.dir);
    const { install, apply, verified, test } = entries;
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
    expect(words).toContain(
      'Configuration: Deployed, applied 28 Nov 2026, 17:05 UTC on this workstation, signed in as "bench key".',
    );
    expect(words).toContain('Configuration: Not yet applied; no configuration applied yet.');
    expect(words).toContain(
      'Firmware: version 1.1.0, installed 28 Nov 2026, 17:00 UTC, signed in as "bench key"; signed by release key "default release key".',
    );
    expect(words).toContain('Parameters: verified, confirmed by Ada Lovelace on 28 Nov 2026, 17:06 UTC.');
    expect(words).toContain(
      'Function test: PASSED on 28 Nov 2026, 17:09 UTC on this workstation, signed in as "bench key".',
    );
    expect(words).toContain('Made 28 Nov 2026, 17:15 UTC on this workstation');
    expect(words).toContain('Result 1 of 2 devices commissioned');
    // The technician, and the sign-off block for both signers with the technician's name filled in.
    expect(words).toContain(
      'Work done by Ada Lovelace (confirmed the parameters of EPC000101); signed in to the service as "bench key" (EPC000101)',
    );
    const signOff = body!.slice(body!.indexOf('Sign-off'));
    expect(signOff).toMatch(/Work done by \(technician\)\s+Accepted by/);
    expect(signOff).toMatch(/Name:\s+Ada Lovelace\s+Name:/);
    expect(signOff.match(/Date:/g)).toHaveLength(2);
    expect(signOff.match(/Signature:/g)).toHaveLength(2);

    // The appendix: how to check, and each exact value in full.
    const exact = appendix!.replace(/\s+/g, ' ');
    expect(exact).toContain('provisioner ledger verify --entry HASH --entry HASH');
    expect(exact).toContain(`made from its head: entry ${test.seq}, hash ${test.hash}`);
    for (const e of [install, apply, verified, test])
      expect(appendix).toMatch(new RegExp(`Ledger entry ${e.seq}: .*${e.hash}`));
    expect(appendix).toContain(IMAGE);
    expect(appendix).toContain(SYNC);
    expect(appendix).toContain('default release key (81ec776d3ea0512b1c5b0927c76a7a02)');
    expect(exact).toContain('2026-11-28T17:15:00.000Z');
    expect(exact).toContain('none: no configuration applied yet');
    // Every page says which report it belongs to and how many pages it has.
    expect(text).toMatch(/Commissioning report: Conveyor 2 stations - page 1 of \d/);
  });
});
