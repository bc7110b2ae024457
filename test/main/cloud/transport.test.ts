import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  CancelledError,
  NetworkError,
  ResponseFormatError,
  ServiceError,
  collect,
  createServiceClient,
  type Timers,
} from '../../../main/cloud';
import { FakeTime } from '../engine/jobs/fake-time';
import { FakeHttp, breakMidBody, fail, hang, json, ok } from './fake-http';
import { useScratchDirPerTest } from '../../fixtures/scratch';

const TIMEOUT_MS = 900_000;

/**
 * Timers for tests that must not wait: backoff sleeps fire at once (their delays are recorded);
 * the per-call timeout (TIMEOUT_MS) never fires.
 */
function instantTimers(): Timers & { delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    setTimeout: (callback, ms) => {
      if (ms >= TIMEOUT_MS) return { never: true };
      delays.push(ms);
      return setImmediate(callback);
    },
    clearTimeout: (handle) => {
      if (handle && typeof handle === 'object' && 'never' in handle) return;
      clearImmediate(handle as NodeJS.Immediate);
    },
  };
}

const device = {
  serialNumber: 'EPC000101',
  name: 'Press 4',
  deviceType: 'EPC',
  model: 'EPC-300',
  hasImage: false,
  deviceImage: null,
  configurationId: null,
  configurationName: null,
  firmwareVersion: null,
  lastFirmwareApply: null,
  deployStatus: 'NotDeployed',
  deployedSyncId: null,
  lastConfigurationApply: null,
  registeredAt: '2026-01-01T00:00:00.000Z',
};

/** A configuration confirmation, as a Station sends one. */
const applied = {
  configurationFileSuccessfullyDeployed: true,
  error: null,
  syncId: '6f1c1f7e-5d55-4a4c-9d5b-0f1f6f9b1a11',
  applyTimeStamp: '2026-01-01T00:00:00Z',
};

let http: FakeHttp;
let timers: ReturnType<typeof instantTimers>;

function client(extra: Partial<Parameters<typeof createServiceClient>[0]> = {}) {
  return createServiceClient({
    baseUrl: http.url + '/',
    orgId: 'org 1',
    apiKey: 'k-123',
    timers,
    random: () => 0.5,
    timeoutMs: TIMEOUT_MS,
    ...extra,
  });
}

beforeEach(async () => {
  http = await new FakeHttp().start();
  timers = instantTimers();
});
afterEach(async () => {
  await http.stop();
});

