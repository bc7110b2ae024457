/**
 * Service benchmark (`npx tsx bench/service.ts`): requests per second and p50/p99 latency of a
 * configuration read, a configuration list page and a device add with dryRun, each beside a route
 * of the same server that returns a constant (what the framework itself manages on this machine),
 * on PGlite. Prints a table and the ratio of each operation to the constant route.
 */
import { Worker } from 'node:worker_threads';
import { cpus } from 'node:os';
import { srcpToEpcOverIsm } from '../test/fixtures/typical-flows';
import { createContext, openDatabase, seedDemo, upsertManufacturingRecords } from '../server';
import { buildApp } from '../server/http/app';
import { ALL_OPERATIONS } from '../server/routes';
import { orgApi } from './org-api';

/** What bench/service-load.mjs is given and answers. */
interface LoadJob {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
}

interface LoadResult {
  latenciesMs: number[];
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
}

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const WARMUP_MS = 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const CONFIGURATIONS = 60;

function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./service-load.mjs', import.meta.url), { workerData: job });
    worker.once('message', (result: LoadResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

async function measure(
  name: string,
  base: string,
  job: Omit<LoadJob, 'url' | 'connections' | 'durationMs'> & { path: string },
): Promise<Figure> {
  const full = { ...job, url: `${base}${job.path}`, connections: CONNECTIONS };
  await load({ ...full, durationMs: WARMUP_MS });
  const result = await load({ ...full, durationMs: DURATION_MS });
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  if (result.errors > 0) throw new Error(`${name}: ${result.errors} requests failed`);
  return {
    name,
    rps: (result.latenciesMs.length / result.elapsedMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statuses: result.statuses,
  };
}

async function main(): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://' });
  const { orgId, adminKey } = await seedDemo(db);
  const ctx = await createContext(db);
  const app = buildApp(ctx, ALL_OPERATIONS);
  // Only the benchmark has this route: the framework's ceiling, with the envelope and no database.
  app.get('/bench/constant', async () => ({ data: { ok: true }, success: true, errors: null }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const P = `/v1/organizations/${orgId}`;
  const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  const api = orgApi(`${base}${P}`, headers);

  // A configuration like the typical ISM flow, among many, and a free registered device to dry-run.
  await upsertManufacturingRecords(db, [{ serialNumber: 'EPC900001', deviceType: 'EPC', model: 'EPC-300' }]);
  for (const serial of ['SRCP000101', 'EPC000101', 'EPC900001'])
    await api('POST', `/devices?serialNumber=${serial}&name=${serial}`);
  const configuration = await api('POST', '/configurations', srcpToEpcOverIsm.configuration);
  for (const device of srcpToEpcOverIsm.devices)
    await api('POST', `/configurations/${configuration.id}/devices`, device.payload);
  for (let i = 0; i < CONFIGURATIONS; i++)
    await api('POST', '/configurations', { name: `Line ${String(i).padStart(2, '0')}`, timeoutConfiguration: 1000 });
  const addBody = JSON.stringify({
    serialNumber: 'EPC900001',
    deviceConfigurationType: 'Receiver',
    commInterface: 'ISM',
  });

  const read = { method: 'GET', path: `${P}/configurations/${configuration.id}`, headers };
  const list = { method: 'GET', path: `${P}/configurations?Limit=20&Page=2&SortOptions=ConfigNameASC`, headers };
  const add = {
    method: 'POST',
    path: `${P}/configurations/${configuration.id}/devices?dryRun=true`,
    headers,
    body: addBody,
  };
  const constantJob = { method: 'GET', path: '/bench/constant', headers: {} };
  // Each operation is measured right after the constant route, so that both see the same machine
  // (other work on a shared machine moves the ceiling from one minute to the next).
  const pairs: [Figure, Figure][] = [];
  const pair = async (name: string, job: typeof read) => {
    const ceiling = await measure('constant route', base, constantJob);
    pairs.push([await measure(name, base, job), ceiling]);
  };
  await pair('configuration read', read);
  await pair('configuration list page (Limit=20, Page=2)', list);
  await pair('device add, dryRun', add);
  // The same with the read cache off: what every request costs on PostgreSQL (no cache there) and
  // what the first one after a write costs on PGlite.
  const reads = ctx.reads;
  ctx.reads = null;
  await pair('configuration read, no read cache', read);
  await pair('configuration list page, no read cache', list);
  await pair('device add, dryRun, no read cache', add);
  ctx.reads = reads;
  await app.close();
  await db.close();

  console.log(`Service on PGlite, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);
  console.log(
    `${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s per operation after ${WARMUP_MS / 1000} s warm-up`,
  );
  console.log('');
  console.log('| operation | requests/s | p50 ms | p99 ms | constant route requests/s | p50 ms | p99 ms | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [f, c] of pairs) {
    if (Object.keys(f.statuses).some((status) => status !== '200'))
      throw new Error(`${f.name}: answers ${JSON.stringify(f.statuses)}`);
    console.log(
      `| ${f.name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${c.rps.toFixed(0)} | ${c.p50.toFixed(2)} | ${c.p99.toFixed(2)} | ${(f.rps / c.rps).toFixed(2)} |`,
    );
  }
}

await main();
