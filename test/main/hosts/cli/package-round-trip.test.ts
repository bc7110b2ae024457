import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { srcpToEpcOverIsm } from '../../../fixtures/typical-flows';
import { buildFlowAndLogIn } from '../../engine/jobs/helpers/flows';
import { results, worldPerFile, type CliRun } from '../../engine/jobs/helpers/world';
import type { CodingTerms } from '../../../../domain/files/content-coding';
import { nextReleaseOf, publishRelease } from './helpers/releases';

/**
 * A plant without network, end to end through the real CLI: the devices run a release installed
 * earlier; the service publishes the next one (and patches to it from that one); a connected
 * workstation exports the work package of a configuration, patches included, signed by the
 * organization's key on the service; the service stops; a second workstation (its own data
 * directory, never signed in, no API key) imports the package by the root key fingerprint the
 * export printed and provisions
 * the simulated devices, sending each the patch from the image it runs, not the whole image; it
 * exports its confirmations; the service comes back; the first workstation imports them, and the
 * service reports each device as the plant left it, each confirmation recorded once however often
 * it arrives (the same file again, and the plant laptop's own outbox once someone signs it in).
 * Both workstations run the CLI's main in this process (world.cliInProcess): the same commands and
 * answers without two seconds of start-up each; test/main/hosts/cli/cli.test.ts keeps the runs
 * whose process is what is tested.
 */

const SERIALS = ['EPC000101', 'SRCP000101'];

const world = worldPerFile('package', (opened) => buildFlowAndLogIn(opened, srcpToEpcOverIsm));

/**
 * The plant laptop: a data directory of its own, never logged in while the service runs. Its
 * --data-dir comes after the connected workstation's, so it wins (as $PROVISIONER_HOME would:
 * test/main/hosts/cli/cli.test.ts shows both lead to the same directories).
 */
function plant(args: readonly string[]): Promise<CliRun> {
  return world().cliInProcess(['--data-dir', join(world().root, 'plant-laptop'), ...args]);
}