describe('transport', () => {
  it('sends the key, builds the path under the organization, spells query names as the interface does', async () => {
    http.next(ok({ items: [], page: 2, limit: 10, totalCount: 0 }));
    await client().configurations.list({ Search: 'line 1', SortOptions: 'ConfigNameASC', Limit: 10, Page: 2 });
    const [req] = http.requests;
    expect(req!.method).toBe('GET');
    expect(req!.url).toBe(
      '/v1/organizations/org%201/configurations?Search=line+1&SortOptions=ConfigNameASC&Limit=10&Page=2',
    );
    expect(req!.headers.authorization).toBe('Bearer k-123');
  });

  it('parses data with the domain schema', async () => {
    http.next(ok(device));
    const record = await client().devices.register({ serialNumber: 'EPC000101', name: 'Press 4' });
    expect(record.serialNumber).toBe('EPC000101');
    expect(http.requests[0]!.url).toBe('/v1/organizations/org%201/devices?name=Press+4&serialNumber=EPC000101');
  });

  it('turns an error envelope into a ServiceError that keeps the status and the entries intact', async () => {
    const entries = [
      { code: 'CONFIGURATION_NAME_TOO_SHORT', message: 'The configuration needs a name.', field: 'name' },
    ];
    http.next(fail(400, entries));
    const error = await client()
      .configurations.create({ name: '' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).not.toBeInstanceOf(AuthError);
    expect((error as ServiceError).httpStatus).toBe(400);
    expect((error as ServiceError).errors).toEqual(entries);
    expect((error as ServiceError).retryable).toBe(false);
    expect((error as ServiceError).message).toContain('The configuration needs a name.');
    expect(http.requests).toHaveLength(1);
  });

  it('reports 401 and 403 as AuthError and does not retry them', async () => {
    http.next(
      fail(401, [{ code: 'API_KEY_UNKNOWN', message: 'Unknown key.' }]),
      fail(403, [{ code: 'ROLE_FORBIDDEN', message: 'No.' }]),
    );
    const a = await client()
      .devices.list()
      .catch((e: unknown) => e);
    const b = await client()
      .devices.list()
      .catch((e: unknown) => e);
    expect(a).toBeInstanceOf(AuthError);
    expect((a as AuthError).httpStatus).toBe(401);
    expect((b as AuthError).httpStatus).toBe(403);
    expect((b as AuthError).errors[0]!.code).toBe('ROLE_FORBIDDEN');
    expect(http.requests).toHaveLength(2);
  });

  it('retries a GET on 5xx with exponential backoff and jitter, then succeeds', async () => {
    http.next(fail(503, []), fail(502, []), ok({ deviceType: 'EPC', version: '1.1.0' }));
    const version = await client().devices.firmwareVersionByType('EPC');
    expect(version).toEqual({ deviceType: 'EPC', version: '1.1.0' });
    expect(http.requests).toHaveLength(3);
    // base 250 ms doubling; with random 0.5 each delay is 3/4 of its ceiling
    expect(timers.delays).toEqual([188, 375]);
  });

  it('retries a read and a confirmation the database refused as colliding (409 CONCURRENT_CHANGE), not another 409', async () => {
    const collided = fail(409, [{ code: 'CONCURRENT_CHANGE', message: 'Other requests changed the same data' }]);
    http.next(collided, collided, ok({ deviceType: 'EPC', version: '1.1.0' }));
    expect(await client().devices.firmwareVersionByType('EPC')).toEqual({ deviceType: 'EPC', version: '1.1.0' });
    expect(http.requests).toHaveLength(3);
    http.next(collided, ok(true));
    expect(await client().devices.confirmApplyConfiguration('EPC000101', applied)).toBe(true);
    expect(http.requests).toHaveLength(5);
    // A 409 that is an answer (the device is in another configuration) is not asked again.
    http.next(fail(409, [{ code: 'DEVICE_IN_OTHER_CONFIGURATION', message: 'in Line 2' }]));
    const answer = await client()
      .devices.firmwareVersion('EPC000101')
      .catch((e: unknown) => e);
    expect(answer).toMatchObject({ httpStatus: 409, retryable: false });
    expect(http.requests).toHaveLength(6);
  });

  it('honours Retry-After on 429 and 503, up to the policy ceiling', async () => {
    http.next(
      (_req, res) =>
        json(
          res,
          429,
          { data: null, success: false, errors: [{ code: 'RATE_LIMITED', message: 'slow down' }] },
          { 'retry-after': '2' },
        ),
      (_req, res) => json(res, 503, { data: null, success: false, errors: [] }, { 'retry-after': '120' }),
      ok({ deviceType: 'EPC', version: '1.1.0' }),
    );
    await client().devices.firmwareVersionByType('EPC');
    expect(timers.delays).toEqual([2_000, 8_000]);
  });

  it('gives up after the configured attempts and throws the last error', async () => {
    http.always(fail(500, [{ code: 'INTERNAL', message: 'boom' }]));
    const error = await client()
      .devices.firmwareVersion('X')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).httpStatus).toBe(500);
    expect(http.requests).toHaveLength(4);
    expect(timers.delays).toEqual([188, 375, 750]);
  });

  it('never retries an operation that is not safe to repeat (create), even on 5xx', async () => {
    http.always(fail(503, []));
    await expect(client().configurations.create({ name: 'A' })).rejects.toBeInstanceOf(ServiceError);
    expect(http.requests).toHaveLength(1);
  });

  it('retries confirmations, which the service makes idempotent', async () => {
    http.next(fail(503, []), ok(true));
    expect(await client().devices.confirmApplyConfiguration('EPC000101', applied)).toBe(true);
    expect(http.requests.map((r) => r.body)).toEqual([JSON.stringify(applied), JSON.stringify(applied)]);
  });

  it('reports an unreachable service as NetworkError(unreachable), retried for reads', async () => {
    const url = http.url;
    await http.stop();
    const c = createServiceClient({
      baseUrl: url,
      orgId: 'o',
      apiKey: 'k',
      timers,
      random: () => 0.5,
      timeoutMs: TIMEOUT_MS,
    });
    const error = await c.devices.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).failure).toBe('unreachable');
    expect((error as NetworkError).retryable).toBe(true);
    expect(timers.delays).toHaveLength(3);
  });

  it('reports a connection dropped mid-body as NetworkError(connection-lost)', async () => {
    http.always(breakMidBody());
    const error = await client({ retry: { attempts: 2 } })
      .devices.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).failure).toBe('connection-lost');
    expect(http.requests).toHaveLength(2);
  });

  it('times out a call that gets no answer, on the injected clock', async () => {
    const time = new FakeTime();
    http.always(hang());
    const c = createServiceClient({
      baseUrl: http.url,
      orgId: 'o',
      apiKey: 'k',
      timers: time.timers,
      timeoutMs: 5_000,
      retry: { attempts: 1 },
    });
    const pending = c.devices.list().catch((e: unknown) => e);
    while (http.requests.length === 0) await new Promise((r) => setImmediate(r));
    time.advance(4_999);
    time.advance(1);
    const error = await pending;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).failure).toBe('timeout');
  });

  it('cancels through the caller AbortSignal, without retrying', async () => {
    http.always(hang());
    const controller = new AbortController();
    const pending = client()
      .devices.list({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    while (http.requests.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(await pending).toBeInstanceOf(CancelledError);
    expect(http.requests).toHaveLength(1);
    expect(timers.delays).toEqual([]);
  });

  it('refuses a 200 that is not the envelope, and data that does not match the schema', async () => {
    http.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>captive portal</html>');
    });
    http.next(ok({ deviceType: 'TOASTER', version: 1 }));
    const a = await client()
      .devices.list()
      .catch((e: unknown) => e);
    const b = await client()
      .devices.firmwareVersionByType('EPC')
      .catch((e: unknown) => e);
    expect(a).toBeInstanceOf(ResponseFormatError);
    expect(b).toBeInstanceOf(ResponseFormatError);
    expect((b as Error).message).toMatch(/deviceType/);
  });

  it('sends bare JSON strings for role changes', async () => {
    http.next(ok(true), ok(true));
    await client().users.setRole('6f1c1f7e-5d55-4a4c-9d5b-0f1f6f9b1a11', 'Admin');
    await client().apiKeys.setRole('line key', 'Service');
    expect(http.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', '/v1/organizations/org%201/users/6f1c1f7e-5d55-4a4c-9d5b-0f1f6f9b1a11/role', '"Admin"'],
      ['PUT', '/v1/organizations/org%201/apiKeys/line%20key/role', '"Service"'],
    ]);
  });
});

