import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startService, type RunningService } from '../../server';

/**
 * Several service instances sharing one PostgreSQL database, as behind a load balancer: each with
 * its own pool, caches and HTTP server. Needs TEST_DATABASE_URL (CI starts a cluster:
 * scripts/ci-postgres.sh); every database made here is dropped again.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the test server. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set.');
  const name = `cluster_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * `count` instances started at the same time (so their migrations race, as in a rollout). They
 * keep the sealing key in the scratch database (--allow-unsealed): what these tests look at is the
 * instances agreeing, and test/server/sealing.test.ts covers the key.
 */
export function startInstances(databaseUrl: string, count: number): Promise<RunningService[]> {
  return Promise.all(Array.from({ length: count }, () => startService({ databaseUrl, port: 0, allowUnsealed: true })));
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many record shapes
  json: any;
  bytes: Uint8Array;
}

/** One request to an instance (or the load balancer), under /v1/organizations/{orgId} unless the path starts with '/'. */
export async function call(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  options: { orgId?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = path.startsWith('/')
    ? `${baseUrl}${path}`
    : `${baseUrl}/v1/organizations/${options.orgId ?? 'demo'}/${path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  const json = type.includes('application/json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, json, bytes };
}
