import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLoginStore } from '../../../../main/hosts/cli/credentials';
import { resolveDataDirs } from '../../../../platform/data-dirs';
import { useScratchDir } from '../../../fixtures/scratch';
import { makePackage, ORG_ID, packageWorld, rootFingerprintOf, SERVICE_URL } from '../../features/packages/helpers';
import { runCliIn } from '../../../fixtures/cli-in-process';

/**
 * `provisioner package import` as a technician on a plant laptop meets it, with no service at all:
 * a laptop never signed in takes the service's root key only by the fingerprint given, needs no
 * API key and is signed in to nothing; a good package fills the caches `cache list` shows; an
 * expired, changed or other organization's package is refused in one line and the laptop is left
 * as it was.
 */

const scratch = useScratchDir('cli-package-import');

const cli = (home: string, args: readonly string[]) =>
  runCliIn(home, args, { env: { ...process.env, PROVISIONER_API_KEY: undefined, PROVISIONER_NO_BLE: '1', CI: '1' } });

async function laptopWith(bytes: Uint8Array): Promise<{ home: string; file: string }> {
  const home = await mkdtemp(join(scratch.dir, 'laptop-'));
  // On the USB stick, not in the data directory.
  const file = join(await mkdtemp(join(scratch.dir, 'stick-')), 'loader-7.provisioner-package');
  await writeFile(file, bytes);
  return { home, file };
}

/** The login the laptop keeps (the one the app and the CLI share), if any. */
const savedLoginOf = (home: string) => cliLoginStore(resolveDataDirs({}, home)).read();

/** Nothing of a refused package on the laptop: no login, no account's files, no record of an import. */
async function expectUntouched(home: string) {
  expect(await savedLoginOf(home)).toBeUndefined();
  const kept = await readdir(home, { recursive: true }).catch(() => [] as string[]);
  expect(
    kept.filter((name) => /credentials|work-packages|accounts|config-file-signing-key/.test(String(name))),
  ).toEqual([]);
}

