import { execFile } from 'node:child_process';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { loginCli, startWorld, type World } from '../../engine/jobs/helpers/world';
import { nextReleaseOf, publishRelease } from './helpers/releases';
import { confirmParameters } from './helpers/applied-configuration';

/**
 * The commissioning report end to end: firmware installed, configuration applied and a function
 * test on one device, the other only applied; the PDF read back with poppler's pdftotext holds
 * both serials and syncIds, the JSON the image hash, signer and ledger hashes. The install's
 * ledger entry names the image and its signer, so a report made once the bundle has left the
 * firmware cache (and the service has moved on) still names them.
 *
 * The commands run the CLI's main in this process (world.cliInProcess: the same commands and
 * answers without two seconds of start-up each); the report in the language of the environment
 * (LANG) is the real `provisioner` process, whose environment that is.
 */

const run = promisify(execFile);
let world: World | undefined;
/** What the first test made, for the second: the configuration's name and each device's syncId. */
let shared: { name: string; syncIds: Record<string, string> } | undefined;
afterAll(async () => {
  await world?.dispose();
});

interface ReportJson {
  configuration: { name: string };
  safetyParameters: { label: string; value: string }[];
  devices: {
    serialNumber: string;
    deviceType: string;
    model: string | null;
    firmware: { version: string | null; imageSha256: string | null; signedBy: string | null };
    configuration: { syncId: string | null; workstation: string | null };
    functionTest: { result: string | null; maxReactionMs: number | null };
    commissioning: string;
    missingSteps: string[];
    ledgerHashes: { firmwareInstall: string | null; configurationApply: string | null; functionTest: string | null };
    ledgerEntries: { step: string; seq: number; hash: string }[];
  }[];
  people: { name: string; role: string; serialNumbers: string[] }[];
  ledger: { intact: boolean; entries: number; headSeq: number; head: string };
}

