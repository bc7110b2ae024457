import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, type ServiceClient } from '../../../../main/cloud';
import type { FirmwareSource } from '../../../../main/engine/cache/firmware-source';
import { nodeFileSystem, type FileSystem } from '../../../../platform/durable-file';
import { FirmwareCache } from '../../../../main/engine/cache/firmware-cache';
import { NoFirmwareAvailableError, resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { prefetchBundlesAndKeys } from '../../../../main/engine/cache/prefetch';
import { Outbox, type NewConfirmation } from '../../../../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../../../../main/engine/outbox/outbox-sender';
import { startTestService, type TestService } from '../../cloud/service-harness';
import { FakeTime } from './fake-time';

/**
 * The outbox and the firmware cache with the real service over HTTP: outages are the service
 * really stopped, recovery is the service restarted on the same data directory and port.
 */

let service: TestService;
let client: ServiceClient;
let work: string;

beforeAll(async () => {
  service = await startTestService();
  // Offline cases must fail fast: one attempt, the outbox and the resolver decide what follows.
  client = service.client({ retry: { attempts: 1 } });
  for (const serialNumber of ['EPC000101', 'SRCP000101', 'NSCP000101']) {
    await client.devices.register({ serialNumber, name: `Unit ${serialNumber}` });
  }
});
afterAll(async () => {
  await service?.dispose();
});
beforeEach(async () => {
  await service.start();
  work = await mkdtemp(join(tmpdir(), 'against-service-'));
  return () => rm(work, { recursive: true, force: true });
});

async function confirmationsStored(serialNumber: string): Promise<number> {
  const { rows } = await service.running!.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1',
    [serialNumber],
  );
  return rows[0]!.n;
}

describe('outbox against the service', () => {
  function outbox(time: FakeTime, fs: FileSystem = nodeFileSystem): Outbox {
    return new Outbox({
      dir: join(work, 'outbox'),
      sender: clientConfirmationSender((url, orgId) =>
        url === service.url && orgId === service.orgId ? client : undefined,
      ),
      clock: time.clock,
      timers: time.timers,
      random: () => 0.5,
      fs,
    });
  }

  const firmwareConfirmation = (version: string, at: string): NewConfirmation => ({
    kind: 'firmware',
    serviceUrl: service.url,
    orgId: service.orgId,
    serialNumber: 'EPC000101',
    payload: { firmwareFileSuccessfullyDeployed: true, error: null, firmwareVersion: version, applyTimeStamp: at },
  });

  it('holds a confirmation while the service is down and delivers it exactly once after a restart of both', async () => {
    const time = new FakeTime();
    const before = await confirmationsStored('EPC000101');
    await service.stop();

    const first = outbox(time);
    const entry = await first.enqueue(firmwareConfirmation('1.1.0', '2026-03-01T10:00:00.000Z'));
    const report = await first.syncNow();
    expect(report.retrying).toEqual([entry.id]);
    const [waiting] = await first.list();
    expect(waiting).toMatchObject({ attempts: 1, lastError: { kind: 'network' } });
    expect(await first.pending()).toMatchObject({ count: 1, oldestCreatedAt: entry.createdAt });

    // The app restarts too: a new outbox on the same directory, later.
    await service.start();
    time.advance(5_000);
    const second = outbox(time);
    expect((await second.syncNow()).delivered).toEqual([entry.id]);
    expect(await second.pending()).toMatchObject({ count: 0, rejected: 0 });

    const [device] = (await client.devices.list({ serial: 'EPC000101' })).items;
    expect(device).toMatchObject({
      firmwareVersion: '1.1.0',
      lastFirmwareApply: { success: true, firmwareVersion: '1.1.0' },
    });
    expect(Date.parse(device!.lastFirmwareApply!.appliedAt)).toBe(Date.parse('2026-03-01T10:00:00.000Z'));
    expect(await confirmationsStored('EPC000101')).toBe(before + 1);
  });

  it('a crash after the service acknowledged but before the entry was removed replays the same event, recorded once', async () => {
    const time = new FakeTime();
    const before = await confirmationsStored('EPC000101');
    let crash = true;
    const crashingFs: FileSystem = {
      ...nodeFileSystem,
      unlink: async (path) => {
        if (crash && path.includes(`${join('outbox', 'pending')}`)) {
          crash = false;
          throw Object.assign(new Error('killed before removing the entry'), { code: 'EIO' });
        }
        return nodeFileSystem.unlink(path);
      },
    };
    const dying = outbox(time, crashingFs);
    const entry = await dying.enqueue(firmwareConfirmation('1.0.0', '2026-03-02T10:00:00.000Z'));
    await expect(dying.syncNow()).rejects.toThrow('killed before removing the entry');
    expect(await confirmationsStored('EPC000101')).toBe(before + 1);

    const restarted = outbox(time);
    expect((await restarted.list()).map((e) => e.id)).toEqual([entry.id]);
    expect((await restarted.syncNow()).delivered).toEqual([entry.id]);
    expect(await confirmationsStored('EPC000101')).toBe(before + 1);
    expect(await restarted.list()).toEqual([]);
    const [device] = (await client.devices.list({ serial: 'EPC000101' })).items;
    expect(device!.firmwareVersion).toBe('1.0.0');
  });

  it('keeps a confirmation the service refuses for good (unknown syncId) visible as rejected, with the service error', async () => {
    const time = new FakeTime();
    const box = outbox(time);
    const entry = await box.enqueue({
      kind: 'configuration',
      serviceUrl: service.url,
      orgId: service.orgId,
      serialNumber: 'SRCP000101',
      payload: {
        configurationFileSuccessfullyDeployed: true,
        error: null,
        syncId: '00000000-0000-4000-8000-000000000001',
        applyTimeStamp: '2026-03-03T10:00:00.000Z',
      },
    });
    expect((await box.syncNow()).rejected).toEqual([entry.id]);
    const [rejected] = await outbox(time).list();
    expect(rejected!.state).toBe('rejected');
    expect(rejected!.lastError!.kind).toBe('rejected');
    expect(rejected!.lastError!.httpStatus).toBeGreaterThanOrEqual(400);
    expect(rejected!.lastError!.errors![0]!.code).toMatch(/^[A-Z_]+$/);
    expect(await box.pending()).toMatchObject({ count: 0, rejected: 1 });
  });
});

