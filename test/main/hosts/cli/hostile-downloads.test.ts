import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeConfigFile, encodeConfigFile } from '../../../../domain/files/config-file';
import { generateSigningKeyPair } from '../../../../domain/files/config-file-signature';
import { generateReleaseKeyPair } from '../../../../domain/files/firmware-release-key';
import { safeDownloadName } from '../../../../main/hosts/cli/commands/files';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { organizationSigner } from '../../../fixtures/config-files';
import { hostileProxyPerFile } from '../../../fixtures/hostile-proxy';
import { signedTestBundle } from '../../../fixtures/release-key';
import { useScratchDir } from '../../../fixtures/scratch';
import { demoServicePerFile } from '../../../fixtures/test-core';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';

/**
 * Downloads from a hostile service: a proxy on 127.0.0.1 in front of the demo service passes
 * everything through, except the file downloads it is told to tamper with (a Content-Disposition
 * that names the user's dot files or climbs out of the directory, a bundle or configuration file
 * signed by a key made a moment ago). The CLI names what it saves itself, never overwrites without
 * --force, and saves nothing that fails the checks a job would make before sending it.
 */

const demo = demoServicePerFile({ configurations: true });
const scratch = useScratchDir('hostile-downloads');
const proxy = hostileProxyPerFile(() => demo.service.port);
const proxyUrl = () => proxy.url();

async function signedInHome(name: string): Promise<string> {
  const home = join(scratch.dir, name);
  const login = await runCliIn(home, ['login', '--url', proxyUrl(), '--org', 'demo', '--api-key', demo.adminKey]);
  expect(login.code, login.stderr).toBe(0);
  return home;
}

/** An output directory (beside the CLI's home, whose modes the CLI keeps private) that already holds the user's own `.bashrc`. */
async function outputWithBashrc(home: string): Promise<string> {
  const dir = `${home}-out`;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.bashrc'), "the user's own .bashrc\n");
  return dir;
}

/** A device of the demo's first configuration: it has a configuration file. */
const CONFIGURED = demoConfigurations()[0]!.seeded.devices[0]!.payload.serialNumber;

const isFirmware = (path: string) => /\/firmware$/.test(path);
const isConfigurationFile = (path: string) => /\/configuration-file$/.test(path);