describe('provisioner report', () => {
  it('writes the PDF and JSON report of a configuration and of one device', { timeout: 300_000 }, async () => {
    world = await startWorld('report');
    const w = world;
    const configurationId = await buildFlow(w.client, epcToEpcOverEthernet);
    const { name } = await w.client.configurations.get(configurationId);
    expect((await loginCli(w)).code).toBe(0);
    await w.startDevice({
      deviceType: 'EPC',
      serialNumber: 'EPC000101',
      link: 'pty',
      firmwareVersion: '1.0.0',
      pressEstopAfterMs: 150,
    });
    await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000102', link: 'pty', firmwareVersion: '1.1.0' });
    const firmware = await w.cliInProcess(['device', 'firmware', 'update', 'EPC000101']);
    expect(firmware.code, firmware.stderr).toBe(0);
    for (const serial of ['EPC000101', 'EPC000102'])
      expect((await w.cliInProcess(['device', 'configuration', 'update', serial])).code).toBe(0);
    await confirmParameters(w, 'EPC000101');
    const tested = await w.cliInProcess([
      'device',
      'function-test',
      'EPC000101',
      '--result',
      'pass',
      '--note',
      'cabinet 3',
    ]);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);

    const syncIds = Object.fromEntries(
      await Promise.all(
        ['EPC000101', 'EPC000102'].map(
          async (serial) => [serial, (await w.client.devices.list({ serial })).items[0]?.deployedSyncId] as const,
        ),
      ),
    );
    expect(syncIds.EPC000101).toMatch(/^[0-9a-f-]{36}$/);
    expect(syncIds.EPC000102).toMatch(/^[0-9a-f-]{36}$/);

    const pdfPath = join(w.root, 'report.pdf');
    const pdf = await w.cliInProcess(['report', '--configuration', name, '--out', pdfPath]);
    expect(pdf.code, pdf.stderr).toBe(0);
    expect(pdf.stdout).toContain(`Wrote the commissioning report of configuration "${name}"`);
    expect(pdf.stdout).toContain('2 devices, 1 commissioned');
    // To look at it: PROVISIONER_KEEP_REPORT=/tmp/report.pdf npx vitest run test/main/hosts/cli/report.test.ts
    if (process.env.PROVISIONER_KEEP_REPORT) await copyFile(pdfPath, process.env.PROVISIONER_KEEP_REPORT);
    const { stdout: text } = await run('pdftotext', ['-layout', pdfPath, '-']);
    for (const serial of ['EPC000101', 'EPC000102']) {
      expect(text).toContain(serial);
      expect(text).toContain(syncIds[serial]);
    }
    expect(text).toContain('Commissioning report');
    expect(text).toMatch(/Safety timeout\s+500 ms/);
    expect(text).toMatch(/Function test: PASSED/);
    expect(text).toContain('Note: cabinet 3');
    // EPC000102's parameters were read back but no one confirmed them, and it was not tested.
    expect(text.replace(/\s+/g, ' ')).toContain(
      'not commissioned: its parameters are not verified and confirmed since the configuration was applied (missing: parameter verification, function test)',
    );
    expect(pdf.stderr + pdf.stdout).toMatch(
      /EPC000102 is not commissioned: .*\(missing: parameter verification, function test\)/,
    );

    shared = { name, syncIds: syncIds as Record<string, string> };

    const jsonPath = join(w.root, 'report.json');
    expect((await w.cliInProcess(['report', '--configuration', name, '--out', jsonPath])).code).toBe(0);
    const report = JSON.parse(await readFile(jsonPath, 'utf8')) as ReportJson;
    expect(report.ledger.intact).toBe(true);
    // The head it was made from: the ledger file's last entry, in the JSON and in the PDF.
    const lastEntry = JSON.parse(
      (await readFile(join(w.home, 'data', 'ledger', 'ledger.jsonl'), 'utf8')).trim().split('\n').at(-1)!,
    ) as { seq: number; hash: string };
    expect(report.ledger).toMatchObject({ headSeq: lastEntry.seq, head: lastEntry.hash });
    expect(text.replace(/\s+/g, ' ')).toContain(`made from its head: entry ${lastEntry.seq}, hash ${lastEntry.hash}`);
    const [first, second] = report.devices;
    expect(first).toMatchObject({
      serialNumber: 'EPC000101',
      deviceType: 'EPC',
      model: 'EPC-300 endpoint controller',
      commissioning: 'commissioned',
      functionTest: { result: 'pass' },
    });
    expect(first!.firmware.version).toBe('1.1.0');
    expect(first!.firmware.imageSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.firmware.signedBy).toMatch(/\([0-9a-f]{32}\)$/);
    expect(first!.ledgerHashes.firmwareInstall).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.ledgerHashes.configurationApply).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.ledgerHashes.functionTest).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.configuration.syncId).toBe(syncIds.EPC000101);
    expect(second).toMatchObject({
      serialNumber: 'EPC000102',
      commissioning: 'unverified',
      missingSteps: ['parameter verification', 'function test'],
      functionTest: { result: null },
    });
    // The PDF names each ledger hash in full, to be checked against the ledger.
    expect(text).toContain(first!.ledgerHashes.functionTest);

    // Issue 32: people's words in the body (no ISO times, no hashes, no enum names), the
    // technician in the sign-off, the exact values in the appendix that `ledger verify` checks.
    const [body, appendix] = text.split('Appendix: exact values, to check against the ledger');
    expect(appendix, 'the PDF has an appendix').toBeDefined();
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(body).not.toMatch(/[0-9a-f]{32}/);
    expect(body).toMatch(
      /Configuration: Deployed, applied \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} \S+ on this workstation/,
    );
    expect(report.people).toContainEqual({
      name: 'Ada Lovelace',
      role: 'confirmed the parameters',
      serialNumbers: ['EPC000101'],
    });
    expect(body).toMatch(/Work done by\s+Ada Lovelace \(confirmed the parameters of EPC000101\)/);
    expect(body).toMatch(/Name:\s+Ada Lovelace\s+Name:/);
    expect(body!.match(/Signature:/g)).toHaveLength(2);
    const printed = [...appendix!.matchAll(/Ledger entry (\d+): .*?([0-9a-f]{64})/g)].map(([, seq, hash]) => ({
      seq: Number(seq),
      hash: hash!,
    }));
    const listed = report.devices.flatMap((d) => d.ledgerEntries.map(({ seq, hash }) => ({ seq, hash })));
    expect(printed).toEqual(listed);
    expect(printed.length).toBeGreaterThanOrEqual(5);
    const verified = await w.cliInProcess([
      'ledger',
      'verify',
      '--local',
      ...printed.flatMap(({ hash }) => ['--entry', hash]),
    ]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    for (const { seq, hash } of printed)
      expect(verified.stdout).toMatch(
        new RegExp(`Entry ${seq} \\(.*\\), hash ${hash}: in this ledger, every link up to it holds\\.`),
      );
    const changed = `${printed[0]!.hash.slice(0, -1)}${printed[0]!.hash.endsWith('0') ? '1' : '0'}`;
    const forged = await w.cliInProcess(['ledger', 'verify', '--local', '--entry', changed]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain(`Entry ${changed}: NOT in this ledger.`);
    const malformed = await w.cliInProcess(['ledger', 'verify', '--local', '--entry', 'abc123']);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('"abc123" is not a ledger entry hash; give its 64 hex digits');

    const one = await w.cliInProcess(['--json', 'report', '--configuration', name, '--device', 'EPC000102']);
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as ReportJson).devices.map((d) => d.serialNumber)).toEqual(['EPC000102']);

    const unknown = await w.cliInProcess(['report', '--configuration', 'No such line', '--out', pdfPath]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`No configuration is named "No such line"; there are "${name}"`);
    const wrongKind = await w.cliInProcess(['report', '--configuration', name, '--out', join(w.root, 'report.txt')]);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('end the file name with one of them');

    // The install's ledger entry says which image and who signed it, as the signed manifest did.
    const install = (await readFile(join(w.home, 'data', 'ledger', 'ledger.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; serialNumber: string; facts: Record<string, unknown> })
      .find((e) => e.action === 'firmware-install' && e.serialNumber === 'EPC000101');
    expect(install?.facts).toMatchObject({
      firmwareVersion: '1.1.0',
      imageSha256: first!.firmware.imageSha256,
      signingKeyName: expect.any(String),
    });
    expect(first!.firmware.signedBy).toBe(
      `${String(install!.facts.signingKeyName)} (${String(install!.facts.signingKeyId)})`,
    );

    // The bundle leaves the cache and the service moves on to a release this workstation never
    // held: the report names the installed image and its signer from the ledger alone.
    await rm(join(w.home, 'data', 'firmware-cache'), { recursive: true, force: true });
    await publishRelease(w, 'EPC', '1.2.0', await nextReleaseOf(w, 'EPC', '1.1.0', '1.2.0'));
    const laterPath = join(w.root, 'report-later.pdf');
    const later = await w.cliInProcess(['report', '--configuration', name, '--out', laterPath]);
    expect(later.code, later.stderr).toBe(0);
    const { stdout: laterText } = await run('pdftotext', ['-layout', laterPath, '-']);
    expect(laterText).toContain(first!.firmware.imageSha256);
    expect(laterText).toMatch(
      new RegExp(`Release key \\(name and key id\\)\\s+${first!.firmware.signedBy!.replace(/[()]/g, '\\$&')}`),
    );
    // EPC000102 came with 1.1.0 and was never installed from here: no ledger entry, no bundle.
    expect(laterText).toContain('not known on this workstation');
  });

  it(
    'writes the PDF in the language asked for, by --lang or by the environment (issue 29)',
    { timeout: 300_000 },
    async () => {
      const w = world;
      if (w === undefined || shared === undefined)
        throw new Error('the first test of this file makes the world and the report this one reads');
      const { name, syncIds } = shared;
      // The data as it is in every language.
      const dePath = join(w.root, 'report-de.pdf');
      const german = await w.cliInProcess(['--lang', 'de', 'report', '--configuration', name, '--out', dePath]);
      expect(german.code, german.stderr).toBe(0);
      expect(german.stdout).toContain(
        `Das Inbetriebnahmeprotokoll der Konfiguration „${name}“ wurde nach ${dePath} geschrieben: 2 Geräte, 1 in Betrieb genommen.`,
      );
      expect(german.stderr + german.stdout).toMatch(
        /EPC000102: nicht in Betrieb genommen: .*\(fehlt: Parameterprüfung, Funktionsprüfung\)/,
      );
      const zhPath = join(w.root, 'report-zh.pdf');
      const chinese = await w.cli(['report', '--configuration', name, '--out', zhPath], {
        env: { LANG: 'zh_CN.UTF-8', LC_ALL: '' },
      });
      expect(chinese.code, chinese.stderr).toBe(0);
      for (const [path, heading, language] of [
        [dePath, 'Inbetriebnahmeprotokoll', /Sprache\s+Deutsch \(de\)/],
        [zhPath, '调试报告', /语言\s+简体中文（zh）/],
      ] as const) {
        const { stdout: translated } = await run('pdftotext', ['-layout', path, '-']);
        expect(translated).toContain(heading);
        expect(translated).toMatch(language);
        for (const serial of ['EPC000101', 'EPC000102']) {
          expect(translated).toContain(serial);
          expect(translated).toContain(syncIds[serial]);
        }
      }
    },
  );
});
