import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../../../server';
import { resolveDataDirs } from '../../../../platform/data-dirs';
import { cliLoginStore } from '../../../../main/hosts/cli/credentials';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
} from '../../../fixtures/test-core';

/**
 * One login store for the app and the CLI (issue 27): a login made with `provisioner login` is
 * the one the app's core resumes, a sign-in the app remembers is the CLI's login, and a login an
 * earlier CLI kept in credentials.json is moved into the store once. The key never lands in a
 * file others can read, nor in the settings beside it.
 */

const scratch = useScratchDir('cli-login-store');
const demo = demoServicePerFile();
const cores = coresPerFile();
let operatorKey: string;

beforeAll(async () => {
  operatorKey = await issueKey(demo.service.db, { orgId: 'demo', name: 'technician', role: 'Operator' });
});

const env = { PATH: process.env.PATH, PROVISIONER_NO_BLE: '1', CI: '1' };
const cli = (home: string, args: readonly string[]) => runCliIn(home, args, { env });

/** The place the app's core keeps its settings and secrets for this home (web mode's data directory). */
const coreDirOf = (home: string) => resolveDataDirs({}, home).web;

/** The app's core on this home's login store, resuming as it does at start. */
function appCore(home: string) {
  return cores.open(coreDirOf(home), {
    host: 'test',
    resume: true,
    deviceSource: scriptedDeviceSource(),
    startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
  });
}

async function homeNamed(name: string): Promise<string> {
  const home = join(scratch.dir, name);
  await mkdir(home, { recursive: true, mode: 0o700 });
  return home;
}

/** Every file under `dir` whose bytes hold `secret`, with its mode. */
async function filesHolding(dir: string, secret: string): Promise<{ path: string; mode: number }[]> {
  const found: { path: string; mode: number }[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, String(name));
    const info = await stat(path);
    if (info.isFile() && (await readFile(path, 'utf8')).includes(secret)) found.push({ path, mode: info.mode & 0o777 });
  }
  return found;
}

