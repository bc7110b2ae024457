import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../../../contract/index';
import { fileLoginStoreIn, keyRefusalOf, type CliCore, type LoginStore } from '../../../main/core';
import { issueKey } from '../../../server';
import { createOrganization } from '../../../server/store/organizations';
import { startCountingListener } from '../../fixtures/another-computer';
import { cliCoreFor } from '../../fixtures/cli-core';
import { runCliIn } from '../../fixtures/cli-in-process';
import { openedWhile, PER_FILE } from '../../fixtures/opened-while';
import { useScratchDirPerTest } from '../../fixtures/scratch';
import { coresPerFile, demoServicePerFile, scriptedDeviceSource } from '../../fixtures/test-core';

/**
 * Issue 27: the CLI signs in through its core's session channels, by the policy the app's account
 * session follows (main/core/key-sign-in.ts). Against the demo service: a sign-in on the CLI core
 * is the login the app's core resumes over the same data directory; plain http:// to another
 * computer is refused before the key is sent unless the CLI's flag allows it, which the app
 * refuses; a key the service does not take for the organization is refused and nothing is kept.
 */

const scratch = useScratchDirPerTest('cli-core-session');
const demo = demoServicePerFile();
const listener = openedWhile(PER_FILE, 'The counting listener', startCountingListener, (started) => started.close());
const cores = coresPerFile();
let otherOrgKey: string;

beforeAll(async () => {
  await createOrganization(demo.service.db, { id: 'plant-b', name: 'Plant B', region: 'EU' });
  otherOrgKey = await issueKey(demo.service.db, { orgId: 'plant-b', name: 'plant-b-admin', role: 'Admin' });
});

/** The app's core data directory and its login store, and a CLI core keeping its login there (no account settled). */
function cliOn(coreDir: string): { store: LoginStore; core: CliCore } {
  const store = fileLoginStoreIn(coreDir);
  const core = cliCoreFor(join(scratch.dir, 'cli-data'), undefined, { loginStore: async () => store });
  return { store, core };
}

/** What the channel threw, for a test that expects a refusal. */
async function refusalOf(answer: Promise<unknown>): Promise<unknown> {
  return answer.then(
    () => expect.fail('the sign-in was not refused'),
    (error: unknown) => error,
  );
}

/** Every byte the login store's directory holds, to show a key is not in it. */
async function storeText(coreDir: string): Promise<string> {
  const read = (name: string) => readFile(join(coreDir, name), 'utf8').catch(() => '');
  return (await read('secrets.json')) + (await read('settings.json'));
}