async function confirmationCount(serialNumber: string, kind: 'firmware' | 'configuration'): Promise<number> {
  const { rows } = await world().service!.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1 AND kind = $2`,
    [serialNumber, kind],
  );
  return rows[0]?.n ?? 0;
}

async function deviceRecord(serialNumber: string) {
  return (await world().client.devices.list({ serial: serialNumber })).items.find(
    (d) => d.serialNumber === serialNumber,
  )!;
}

describe('a work package carried to a plant without network and back', () => {
  it('provisions every device offline and delivers the confirmations once', { timeout: 600_000 }, async () => {
    const packageFile = join(world().root, 'loader-7.provisioner-package');
    const confirmationsFile = join(world().root, 'loader-7.confirmations');
    const name = srcpToEpcOverIsm.configuration.name;

    // An earlier visit: the devices were given 1.1.0. Since then the service published 1.2.0, a
    // small change to it, and made the patches from 1.1.0.
    const devices = await Promise.all([
      world().startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'pty' }),
      world().startDevice({ deviceType: 'SRCP', serialNumber: 'SRCP000101', link: 'pty' }),
    ]);
    const earlier = await world().cliInProcess(['device', 'firmware', 'update', ...SERIALS]);
    expect(earlier.code, earlier.stderr + earlier.stdout).toBe(0);
    for (const device of devices) expect(device.state().firmwareVersion).toBe('1.1.0');
    for (const deviceType of ['EPC', 'SRCP'] as const)
      await publishRelease(world(), deviceType, '1.2.0', await nextReleaseOf(world(), deviceType, '1.1.0', '1.2.0'));

    // Connected: the package of the configuration.
    const exported = await world().cliInProcess([
      '--json',
      'package',
      'export',
      '--configuration',
      name,
      '--out',
      packageFile,
      '--expires-in',
      '7',
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const summary = JSON.parse(exported.stdout) as {
      signerKeyId: string;
      rootFingerprint: string;
      devices: Array<{ serialNumber: string; syncId: string; firmware: { version: string } }>;
      firmware: Array<{ deviceType: string; version: string }>;
      patches: number;
      expiresAt: string;
    };
    expect(summary.devices.map((d) => d.serialNumber)).toEqual(SERIALS);
    expect(summary.firmware.map((f) => `${f.deviceType} ${f.version}`).sort()).toEqual(['EPC 1.2.0', 'SRCP 1.2.0']);
    // The patch from 1.1.0 of each type (1.0.0 shares too little with 1.2.0 to get one).
    expect(summary.patches).toBe(2);
    const syncIds = Object.fromEntries(summary.devices.map((d) => [d.serialNumber, d.syncId]));

    // The plant: no service from here on.
    await world().stopService();

    const noRoot = await plant(['package', 'import', packageFile]);
    expect(noRoot.code).toBe(1);
    expect(noRoot.stderr).toContain(
      `This laptop has never been signed in to ${world().url}, so it has no root key to tell a package of organization ${world().orgId} from a forgery.`,
    );

    const imported = await plant([
      'package',
      'import',
      packageFile,
      '--signer',
      summary.signerKeyId,
      '--root-fingerprint',
      summary.rootFingerprint,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Imported the work package of configuration "${name}"`);
    expect(imported.stdout).toContain(
      `These devices can now be provisioned without the service: provisioner device update ${SERIALS.join(' ')}`,
    );
    expect(imported.stdout).toContain('2 firmware patches carried, 2 kept for faster installs.');

    const update = await plant(['--json', 'device', 'update', ...SERIALS]);
    expect(update.code, update.stderr + update.stdout).toBe(0);
    for (const device of devices) {
      expect(device.state().firmwareVersion).toBe('1.2.0');
      expect(device.state().config?.syncId.toLowerCase()).toBe(syncIds[device.state().serialNumber]);
    }
    const finished = results(update);
    expect(finished.length).toBeGreaterThanOrEqual(2);
    for (const result of finished) expect(result.job.phase).toBe('done');
    // Offline, each device was sent the package's patch from the image it runs, not the image
    // ("changes only, N× faster": the image is N times the bytes that crossed the link).
    expect(finished.map((r) => [r.job.serialNumber, r.job.transferCoding]).sort()).toEqual([
      ['EPC000101', expect.stringMatching(/^changes only, \d+(\.\d+)?× faster$/)],
      ['SRCP000101', expect.stringMatching(/^changes only, \d+(\.\d+)?× faster$/)],
    ]);
    // The same as terms (what another language's line is made from), the figure the words say.
    const terms = finished.map((r) => r.job.transferCodingTerms as CodingTerms | undefined);
    expect(terms.map((t) => t?.coding)).toEqual(['delta', 'delta']);
    expect(finished.map((r) => r.job.transferCoding)).toEqual(
      terms.map((t) => `changes only, ${t?.factor?.toFixed(1)}× faster`),
    );

    const waiting = JSON.parse((await plant(['--json', 'outbox', 'list'])).stdout) as Array<{
      serialNumber: string;
      kind: string;
      state: string;
    }>;
    expect(waiting.map((e) => `${e.serialNumber} ${e.kind}`).sort()).toEqual([
      'EPC000101 configuration',
      'EPC000101 firmware',
      'SRCP000101 configuration',
      'SRCP000101 firmware',
    ]);

    const carried = await plant(['package', 'export-confirmations', '--out', confirmationsFile]);
    expect(carried.code, carried.stderr).toBe(0);
    expect(carried.stdout).toMatch(
      /Wrote 4 confirmations \(EPC000101, SRCP000101\) and [1-9]\d* ledger entr(y|ies) to /,
    );
    // Exported, not taken out: the plant laptop's outbox still holds them.
    expect((JSON.parse((await plant(['--json', 'outbox', 'list'])).stdout) as unknown[]).length).toBe(4);

    // Back where the service is.
    await world().startServiceAgain();
    for (const serialNumber of SERIALS) {
      // Nothing of the plant has reached the service yet.
      expect((await deviceRecord(serialNumber)).firmwareVersion).toBe('1.1.0');
      expect(await confirmationCount(serialNumber, 'configuration')).toBe(0);
    }
    const delivered = await world().cliInProcess(['package', 'import-confirmations', confirmationsFile]);
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(delivered.stdout).toContain('Delivered 4 confirmations');
    // The plant laptop's ledger entries join the organization's chain, which then holds.
    expect(delivered.stdout).toMatch(/Ledger: the organization's chain took [1-9]\d* new entr(y|ies) \(it had 0\)\./);
    const verified = await world().cliInProcess(['--json', 'ledger', 'verify']);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    const chain = (JSON.parse(verified.stdout) as { service: { chain: { ok: boolean; entries: number } } }).service
      .chain;
    expect(chain.ok).toBe(true);
    expect(chain.entries).toBeGreaterThanOrEqual(4);

    const checkService = async () => {
      for (const serialNumber of SERIALS) {
        const record = await deviceRecord(serialNumber);
        expect(record.firmwareVersion).toBe('1.2.0');
        expect(record.deployStatus).toBe('Deployed');
        expect(record.deployedSyncId).toBe(syncIds[serialNumber]);
        // The earlier visit's and the plant's.
        expect(await confirmationCount(serialNumber, 'firmware')).toBe(2);
        expect(await confirmationCount(serialNumber, 'configuration')).toBe(1);
      }
    };
    await checkService();

    // Replayed: the same file again records nothing new.
    const replay = await world().cliInProcess(['package', 'import-confirmations', confirmationsFile]);
    expect(replay.code, replay.stderr).toBe(0);
    await checkService();

    // Nothing on the plant laptop holds a key: its outbox sends nothing until someone signs in.
    const unsigned = await plant(['outbox', 'sync']);
    expect(
      (JSON.parse((await plant(['--json', 'outbox', 'list'])).stdout) as unknown[]).length,
      unsigned.stderr + unsigned.stdout,
    ).toBe(4);
    // Someone signs the plant laptop in where the service is: its outbox sends them, the service answers as before.
    const login = await plant(['login', '--url', world().url, '--org', world().orgId, '--api-key', world().adminKey]);
    expect(login.code, login.stderr).toBe(0);
    const sync = await plant(['outbox', 'sync']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse((await plant(['--json', 'outbox', 'list'])).stdout)).toEqual([]);
    await checkService();

    // One byte changed: refused, nothing sent.
    const bytes = await readFile(confirmationsFile);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    const tamperedFile = join(world().root, 'tampered.confirmations');
    await writeFile(tamperedFile, bytes);
    const tampered = await world().cliInProcess(['package', 'import-confirmations', tamperedFile]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(
      /^error: The confirmations file has been changed since it was signed \(.+\)\. Do not use it: ask for a new one\n$/,
    );
  });
});