describe('firmware cache against the service', () => {
  const cache = (): FirmwareCache => new FirmwareCache({ dir: join(work, 'cache') });

  it('prefetches the latest bundle of every type the organization uses, and skips what is cached', async () => {
    const first = await prefetchBundlesAndKeys(cache(), client);
    expect(first.failed).toEqual([]);
    expect(first.fetched.map((e) => `${e.deviceType} ${e.version}`)).toEqual(['SRCP 1.1.0', 'EPC 1.1.0', 'NSCP 1.1.0']);
    expect(first.fetched[0]!.source).toBe(
      `service ${service.url}/v1/organizations/${service.orgId}/devices/types/SRCP/firmware`,
    );
    const second = await prefetchBundlesAndKeys(cache(), client);
    expect(second.fetched).toEqual([]);
    expect(second.upToDate.map((u) => u.deviceType)).toEqual(['SRCP', 'EPC', 'NSCP']);
    const wesp = await prefetchBundlesAndKeys(cache(), client, ['WESP']);
    expect(wesp.fetched.map((e) => e.deviceType)).toEqual(['WESP']);
  });

  it('resolves from the cache when cached, downloads otherwise', async () => {
    const c = cache();
    const downloaded = await resolveFirmware(c, client, { deviceType: 'EPC', serialNumber: 'EPC000101' });
    expect(downloaded).toMatchObject({ origin: 'download', latestVersion: '1.1.0', notice: undefined });
    expect(downloaded.bundle.version).toBe('1.1.0');
    const cached = await resolveFirmware(c, client, { deviceType: 'EPC', serialNumber: 'EPC000101' });
    expect(cached.origin).toBe('cache');
    expect(cached.entry.sha256).toBe(downloaded.entry.sha256);
  });

  it('installs offline from the newest cached bundle, says so, and refuses clearly when nothing is cached', async () => {
    const c = cache();
    await prefetchBundlesAndKeys(c, client, ['EPC']);
    await service.stop();
    const offline = await resolveFirmware(c, client, { deviceType: 'EPC', serialNumber: 'EPC000101' });
    expect(offline.origin).toBe('offline-cache');
    expect(offline.entry.version).toBe('1.1.0');
    expect(offline.notice).toMatch(/unreachable.*newest cached EPC firmware, version 1\.1\.0/);
    await expect(resolveFirmware(c, client, { deviceType: 'NSCP' })).rejects.toBeInstanceOf(NoFirmwareAvailableError);
  });

  it("names the service's latest version when its download fails and a cached older one stands in", async () => {
    const c = cache();
    await prefetchBundlesAndKeys(c, client, ['EPC']);
    // The service answers that 1.2.0 is its latest, then the connection breaks on the download.
    const brokenDownload: FirmwareSource = {
      baseUrl: client.baseUrl,
      orgId: client.orgId,
      devices: {
        listAll: (...args) => client.devices.listAll(...args),
        firmwareVersion: async (...args) => ({ ...(await client.devices.firmwareVersion(...args)), version: '1.2.0' }),
        firmwareVersionByType: (...args) => client.devices.firmwareVersionByType(...args),
        fetchFirmware: async (serialNumber) => {
          throw new NetworkError('connection-lost', { method: 'GET', path: `/devices/${serialNumber}/firmware` });
        },
        fetchFirmwareByType: (...args) => client.devices.fetchFirmwareByType(...args),
      },
    };
    const offline = await resolveFirmware(c, brokenDownload, { deviceType: 'EPC', serialNumber: 'EPC000101' });
    expect(offline).toMatchObject({ origin: 'offline-cache', latestVersion: '1.2.0' });
    expect(offline.entry.version).toBe('1.1.0');
    expect(offline.notice).toMatch(/version 1\.1\.0, fetched .*, although the service's latest is 1\.2\.0\.$/);
  });
});