describe('downloads', () => {
  const scratch = useScratchDirPerTest('dl');

  it('streams to a temp file, renames it into place and keeps X-Config-File-Sync-Id', async () => {
    const body = Buffer.alloc(200_000, 7);
    http.next((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/cbor',
        'content-disposition': 'attachment; filename="EPC000101.cbor"',
        'x-config-file-sync-id': '6f1c1f7e-5d55-4a4c-9d5b-0f1f6f9b1a11',
      });
      for (let i = 0; i < body.length; i += 50_000) res.write(body.subarray(i, i + 50_000));
      res.end();
    });
    const progress: number[] = [];
    const file = await client().devices.downloadConfigurationFile('EPC000101', {
      path: join(scratch.dir, 'out.cbor'),
      onProgress: (n) => progress.push(n),
    });
    expect(file.syncId).toBe('6f1c1f7e-5d55-4a4c-9d5b-0f1f6f9b1a11');
    expect(file.fileName).toBe('EPC000101.cbor');
    expect(file.size).toBe(body.length);
    expect((await readFile(join(scratch.dir, 'out.cbor'))).equals(body)).toBe(true);
    expect(await readdir(scratch.dir)).toEqual(['out.cbor']);
    expect(progress.at(-1)).toBe(body.length);
    expect(http.requests[0]!.url).toBe('/v1/organizations/org%201/devices/EPC000101/configuration-file');
  });

  it('a download that breaks leaves the previous file untouched and no temp file; then retries', async () => {
    await writeFile(join(scratch.dir, 'fw.zip'), 'previous');
    http.always(breakMidBody());
    await expect(
      client({ retry: { attempts: 2 } }).devices.downloadFirmwareByType('EPC', { path: join(scratch.dir, 'fw.zip') }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(http.requests).toHaveLength(2);
    expect(await readFile(join(scratch.dir, 'fw.zip'), 'utf8')).toBe('previous');
    expect(await readdir(scratch.dir)).toEqual(['fw.zip']);
  });

  it('an error status on a download comes back as a ServiceError with the envelope entries', async () => {
    http.next(fail(409, [{ code: 'CONFIGURATION_INCOMPLETE', message: 'Not complete yet.' }]));
    const error = await client()
      .devices.fetchConfigurationFile('EPC000101')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).httpStatus).toBe(409);
    expect((error as ServiceError).errors[0]!.code).toBe('CONFIGURATION_INCOMPLETE');
  });
});

describe('paging', () => {
  it('walks every page with at most 30 per request and stops at totalCount', async () => {
    const all = Array.from({ length: 65 }, (_, i) => ({ ...device, serialNumber: `EPC${String(i).padStart(6, '0')}` }));
    http.always((req, res) => {
      const url = new URL(req.url ?? '', 'http://x');
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      json(res, 200, {
        data: { items: all.slice((page - 1) * limit, page * limit), page, limit, totalCount: all.length },
        success: true,
        errors: null,
      });
    });
    const items = await collect(client().devices.listAll({ configurableOnly: true }, { pageSize: 100 }));
    expect(items.map((d) => d.serialNumber)).toEqual(all.map((d) => d.serialNumber));
    expect(http.requests.map((r) => r.url)).toEqual([
      '/v1/organizations/org%201/devices?configurableOnly=true&limit=30&page=1',
      '/v1/organizations/org%201/devices?configurableOnly=true&limit=30&page=2',
      '/v1/organizations/org%201/devices?configurableOnly=true&limit=30&page=3',
    ]);
  });

  it('walks offset lists (API keys) until a short page', async () => {
    const keys = Array.from({ length: 31 }, (_, i) => ({
      name: `k${i}`,
      role: 'Operator',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: null,
    }));
    http.always((req, res) => {
      const url = new URL(req.url ?? '', 'http://x');
      const offset = Number(url.searchParams.get('Offset'));
      const limit = Number(url.searchParams.get('Limit'));
      json(res, 200, { data: keys.slice(offset, offset + limit), success: true, errors: null });
    });
    const items = await collect(client().apiKeys.listAll());
    expect(items).toHaveLength(31);
    expect(http.requests.map((r) => new URL(r.url, 'http://x').search)).toEqual([
      '?Limit=30&Offset=0',
      '?Limit=30&Offset=30',
    ]);
  });
});
