import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../main/core';
import { issueKey } from '../../../server';
import {
  invokeForWire,
  parseChannelInput,
  type Channel,
  type ChannelInput,
  type InvokeOutcome,
} from '../../../contract/index';
import { useScratchDir } from '../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
} from '../../fixtures/test-core';

/**
 * The core that web mode and Electron host, driven through the contract as a transport would
 * (invokeForWire) against the real embedded service: sign-in, the role's limits, dry runs, and
 * that no answer ever carries the key.
 */

// Registered in this order, so the cores close first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('core');
const demo = demoServicePerFile();
const cores = coresPerFile();
let operatorKey: string;

/** No devices: the workbench is not what these tests are about. */
const noDevices = scriptedDeviceSource();

async function startCore(name: string, resume = false): Promise<Core> {
  return cores.open(join(scratch.dir, name), {
    host: 'test',
    resume,
    deviceSource: noDevices,
    startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
  });
}

async function call<C extends Channel>(
  core: Core,
  channel: C,
  input: ChannelInput<C>,
): Promise<InvokeOutcome<unknown>> {
  const outcome = await invokeForWire(core, channel, input);
  // Whatever the channel and the outcome: the key never travels towards a renderer.
  expect(JSON.stringify(outcome)).not.toContain(demo.adminKey);
  expect(JSON.stringify(outcome)).not.toContain(operatorKey);
  return outcome;
}

async function value<C extends Channel>(core: Core, channel: C, input: ChannelInput<C>): Promise<unknown> {
  const outcome = await call(core, channel, input);
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value;
}

beforeAll(async () => {
  operatorKey = await issueKey(demo.service.db, { orgId: 'demo', name: 'technician', role: 'Operator' });
});

describe('the core behind the contract', () => {
  it('refuses a key the service does not accept, and signs in with a valid one without ever returning it', async () => {
    const core = await startCore('a');
    expect(await value(core, 'session.get', {})).toMatchObject({ status: 'signedOut' });
    const refused = await call(core, 'session.signIn', {
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: 'wrong-key-0123456789',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });

    const session = await value(core, 'session.signIn', {
      serviceUrl: `${demo.service.url}/`,
      orgId: 'demo',
      apiKey: operatorKey,
      remember: true,
    });
    expect(session).toMatchObject({
      status: 'signedIn',
      kind: 'service',
      serviceUrl: demo.service.url,
      keyName: 'technician',
      role: 'Operator',
      remembered: true,
    });
    // Remembered in a file only the user can read.
    expect((await stat(join(scratch.dir, 'a', 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(core.log.recent(100))).not.toContain(operatorKey);
  });

  it('signs in under one spelling of the service URL, and refuses one that is not a service address', async () => {
    const core = await startCore('spellings');
    const refused = await call(core, 'session.signIn', {
      serviceUrl: `${demo.service.url}/?org=demo`,
      orgId: 'demo',
      apiKey: operatorKey,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', violations: [{ code: 'INVALID_SERVICE_URL', field: 'serviceUrl' }] },
    });
    const shouted = demo.service.url.replace('http://', 'HTTP://').replace('127.0.0.1', 'LOCALHOST') + '//';
    const session = await value(core, 'session.signIn', { serviceUrl: shouted, orgId: 'demo', apiKey: operatorKey });
    expect(session).toMatchObject({
      status: 'signedIn',
      serviceUrl: demo.service.url.replace('127.0.0.1', 'localhost'),
    });
  });

  it('disables for a role what the service would refuse, with the reason', async () => {
    const core = cores.opened[0]!;
    const session = (await value(core, 'session.get', {})) as {
      capabilities: Record<string, { allowed: boolean; reason?: string }>;
    };
    expect(session.capabilities['configurations.write']).toEqual({
      allowed: false,
      reason: expect.stringContaining('Operator may not create or change configurations'),
    });
    expect(session.capabilities['files.download']).toEqual({ allowed: true });
    const refused = await call(core, 'configurations.create', { settings: { name: 'Not mine' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED', httpStatus: 403 } });
  });

  it('resumes a remembered sign-in at the next start', async () => {
    const again = await startCore('a', true);
    expect(await value(again, 'session.get', {})).toMatchObject({ status: 'signedIn', role: 'Operator' });
    await value(again, 'session.signOut', { forget: true });
    const third = await startCore('a', true);
    expect(await value(third, 'session.get', {})).toMatchObject({ status: 'signedOut', lastOrgId: 'demo' });
  });

  it('reports dry-run violations beside their field and changes nothing', async () => {
    const core = await startCore('b');
    expect(await value(core, 'session.useLocalWorkspace', {})).toMatchObject({
      kind: 'local',
      role: 'Admin',
      organizationName: 'Demo organization',
      region: 'NA',
    });
    const created = (await value(core, 'configurations.create', { settings: { name: 'Dry run check' } })) as {
      value: { id: string };
    };
    const id = created.value.id;
    const dry = await value(core, 'configurations.update', { id, settings: { ismTxChannel: 22 }, dryRun: true });
    expect(dry).toMatchObject({
      dryRun: true,
      value: null,
      violations: [{ field: 'ismTxChannel', code: 'ISM_CHANNEL_OUT_OF_RANGE' }],
    });
    expect(await value(core, 'configurations.get', { id })).toMatchObject({ ismTxChannel: null });
    const status = await value(core, 'configurations.status', { id });
    expect(status).toMatchObject({ complete: false, devices: [] });
    expect((status as { violations: { code: string }[] }).violations.map((v) => v.code)).toContain('NO_SENDER');
  });

  it('lists keys masked at most, and exports a support report without secrets', async () => {
    const core = cores.opened.at(-1)!;
    const keys = (await value(core, 'apiKeys.list', { keyFormat: 'Masked', includeApiKeys: true })) as {
      name: string;
      key: string | null;
    }[];
    expect(keys.map((k) => k.name).sort()).toEqual(['demo-admin', 'technician']);
    for (const k of keys) expect(k.key).toMatch(/^•+.{1,4}$/);
    expect(() => parseChannelInput('apiKeys.list', { keyFormat: 'Visible' })).toThrow(/Invalid input/);

    const report = (await value(core, 'support.report', {})) as { fileName: string; content: string };
    expect(report.fileName).toMatch(/^provisioner-support-\d{8}-\d{6}\.json$/);
    const parsed = JSON.parse(report.content) as {
      app: { appVersion: string };
      os: { platform: string };
      recentLog: unknown[];
      attachedDevices: unknown[];
    };
    expect(parsed.app.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(parsed.os.platform).toBe(process.platform);
    expect(parsed.recentLog.length).toBeGreaterThan(0);
    expect(parsed.attachedDevices).toEqual([]);
  });
});

describe('a damaged file at start', () => {
  it('is set aside and the log says where, so the person at the screen learns of it', async () => {
    const outboxPending = join(scratch.dir, 'damaged', 'provisioning', 'outbox', 'pending');
    await mkdir(outboxPending, { recursive: true, mode: 0o700 });
    await writeFile(join(outboxPending, 'torn.json'), '{"id":"torn", "kind": "firmw', { mode: 0o600 });
    const core = await startCore('damaged');
    // The outbox reads its entries when it starts sending; ask for the view, which reads them too.
    await value(core, 'outbox.get', {});
    const lines = (await value(core, 'logs.recent', { limit: 200 })) as { level: string; message: string }[];
    const line = lines.find((l) => l.message.includes('torn.json'));
    expect(line).toMatchObject({ level: 'warn' });
    expect(line?.message).toMatch(/set aside, not deleted.*quarantine/);
  });
});