describe('device firmware download from a hostile service', () => {
  it("names the file itself: a Content-Disposition of .bashrc or ../../.bashrc changes nothing of the user's", async () => {
    const home = await signedInHome('fw-names');
    const dir = await outputWithBashrc(home);
    for (const disposition of [
      'attachment; filename=".bashrc"',
      'attachment; filename="../../.bashrc"',
      "attachment; filename*=UTF-8''..%2F..%2F.bashrc",
    ]) {
      proxy.tamper = (path, upstream) =>
        isFirmware(path)
          ? { headers: { ...upstream.headers, 'content-disposition': disposition }, body: upstream.body }
          : undefined;
      const run = await runCliIn(home, ['device', 'firmware', 'download', '-t', 'EPC', '-o', dir, '--force']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^Saved .*\/EPC-1\.1\.0\.zip: EPC firmware 1\.1\.0 \(\d+ bytes, image SHA-256 and release key .+ checked\)/,
      );
    }
    expect(await readFile(join(dir, '.bashrc'), 'utf8')).toBe("the user's own .bashrc\n");
    expect((await readdir(dir)).sort()).toEqual(['.bashrc', 'EPC-1.1.0.zip']);
    expect(await readdir(scratch.dir)).not.toContain('.bashrc');
  });

  it('never replaces a file without --force', async () => {
    const home = await signedInHome('fw-force');
    const dir = await outputWithBashrc(home);
    proxy.tamper = () => undefined;
    await writeFile(join(dir, 'EPC-1.1.0.zip'), 'kept');
    const refused = await runCliIn(home, ['device', 'firmware', 'download', '-t', 'EPC', '-o', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: ${join(dir, 'EPC-1.1.0.zip')} exists already; it was left as it is (--force replaces it)\n`,
    );
    expect(await readFile(join(dir, 'EPC-1.1.0.zip'), 'utf8')).toBe('kept');
    expect((await readdir(dir)).sort()).toEqual(['.bashrc', 'EPC-1.1.0.zip']);

    const forced = await runCliIn(home, ['device', 'firmware', 'download', '-t', 'EPC', '-o', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await readFile(join(dir, 'EPC-1.1.0.zip'))).subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('refuses a bundle signed by a key made a moment ago, with the reason; nothing saved, nothing cached', async () => {
    const home = await signedInHome('fw-forged');
    const dir = await outputWithBashrc(home);
    const forged = Buffer.from(signedTestBundle('EPC', '9.9.9', 2048, { key: generateReleaseKeyPair() }));
    proxy.tamper = (path, upstream) =>
      isFirmware(path)
        ? { headers: { ...upstream.headers, 'content-disposition': 'attachment; filename=".bashrc"' }, body: forged }
        : undefined;
    const run = await runCliIn(home, ['device', 'firmware', 'download', '-t', 'EPC', '-o', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: the firmware bundle the service sent was refused and nothing was saved: .*key.*\n$/,
    );
    expect(await readFile(join(dir, '.bashrc'), 'utf8')).toBe("the user's own .bashrc\n");
    expect(await readdir(dir)).toEqual(['.bashrc']);
    proxy.tamper = () => undefined;
    const cache = await runCliIn(home, ['--json', 'cache', 'list']);
    expect((JSON.parse(cache.stdout) as { firmware: unknown[] }).firmware).toEqual([]);
  });
});

describe('device configuration download from a hostile service', () => {
  it('names the file SN.cbor whatever the service says, and keeps an existing one without --force', async () => {
    const home = await signedInHome('config-names');
    const dir = await outputWithBashrc(home);
    proxy.tamper = (path, upstream) =>
      isConfigurationFile(path)
        ? {
            headers: { ...upstream.headers, 'content-disposition': 'attachment; filename="../.bashrc"' },
            body: upstream.body,
          }
        : undefined;
    const run = await runCliIn(home, ['device', 'configuration', 'download', CONFIGURED, '-o', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^${CONFIGURED}: saved ${join(dir, `${CONFIGURED}.cbor`)} \\(\\d+ bytes, syncId [0-9a-f-]+\\)\n$`),
    );
    const saved = await readFile(join(dir, `${CONFIGURED}.cbor`));
    expect((await readdir(dir)).sort()).toEqual(['.bashrc', `${CONFIGURED}.cbor`]);

    const again = await runCliIn(home, ['device', 'configuration', 'download', CONFIGURED, '-o', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists already; it was left as it is \(--force replaces it\)\n$/);
    expect(await readFile(join(dir, `${CONFIGURED}.cbor`))).toEqual(saved);
    expect(await readFile(join(dir, '.bashrc'), 'utf8')).toBe("the user's own .bashrc\n");
  });

  it('refuses a file signed under a root key made a moment ago; nothing saved', async () => {
    const home = await signedInHome('config-forged');
    const dir = await outputWithBashrc(home);
    proxy.tamper = (path, upstream) => {
      if (!isConfigurationFile(path)) return undefined;
      const genuine = decodeConfigFile(new Uint8Array(upstream.body));
      const forged = encodeConfigFile(genuine.content, organizationSigner(generateSigningKeyPair(), 'demo'));
      return { headers: upstream.headers, body: Buffer.from(forged) };
    };
    const run = await runCliIn(home, ['device', 'configuration', 'download', CONFIGURED, '-o', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: the configuration file the service sent was refused and nothing was saved: The configuration file is not signed by an organization of this service \(its organization key is certified by root key \w+, not this device's\)/,
    );
    expect(await readdir(dir)).toEqual(['.bashrc']);
  });
});

describe('safeDownloadName', () => {
  it('keeps the last path segment, without leading dots or other characters; refuses what leaves nothing', () => {
    expect(safeDownloadName('EPC-1.1.0.zip')).toBe('EPC-1.1.0.zip');
    expect(safeDownloadName('.bashrc')).toBe('bashrc');
    expect(safeDownloadName('../../.bashrc')).toBe('bashrc');
    expect(safeDownloadName('..\\..\\Start Menu\\run.bat')).toBe('run.bat');
    expect(safeDownloadName('/etc/passwd')).toBe('passwd');
    expect(safeDownloadName('a b;$(x).zip')).toBe('a_b___x_.zip');
    for (const empty of ['', '..', '...', 'x/', 'x/..'])
      expect(() => safeDownloadName(empty)).toThrow(/nothing left once made safe/);
  });
});