describe('one login store for the app and the CLI', () => {
  it('a login made on the CLI is the one the app resumes, and the key is only in a 0600 file', async () => {
    const home = await homeNamed('cli-first');
    const login = await cli(home, [
      'login',
      '--url',
      `${demo.service.url}/`,
      '--org',
      'demo',
      '--api-key',
      operatorKey,
    ]);
    expect(login.code, login.stderr).toBe(0);

    const core = await appCore(home);
    expect(await core.invoke('session.get', {})).toMatchObject({
      status: 'signedIn',
      kind: 'service',
      serviceUrl: demo.service.url,
      orgId: 'demo',
      keyName: 'technician',
      role: 'Operator',
      remembered: true,
    });
    await cores.close(core);

    // One copy of the key on disk, readable by the user alone.
    expect(await filesHolding(home, operatorKey)).toEqual([
      { path: join(coreDirOf(home), 'secrets.json'), mode: 0o600 },
    ]);
  });

  it("a sign-in the app remembers is the CLI's login; logging out on the CLI signs the app out at its next start", async () => {
    const home = await homeNamed('app-first');
    const core = await appCore(home);
    await core.invoke('session.signIn', {
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: operatorKey,
      remember: true,
    });
    await cores.close(core);

    const status = await cli(home, ['status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Logged in to organization demo at ${demo.service.url} (role Operator).`);
    // Its key works: the service's root key was asked for with it.
    const json = await cli(home, ['--json', 'status']);
    expect(JSON.parse(json.stdout).account).toEqual({
      kind: 'service',
      serviceUrl: demo.service.url,
      orgId: 'demo',
      keyName: 'technician',
      role: 'Operator',
      rootFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const out = await cli(home, ['logout']);
    expect(out.stdout).toContain(`Logged out of organization demo at ${demo.service.url}`);
    expect(await filesHolding(home, operatorKey)).toEqual([]);
    const again = await appCore(home);
    expect(await again.invoke('session.get', {})).toMatchObject({ status: 'signedOut', lastOrgId: 'demo' });
  });

  it("web mode's fallback to the local workspace leaves the CLI's login as it was", async () => {
    const home = await homeNamed('fallback');
    const login = await cli(home, ['login', '--url', demo.service.url, '--org', 'demo', '--api-key', operatorKey]);
    expect(login.code, login.stderr).toBe(0);
    const core = await appCore(home);
    // What web mode does when it could not sign in again at start.
    await core.session.useLocalWorkspace({ remember: false });
    expect(await core.invoke('session.get', {})).toMatchObject({ status: 'signedIn', kind: 'local' });
    await cores.close(core);

    const status = await cli(home, ['--json', 'status']);
    expect(JSON.parse(status.stdout).account).toMatchObject({ kind: 'service', keyName: 'technician' });
    const again = await appCore(home);
    expect(await again.invoke('session.get', {})).toMatchObject({ status: 'signedIn', kind: 'service' });

    // Chosen by a person (the app's button), the workspace is what the next start resumes.
    await again.session.useLocalWorkspace();
    await cores.close(again);
    const chosen = await appCore(home);
    expect(await chosen.invoke('session.get', {})).toMatchObject({ status: 'signedIn', kind: 'local' });
  });

  it('a login an earlier version kept in credentials.json is moved once, then the file is gone', async () => {
    const home = await homeNamed('earlier-version');
    const legacy = join(home, 'credentials.json');
    // As an earlier version wrote it, the URL spelled with a trailing slash.
    await writeFile(
      legacy,
      JSON.stringify({
        format: 'provisioner-credentials/1',
        serviceUrl: `${demo.service.url}/`,
        orgId: 'demo',
        apiKey: operatorKey,
        keyName: 'technician',
        role: 'Operator',
        savedAt: '2026-01-02T03:04:05.000Z',
      }),
      { mode: 0o600 },
    );

    const first = await cli(home, ['status']);
    expect(first.code, first.stderr).toBe(0);
    const kept = join(coreDirOf(home), 'secrets.json');
    expect(first.stderr).toBe(
      `note: the login an earlier version saved in ${legacy} moved to ${kept}, the store the app keeps its login in\n`,
    );
    expect(first.stdout).toContain(`Logged in to organization demo at ${demo.service.url} (role Operator).`);
    await expect(stat(legacy)).rejects.toThrow();
    expect(await filesHolding(home, operatorKey)).toEqual([{ path: kept, mode: 0o600 }]);

    const second = await cli(home, ['status']);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain(`Logged in to organization demo at ${demo.service.url} (role Operator).`);
    const core = await appCore(home);
    expect(await core.invoke('session.get', {})).toMatchObject({ status: 'signedIn', role: 'Operator' });
  });

  it("an earlier version's file does not replace a login the store holds: it is removed, and the note says which login stays", async () => {
    const home = await homeNamed('both');
    const dirs = resolveDataDirs({}, home);
    await cliLoginStore(dirs).save({
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: operatorKey,
      keyName: 'technician',
      role: 'Operator',
    });
    const legacy = join(home, 'credentials.json');
    await writeFile(
      legacy,
      JSON.stringify({
        format: 'provisioner-credentials/1',
        serviceUrl: 'https://old.example.com',
        orgId: 'old-org',
        apiKey: 'pk_old_key',
        keyName: null,
        role: null,
        savedAt: '2025-01-02T03:04:05.000Z',
      }),
      { mode: 0o600 },
    );
    const run = await cli(home, ['status']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      `note: removed ${legacy}, the login an earlier version saved: the saved login stays organization demo at ${demo.service.url}\n`,
    );
    await expect(stat(legacy)).rejects.toThrow();
    expect(await filesHolding(home, 'pk_old_key')).toEqual([]);
    expect(await cliLoginStore(dirs).read()).toMatchObject({ orgId: 'demo', apiKey: operatorKey });
  });

  it.runIf(process.platform !== 'win32')(
    'a secrets file others could read is made private before the CLI writes a key to it',
    async () => {
      const home = await homeNamed('loose-modes');
      const web = coreDirOf(home);
      await mkdir(web, { recursive: true });
      await writeFile(join(web, 'secrets.json'), '{}\n');
      await chmod(join(web, 'secrets.json'), 0o644);
      await chmod(web, 0o755);
      const login = await cli(home, ['login', '--url', demo.service.url, '--org', 'demo', '--api-key', operatorKey]);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toMatch(/^warning: .* could be read by other users; made them private/m);
      expect((await stat(web)).mode & 0o777).toBe(0o700);
      expect(await filesHolding(home, operatorKey)).toEqual([{ path: join(web, 'secrets.json'), mode: 0o600 }]);
    },
  );
});
