import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { pgliteTemplate } from '../fixtures/pglite-template';
import type { ApiKeyRole, Region } from '../../domain';
import { verifyConfigFile, type DecodedConfigFile } from '../../domain/files';
import {
  createOrganizationWithKey,
  issueKey,
  openDatabase,
  seedDemo,
  startService,
  type Database,
  type RunningService,
} from '../../server';
import type { TypicalFlow } from '../fixtures/typical-flows';

/**
 * The service's tests run on PGlite, and also on a PostgreSQL server when TEST_DATABASE_URL is set
 * (CI starts one: scripts/ci-postgres.sh). Each test file gets its own database and one server.
 */
export type Backend = 'pglite' | 'postgres';

export function backends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface Response {
  status: number;
  headers: Headers;
  /** The parsed envelope of a JSON response. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many record shapes
  json: { data: any; success: boolean; errors: { code: string; message: string; field?: string }[] | null };
  bytes: Uint8Array;
}

export interface RequestOptions {
  key?: string | null;
  /** The organization in the path (default: the demo organization). */
  orgId?: string;
  body?: unknown;
  /** Sent as is (for malformed-input tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestEnv {
  backend: Backend;
  url: string;
  service: RunningService;
  db: Database;
  orgId: string;
  adminKey: string;
  /** A request to a path under /v1/organizations/{orgId} (or an absolute /v1 path when it starts with /v1). */
  call(method: string, path: string, options?: RequestOptions): Promise<Response>;
  keyFor(role: ApiKeyRole, orgId?: string): Promise<string>;
  createOrg(orgId: string, region: Region): Promise<string>;
  close(): Promise<void>;
}

async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `svc_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export { pgliteTemplate };

export async function startEnv(backend: Backend): Promise<TestEnv> {
  const pgDb = backend === 'postgres' ? await freshPostgresDatabase() : undefined;
  const db = await openDatabase(
    pgDb ? { databaseUrl: pgDb.url } : { dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() },
  );
  const { orgId, adminKey } = await seedDemo(db);
  const service = await startService({ db, port: 0 });
  const keys = new Map<string, string>();
  let counter = 0;
  const env: TestEnv = {
    backend,
    url: service.url,
    service,
    db,
    orgId,
    adminKey,
    async call(method, path, options = {}) {
      const url = path.startsWith('/v1')
        ? `${service.url}${path}`
        : `${service.url}/v1/organizations/${options.orgId ?? orgId}${path}`;
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const key = options.key === undefined ? adminKey : options.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
      const response = await fetch(url, { method, headers, body });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get('content-type') ?? '';
      const json = type.includes('application/json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
      return { status: response.status, headers: response.headers, json, bytes };
    },
    async keyFor(role, org = orgId) {
      const cacheKey = `${org}/${role}`;
      const known = keys.get(cacheKey);
      if (known) return known;
      const key = await issueKey(db, { orgId: org, name: `test-${role}-${++counter}`.toLowerCase(), role });
      keys.set(cacheKey, key);
      return key;
    },
    async createOrg(id, region) {
      const key = await createOrganizationWithKey(db, { orgId: id, region, keyName: 'admin', role: 'Admin' });
      keys.set(`${id}/Admin`, key);
      return key;
    },
    async close() {
      await service.close();
      await db.close();
      await pgDb?.drop();
    },
  };
  return env;
}

/** The error codes of a failed response, for compact assertions. */
export function codes(response: Response): string[] {
  return (response.json?.errors ?? []).map((e) => e.code);
}

/** Registers demo devices (idempotent per env): the fleet the flows use. */
export async function register(env: TestEnv, serialNumbers: readonly string[], key?: string): Promise<void> {
  for (const serial of serialNumbers) {
    const response = await env.call(
      'POST',
      `/devices?serialNumber=${serial}&name=${encodeURIComponent(`Device ${serial}`)}`,
      key ? { key } : {},
    );
    if (response.status !== 201 && !codes(response).includes('DEVICE_ALREADY_REGISTERED')) {
      throw new Error(`register ${serial}: ${response.status} ${JSON.stringify(response.json)}`);
    }
  }
}

/** Creates a flow's configuration with its devices (registered already), each step answered as a success; its id. */
export async function buildFlowConfiguration(env: TestEnv, flow: TypicalFlow, key?: string): Promise<string> {
  const options = key ? { key } : {};
  const created = await env.call('POST', '/configurations', { ...options, body: flow.configuration });
  expect(created.status, JSON.stringify(created.json.errors)).toBe(201);
  const id = created.json.data.id as string;
  for (const device of flow.devices) {
    const added = await env.call('POST', `/configurations/${id}/devices`, { ...options, body: device.payload });
    expect(added.status, `${device.payload.serialNumber}: ${JSON.stringify(added.json.errors)}`).toBe(201);
  }
  return id;
}

/** The service's root key (SPKI PEM), which certifies the organization key a configuration file carries. */
export async function rootKeyPemOf(env: TestEnv): Promise<string> {
  return (await env.call('GET', '/v1/config-file-signing-key', { key: null })).json.data.publicKeyPem;
}

/** A device's configuration file as downloaded: served, its signature checked with the root key, its syncId the header's. */
export async function downloadConfigFile(env: TestEnv, serial: string, rootKeyPem: string): Promise<DecodedConfigFile> {
  const response = await env.call('GET', `/devices/${serial}/configuration-file`);
  expect(response.status, JSON.stringify(response.json?.errors)).toBe(200);
  const file = verifyConfigFile(response.bytes, { rootKeyPem, expectedSerialNumber: serial });
  expect(response.headers.get('x-config-file-sync-id')).toBe(file.syncId);
  return file;
}