describe("the CLI core's session channels", () => {
  it('sign in without a settled account; the app resumes the login; sign-out forgets the key', async () => {
    const coreDir = join(scratch.dir, 'core');
    const { store, core } = cliOn(coreDir);
    // Written with a trailing slash: kept canonical.
    const view = await core.invoke('session.signIn', {
      serviceUrl: `${demo.service.url}/`,
      orgId: 'demo',
      apiKey: demo.adminKey,
    });
    expect(view).toMatchObject({
      status: 'signedIn',
      kind: 'service',
      serviceUrl: demo.service.url,
      orgId: 'demo',
      keyName: 'demo-admin',
      role: 'Admin',
      remembered: true,
    });
    expect(await core.invoke('session.get', {})).toMatchObject({ status: 'signedIn', keyName: 'demo-admin' });
    expect(await store.read()).toEqual({
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: demo.adminKey,
      keyName: 'demo-admin',
      role: 'Admin',
    });
    await core.close();

    const app = await cores.open(coreDir, { host: 'test', resume: true, deviceSource: scriptedDeviceSource() });
    expect(await app.invoke('session.get', {})).toMatchObject({
      status: 'signedIn',
      kind: 'service',
      serviceUrl: demo.service.url,
      orgId: 'demo',
      role: 'Admin',
      remembered: true,
    });
    await cores.close(app);

    const again = cliOn(coreDir);
    expect(await again.core.invoke('session.signOut', { forget: true })).toMatchObject({ status: 'signedOut' });
    expect(await again.core.invoke('session.get', {})).toMatchObject({ status: 'signedOut' });
    expect(await again.store.read()).toBeUndefined();
    expect(await storeText(coreDir)).not.toContain(demo.adminKey);
    await again.core.close();
  });

  it('refuses plain http:// to another computer before sending the key, unless the flag allows it', async () => {
    const coreDir = join(scratch.dir, 'core');
    const { store, core } = cliOn(coreDir);
    const request = { serviceUrl: listener().url, orgId: 'demo', apiKey: demo.adminKey };
    const refused = await refusalOf(core.invoke('session.signIn', request));
    expect(refused).toBeInstanceOf(CoreError);
    expect(refused).toMatchObject({
      code: 'INVALID_INPUT',
      violations: [{ code: 'INSECURE_SERVICE_URL', field: 'serviceUrl' }],
    });
    expect(listener().requests).toBe(0);

    // The CLI's --insecure: the key goes (the listener answers 500), and nothing is kept.
    const failed = await refusalOf(core.invoke('session.signIn', { ...request, allowPlainHttp: true }));
    expect(listener().requests).toBeGreaterThan(0);
    expect(keyRefusalOf(failed)).toMatchObject({ kind: 'callFailed' });
    expect(await store.read()).toBeUndefined();
    expect(await storeText(coreDir)).not.toContain(demo.adminKey);
    await core.close();
  });

  it("is the app's to refuse: the flag is the command line's only", async () => {
    const app = await cores.open(join(scratch.dir, 'app'), { host: 'test', deviceSource: scriptedDeviceSource() });
    const before = listener().requests;
    const refused = await refusalOf(
      app.invoke('session.signIn', {
        serviceUrl: listener().url,
        orgId: 'demo',
        apiKey: demo.adminKey,
        remember: true,
        allowPlainHttp: true,
      }),
    );
    expect(refused).toMatchObject({
      code: 'INVALID_INPUT',
      violations: [{ code: 'INSECURE_SERVICE_URL', field: 'allowPlainHttp' }],
    });
    expect(listener().requests).toBe(before);
    expect(await app.invoke('session.get', {})).toMatchObject({ status: 'signedOut' });
    await cores.close(app);
  });

  it('refuses a key of another organization and keeps nothing', async () => {
    const coreDir = join(scratch.dir, 'core');
    const { store, core } = cliOn(coreDir);
    const refused = await refusalOf(
      core.invoke('session.signIn', { serviceUrl: demo.service.url, orgId: 'demo', apiKey: otherOrgKey }),
    );
    expect(refused).toMatchObject({ code: 'AUTH_FAILED' });
    expect(keyRefusalOf(refused)).toBeDefined();
    expect(await store.read()).toBeUndefined();
    expect(await storeText(coreDir)).not.toContain(otherOrgKey);
    expect(await core.invoke('session.get', {})).toMatchObject({ status: 'signedOut' });
    await core.close();
  });
});

describe('a service that names another organization for the key', () => {
  /** A service on loopback whose validate answers `answer`; everything else is not found. */
  async function scriptedValidate(answer: object): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const validate = req.method === 'POST' && (req.url ?? '').endsWith('/apiKeys/validate');
        res.writeHead(validate ? 200 : 404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(validate ? { success: true, data: answer } : { success: false, errors: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('is refused with the organization it named, and nothing is kept', async () => {
    const service = await scriptedValidate({
      valid: true,
      organizationId: 'plant-b',
      keyName: 'plant-b-admin',
      role: 'Admin',
    });
    try {
      const coreDir = join(scratch.dir, 'core');
      const { store, core } = cliOn(coreDir);
      const refused = await refusalOf(
        core.invoke('session.signIn', { serviceUrl: service.url, orgId: 'demo', apiKey: 'pk_scripted' }),
      );
      expect(refused).toMatchObject({ code: 'AUTH_FAILED' });
      expect(keyRefusalOf(refused)).toEqual({ kind: 'otherOrganization', organizationId: 'plant-b' });
      expect(await store.read()).toBeUndefined();
      await core.close();

      // The CLI says it in its own words, as it did before it asked its core.
      const home = join(scratch.dir, 'home');
      const run = await runCliIn(home, ['login', '--url', service.url, '--org', 'demo', '--api-key', 'pk_scripted']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'error: this API key belongs to organization plant-b, not demo; log in with --org plant-b\n',
      );
    } finally {
      await service.close();
    }
  });
});