describe('provisioner package import', () => {
  it('on a laptop never signed in: takes the root by the fingerprint given, keeps the files for offline installs, and signs in to nothing', async () => {
    const world = packageWorld();
    const made = makePackage(world);
    const { home, file } = await laptopWith(made.bytes);
    const fingerprint = rootFingerprintOf(world);
    // As read aloud or copied from `provisioner status`: upper case and grouped is the same fingerprint.
    const typed = fingerprint
      .toUpperCase()
      .replace(/(.{4})/g, '$1:')
      .slice(0, -1);
    const run = await cli(home, [
      'package',
      'import',
      file,
      '--root-fingerprint',
      typed,
      '--signer',
      world.signer.keyId,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      `note: this laptop now trusts the root key of ${SERVICE_URL} with fingerprint ${fingerprint}, as given\n` +
        `note: not signed in: this laptop works offline for organization ${ORG_ID} and sends nothing anywhere; confirmations wait in the outbox (carry them back with package export-confirmations)\n`,
    );
    expect(run.stdout).toContain(
      `signed by the organization's key ${world.signer.keyId}; it expires on ${made.body.expiresAt}.`,
    );
    expect(await savedLoginOf(home)).toBeUndefined();

    const status = await cli(home, ['--json', 'status']);
    expect(JSON.parse(status.stdout).account).toEqual({
      kind: 'offline-package',
      serviceUrl: SERVICE_URL,
      orgId: ORG_ID,
      packageId: made.body.packageId,
      rootFingerprint: fingerprint,
    });
    const said = await cli(home, ['status']);
    expect(said.stdout).toContain(
      `Not signed in: working offline for organization ${ORG_ID} at ${SERVICE_URL}, from a work package of "Loader 7 remote (ISM)". Nothing is sent anywhere until someone signs in (provisioner login).`,
    );
    expect(said.stdout).toContain(`Root key fingerprint: ${fingerprint}`);

    const cached = await cli(home, ['--json', 'cache', 'list']);
    expect(cached.code, cached.stderr).toBe(0);
    const listing = JSON.parse(cached.stdout) as {
      firmware: Array<{ deviceType: string; version: string }>;
      configurationFiles: Array<{ serialNumber: string; syncId: string }>;
    };
    expect(listing.firmware.map((f) => `${f.deviceType} ${f.version}`).sort()).toEqual(['EPC 1.1.0', 'SRCP 1.1.0']);
    expect(listing.configurationFiles.map((c) => [c.serialNumber, c.syncId])).toEqual(
      made.body.devices.map((d) => [d.serialNumber, d.syncId]),
    );

    // The second package needs no fingerprint: the laptop has its root now.
    const again = await cli(home, ['package', 'import', file]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('refuses a laptop never signed in without the fingerprint, with a wrong one, and with an API key, keeping nothing', async () => {
    const world = packageWorld();
    const { home, file } = await laptopWith(makePackage(world).bytes);
    const bare = await cli(home, ['package', 'import', file]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      `error: This laptop has never been signed in to ${SERVICE_URL}, so it has no root key to tell a package of organization ${ORG_ID} from a forgery. Give the service's root key fingerprint with --root-fingerprint: \`provisioner status\` shows it on any laptop signed in to the service. Nothing was imported\n`,
    );
    const wrong = await cli(home, ['package', 'import', file, '--root-fingerprint', rootFingerprintOf(packageWorld())]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^error: The work package carries a root key with fingerprint [0-9a-f]{64}, not the one given \([0-9a-f]{64}\)\. Do not use it: it was not made by that service\. Nothing was imported\n$/,
    );
    const notHex = await cli(home, ['package', 'import', file, '--root-fingerprint', 'abc']);
    expect(notHex.code).toBe(2);
    expect(notHex.stderr).toBe(
      'error: --root-fingerprint must be the 64 hexadecimal digits `provisioner status` shows on a signed-in laptop, not "abc"\n',
    );
    const withKey = await cli(home, [
      'package',
      'import',
      file,
      '--root-fingerprint',
      rootFingerprintOf(world),
      '--api-key',
      'pk_plant-technician',
    ]);
    expect(withKey.code).toBe(2);
    expect(withKey.stderr).toMatch(/^error: package import takes no API key: a work package never signs a laptop in\./);
    await expectUntouched(home);
  });

  it('refuses an expired package in one line, keeping nothing', async () => {
    const world = packageWorld();
    const { home, file } = await laptopWith(
      makePackage(world, { now: new Date('2025-01-10T00:00:00Z'), days: 7 }).bytes,
    );
    const run = await cli(home, ['package', 'import', file, '--root-fingerprint', rootFingerprintOf(world)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: The work package expired on 2025-01-17T00:00:00\.000Z \(it is now .+\)\. Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service\n$/,
    );
    await expectUntouched(home);
  });

  it('refuses a package with one byte changed, keeping nothing', async () => {
    const world = packageWorld();
    const bytes = makePackage(world).bytes;
    bytes[Math.floor(bytes.length * 0.3)]! ^= 0x10;
    const { home, file } = await laptopWith(bytes);
    const run = await cli(home, ['package', 'import', file, '--root-fingerprint', rootFingerprintOf(world)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: The work package has been changed since it was signed \(.+\)\. Do not use it: ask for a new one\n$/,
    );
    await expectUntouched(home);
  });

  it("refuses another organization's package on a laptop logged in elsewhere", async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld()).bytes);
    await cliLoginStore(resolveDataDirs({}, home)).save({
      serviceUrl: SERVICE_URL,
      orgId: 'other-org',
      apiKey: 'pk_other',
      keyName: 'other',
      role: 'Admin',
    });
    const run = await cli(home, ['package', 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: This work package is for organization ${ORG_ID} at ${SERVICE_URL}, but this workstation works for organization other-org at ${SERVICE_URL}. Import it on a workstation of that organization (or log in to it)\n`,
    );
    const empty = await cli(home, ['--json', 'cache', 'list']);
    expect(JSON.parse(empty.stdout)).toMatchObject({ firmware: [] });
  });

  it('names a missing file', async () => {
    const home = await mkdtemp(join(scratch.dir, 'laptop-'));
    const missing = await cli(home, ['package', 'import', join(home, 'nowhere.provisioner-package')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `error: there is no work package at ${join(home, 'nowhere.provisioner-package')}: check the path\n`,
    );
  });
});
