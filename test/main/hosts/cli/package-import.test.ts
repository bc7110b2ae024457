import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCredentials } from '../../../../main/hosts/cli/credentials';
import { useScratchDir } from '../../../fixtures/scratch';
import { makePackage, ORG_ID, packageWorld, SERVICE_URL } from '../../app/packages/helpers';
import { runCliIn } from '../../../fixtures/cli-in-process';

/**
 * `provisioner package import` as a technician on a plant laptop meets it, with no service at all:
 * a good package fills the caches `cache list` shows and logs the laptop in with the key given,
 * unchecked; an expired, changed or other organization's package is refused in one line and the
 * laptop is left as it was.
 */

const scratch = useScratchDir('cli-package-import');

const cli = (home: string, args: readonly string[]) => runCliIn(home, args, { env: { ...process.env, PROVISIONER_API_KEY: undefined, PROVISIONER_NO_BLE: '1', CI: '1' } });

async function laptopWith(bytes: Uint8Array): Promise<{ home: string; file: string }> {
  const home = await mkdtemp(join(scratch.dir, 'laptop-'));
  // On the USB stick, not in the data directory.
  const file = join(await mkdtemp(join(scratch.dir, 'stick-')), 'loader-7.provisioner-package');
  await writeFile(file, bytes);
  return { home, file };
}

const credentialsOf = (home: string) => join(home, 'credentials.json');

describe('provisioner package import', () => {
  it('keeps the files for offline installs and logs in with the key given, unchecked', async () => {
    const world = packageWorld();
    const made = makePackage(world);
    const { home, file } = await laptopWith(made.bytes);
    const run = await cli(home, ['package', 'import', file, '--api-key', 'pk_plant-technician', '--signer', world.signer.keyId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`note: logged in to organization ${ORG_ID} at ${SERVICE_URL} with the key given, unchecked: the service cannot be asked from here; confirmations wait in the outbox\n`);
    expect(run.stdout).toContain(`signed by workstation key ${world.signer.keyId}; it expires on ${made.body.expiresAt}.`);
    expect(JSON.parse(await readFile(credentialsOf(home), 'utf8'))).toMatchObject({ serviceUrl: SERVICE_URL, orgId: ORG_ID, apiKey: 'pk_plant-technician', keyName: null, role: null });

    const cached = await cli(home, ['--json', 'cache', 'list']);
    expect(cached.code, cached.stderr).toBe(0);
    const listing = JSON.parse(cached.stdout) as { firmware: Array<{ deviceType: string; version: string }>; configurationFiles: Array<{ serialNumber: string; syncId: string }> };
    expect(listing.firmware.map((f) => `${f.deviceType} ${f.version}`).sort()).toEqual(['EPC 1.1.0', 'SRCP 1.1.0']);
    expect(listing.configurationFiles.map((c) => [c.serialNumber, c.syncId])).toEqual(made.body.devices.map((d) => [d.serialNumber, d.syncId]));
  });

  it('refuses an expired package in one line, keeping nothing', async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld(), { now: new Date('2025-01-10T00:00:00Z'), days: 7 }).bytes);
    const run = await cli(home, ['package', 'import', file, '--api-key', 'pk_plant-technician']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: The work package expired on 2025-01-17T00:00:00\.000Z \(it is now .+\)\. Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service\n$/);
    await expect(stat(credentialsOf(home))).rejects.toThrow();
  });

  it('refuses a package with one byte changed, keeping nothing', async () => {
    const bytes = makePackage(packageWorld()).bytes;
    bytes[Math.floor(bytes.length * 0.3)]! ^= 0x10;
    const { home, file } = await laptopWith(bytes);
    const run = await cli(home, ['package', 'import', file, '--api-key', 'pk_plant-technician']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: The work package has been changed since it was signed \(.+\)\. Do not use it: ask for a new one\n$/);
    await expect(stat(credentialsOf(home))).rejects.toThrow();
  });

  it("refuses another organization's package on a laptop logged in elsewhere", async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld()).bytes);
    await writeCredentials(home, { serviceUrl: SERVICE_URL, orgId: 'other-org', apiKey: 'pk_other', keyName: 'other', role: 'Admin' });
    const run = await cli(home, ['package', 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: This work package is for organization ${ORG_ID} at ${SERVICE_URL}, but this workstation works for organization other-org at ${SERVICE_URL}. Import it on a workstation of that organization (or log in to it)\n`,
    );
    const empty = await cli(home, ['--json', 'cache', 'list']);
    expect(JSON.parse(empty.stdout)).toMatchObject({ firmware: [] });
  });

  it('asks for the key when not logged in, and names a missing file', async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld()).bytes);
    const noKey = await cli(home, ['package', 'import', file]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('error: this workstation is not logged in; the package is for organization plant-org at https://provisioning.example.test: give your API key for it (--api-key KEY or $PROVISIONER_API_KEY)');
    const missing = await cli(home, ['package', 'import', join(home, 'nowhere.provisioner-package'), '--api-key', 'k']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`error: there is no work package at ${join(home, 'nowhere.provisioner-package')}: check the path\n`);
  });
});
