import { chmod, lstat, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { networkAddress, startCountingListener } from '../../../fixtures/another-computer';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { cliLoginStore } from '../../../../main/hosts/cli/credentials';
import { resolveDataDirs } from '../../../../platform/data-dirs';
import { openedWhile, PER_FILE } from '../../../fixtures/opened-while';
import { useScratchDir } from '../../../fixtures/scratch';
import { demoServicePerFile } from '../../../fixtures/test-core';

/**
 * The CLI's edges as a user (or someone on the plant network) meets them: the API key never goes
 * out over plain http to another computer unless --insecure says so, with a warning; and a data
 * directory someone made readable to others is made private again at start, with a warning.
 */

const cli = (home: string, args: string[]) => runCliIn(home, args);

const scratch = useScratchDir('cli-security');

describe('login over plain http', () => {
  // On every address, so that a login from the network's own address reaches it.
  const demo = demoServicePerFile({ host: '0.0.0.0' });
  const listener = openedWhile(PER_FILE, 'The counting listener', startCountingListener, (started) => started.close());

  it('is refused to another computer: the key is never sent, nothing is kept', async () => {
    const home = join(scratch.dir, 'refused');
    const run = await cli(home, ['login', '--url', listener().url, '--org', 'demo', '--api-key', demo.adminKey]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: not logging in at http:\/\/.+: over http:\/\/ the API key would cross the network unencrypted; use the service's https:\/\/ address \(or --insecure .+\)\n$/,
    );
    expect(listener().requests).toBe(0);
    await expect(stat(join(home, 'credentials.json'))).rejects.toThrow();
    expect(await cliLoginStore(resolveDataDirs({}, home)).read()).toBeUndefined();
  });

  it('goes ahead with --insecure, saying so', async () => {
    const home = join(scratch.dir, 'insecure');
    const url = `http://${networkAddress()}:${demo.service.port}`;
    const run = await cli(home, ['login', '--url', url, '--org', 'demo', '--api-key', demo.adminKey, '--insecure']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      `warning: sending the API key to ${url} over plain http (--insecure): anyone on the network path can read it and act with its role\n`,
    );
    expect(run.stdout).toContain('Logged in to organization demo');
  });

  it('needs no --insecure on this computer (loopback)', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const run = await cli(join(scratch.dir, `loopback-${host}`), [
        'login',
        '--url',
        `http://${host}:${demo.service.port}`,
        '--org',
        'demo',
        '--api-key',
        demo.adminKey,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
    }
  });
});

describe('a data directory others can read', () => {
  it('is made private at start, with one warning line', async () => {
    const home = join(scratch.dir, 'loosened');
    expect((await cli(home, ['status'])).stderr).toBe('');
    await mkdir(join(home, 'data', 'downloads'), { recursive: true });
    await chmod(join(home, 'data', 'downloads'), 0o755);
    await writeFile(join(home, 'data', 'downloads', 'EPC000101.cbor'), 'x');
    await chmod(join(home, 'data', 'downloads', 'EPC000101.cbor'), 0o644);

    const run = await cli(home, ['status']);
    expect(run.code).toBe(0);
    // --data-dir puts the login at its root and the data under data/: one tree, one line.
    expect(run.stderr).toBe(
      `warning: 1 file and 1 directory in ${home} could be read by other users; made them private (files 0600, directories 0700)\n`,
    );
    expect((await lstat(join(home, 'data', 'downloads'))).mode & 0o777).toBe(0o700);
    expect((await lstat(join(home, 'data', 'downloads', 'EPC000101.cbor'))).mode & 0o777).toBe(0o600);
    expect((await cli(home, ['status'])).stderr).toBe('');
  });
});
