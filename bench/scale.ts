/**
 * Data at scale (issue 30), `npm run bench -- scale [--json] [--devices=N] [--small=N] [--samples=N]
 * [--configurations=N] [--small-configurations=N] [--instances=N] [--import-lines=N] [--ops=a,b]`: on a
 * throwaway stack (scripts/stack.ts's `up`: its own PostgreSQL cluster, N service instances, HAProxy
 * in front), an organization of N devices (default 1,000,000) and 10,000 configurations, and one
 * of 1,000 devices and 10 configurations, bulk-loaded the same way, and each operation timed
 * through the load balancer against both, interleaved in the same run:
 *
 * - device-list-first: page 1 (limit 30) with its totalCount;
 * - device-list-deep: a page from the second half of the list;
 * - device-list-configurable: a deep page of the devices in no configuration;
 * - device-list-serial-prefix: search by a serial-number prefix that 100 devices start;
 * - device-list-name-search: search by a piece of a name that starts no serial number (`evice N`,
 *   N with one digit fewer than the organization's count: one device), served by the trigram
 *   indexes of migration 16;
 * - configuration-list-first / configuration-list-deep: the configuration list (Limit 30, the
 *   default LastEditedDESC order), page 1 and a page from the second half;
 * - configuration-get, configuration-status: a configuration drawn at random;
 * - configuration-file: the configuration file of a device of a configuration drawn at random;
 * - confirmation: confirm-apply-configuration of the file just downloaded (a new confirmation).
 *
 * Before each timed request the bench writes through the service in a third organization (renames
 * a device before the device list, a configuration before the others): that drops the answers the
 * read cache (server/cache/read-cache.ts) kept from the tables the timed request reads, so every
 * timed request reads the database, as the first one after any change does.
 *
 * Then `server devices import` (the operator CLI, its own process) of a 10,000-line and a
 * 100,000-line (--import-lines) CSV: lines per second and the process's peak RSS (/usr/bin/time).
 *
 * Prints a table, and with --json one JSON object as the last line. Every loop is bounded by its
 * sample count. --ops times only the operations it names (all by default), for a figure of one
 * operation without the rest of the run's hour.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SYNC_ID_HEADER } from '../domain/config-file-download';
import { createOrganizationWithKey, openDatabase, type Database } from '../server';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { down, up } from '../scripts/stack';
import { configurationsFor, seedConfigurations, type SeededConfigurations } from './scale-configurations';
import { percentile, positiveFlag } from './bench-figures';
import { registerBulkDevices } from '../test/fixtures/bulk-devices';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    devices: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '100' },
    configurations: { type: 'string', default: '10000' },
    'small-configurations': { type: 'string', default: '10' },
    instances: { type: 'string', default: '1' },
    'import-lines': { type: 'string', default: '100000' },
    ops: { type: 'string' },
  },
});
const LARGE = positiveFlag('devices', values.devices);
const SMALL = positiveFlag('small', values.small);
const SAMPLES = positiveFlag('samples', values.samples);
const CONFIGURATIONS = positiveFlag('configurations', values.configurations);
const SMALL_CONFIGURATIONS = positiveFlag('small-configurations', values['small-configurations']);
const INSTANCES = positiveFlag('instances', values.instances);
const IMPORT_LINES = positiveFlag('import-lines', values['import-lines']);
if (SMALL < 1000 || LARGE < SMALL) {
  console.error(
    'error: --small must be at least 1000 (the serial-prefix search needs 100 matches) and --devices at least --small',
  );
  process.exit(2);
}
if (CONFIGURATIONS > configurationsFor(LARGE) || SMALL_CONFIGURATIONS > configurationsFor(SMALL)) {
  console.error(
    `error: each configuration takes 32 devices of its organization: --configurations at most ${configurationsFor(LARGE)} for --devices=${LARGE}, --small-configurations at most ${configurationsFor(SMALL)} for --small=${SMALL}`,
  );
  process.exit(2);
}
if (Math.min(CONFIGURATIONS, SMALL_CONFIGURATIONS) < 6) {
  console.error('error: --configurations and --small-configurations must be at least 6 (one of each typical flow)');
  process.exit(2);
}

const log = (text: string) => process.stderr.write(`${text}\n`);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

interface Org {
  id: string;
  /** The serial numbers' first letter: L(arge) or S(mall). */
  letter: string;
  devices: number;
  configurationCount: number;
  key: string;
  configurations: SeededConfigurations;
  /** The last configuration file downloaded in this organization: what the next confirmation confirms. */
  lastFile?: { serialNumber: string; syncId: string };
}

/**
 * Manufacturing records and registrations in two statements each, as an import and a migration
 * would write them: serial numbers `${letter}` + 7 digits, every type, a few models.
 */
async function seed(db: Database, org: Org): Promise<number> {
  const started = performance.now();
  await registerBulkDevices(db, org.id, org.letter, org.devices);
  return performance.now() - started;
}

interface Request {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * One timed request: what it asks for given the organization and the sample's random draw, the
 * write that drops what the read cache kept of the tables it reads, and what its answer must show.
 */
interface Operation {
  op: string;
  churn: 'device' | 'configuration';
  request: (org: Org, draw: number) => Request;
  accept: (org: Org, answer: { response: Response; bytes: Buffer }) => boolean;
}

const json = (answer: { bytes: Buffer }) => JSON.parse(answer.bytes.toString('utf8')) as { data?: unknown };
const hasItems = (_org: Org, answer: { bytes: Buffer }) =>
  ((json(answer).data as { items?: unknown[] } | null)?.items?.length ?? 0) > 0;
const deepPage = (count: number, draw: number) =>
  Math.max(1, Math.floor(count / 30 / 2) + Math.floor(draw * (count / 30 / 2 - 1)));
const pick = <T>(items: readonly T[], draw: number): T => items[Math.floor(draw * items.length)]!;

const ALL_OPERATIONS: Operation[] = [
  { op: 'device-list-first', churn: 'device', request: () => ({ path: 'devices?limit=30&page=1' }), accept: hasItems },
  {
    op: 'device-list-deep',
    churn: 'device',
    request: (org, draw) => ({ path: `devices?limit=30&page=${deepPage(org.devices, draw)}` }),
    accept: hasItems,
  },
  {
    op: 'device-list-configurable',
    churn: 'device',
    request: (org, draw) => ({
      path: `devices?limit=30&page=${deepPage(org.devices - 8 * org.configurationCount, draw)}&configurableOnly=true`,
    }),
    accept: hasItems,
  },
  // The first five digits of a serial number at most org.devices: 100 serial numbers start with them.
  {
    op: 'device-list-serial-prefix',
    churn: 'device',
    request: (org, draw) => ({
      path: `devices?limit=30&search=${org.letter}${String(Math.floor(draw * Math.floor(org.devices / 100))).padStart(5, '0')}`,
    }),
    accept: hasItems,
  },
  // A piece of a name, not of a serial number: N has one digit fewer than the organization's
  // count, so `evice N` is in one name (Device N) and no serial number, model or type.
  {
    op: 'device-list-name-search',
    churn: 'device',
    request: (org, draw) => {
      const from = Math.floor(org.devices / 10);
      return {
        path: `devices?limit=30&search=${encodeURIComponent(`evice ${from + Math.floor(draw * (org.devices - from))}`)}`,
      };
    },
    accept: hasItems,
  },
  {
    op: 'configuration-list-first',
    churn: 'configuration',
    request: () => ({ path: 'configurations?Limit=30&Page=1' }),
    accept: hasItems,
  },
  {
    op: 'configuration-list-deep',
    churn: 'configuration',
    request: (org, draw) => ({ path: `configurations?Limit=30&Page=${deepPage(org.configurationCount, draw)}` }),
    accept: hasItems,
  },
  {
    op: 'configuration-get',
    churn: 'configuration',
    request: (org, draw) => ({ path: `configurations/${pick(org.configurations.ids, draw)}` }),
    accept: (_org, answer) => typeof (json(answer).data as { id?: unknown } | null)?.id === 'string',
  },
  {
    op: 'configuration-status',
    churn: 'configuration',
    request: (org, draw) => ({ path: `configurations/validate/${pick(org.configurations.ids, draw)}` }),
    accept: (_org, answer) => (json(answer).data as { complete?: unknown } | null)?.complete === true,
  },
  {
    op: 'configuration-file',
    churn: 'configuration',
    request: (org, draw) => ({ path: `devices/${pick(org.configurations.members, draw)}/configuration-file` }),
    accept: (org, { response }) => {
      const syncId = response.headers.get(SYNC_ID_HEADER);
      const serialNumber = /devices\/([^/]+)\//.exec(response.url)?.[1];
      if (!syncId || !serialNumber) return false;
      org.lastFile = { serialNumber, syncId };
      return true;
    },
  },
  // Runs after configuration-file in each sample: confirms the file just downloaded, applied now.
  {
    op: 'confirmation',
    churn: 'configuration',
    request: (org) => ({
      method: 'POST',
      path: `devices/${org.lastFile?.serialNumber}/confirm-apply-configuration`,
      body: {
        configurationFileSuccessfullyDeployed: true,
        syncId: org.lastFile?.syncId,
        applyTimeStamp: new Date().toISOString(),
      },
    }),
    accept: (_org, answer) => json(answer).data === true,
  },
];

/** The operations --ops names, in the bench's order; a confirmation needs the file download before it. */
function selectedOperations(names: string | undefined): Operation[] {
  if (names === undefined) return ALL_OPERATIONS;
  const wanted = new Set(names.split(',').map((name) => name.trim()));
  const unknown = [...wanted].filter((name) => !ALL_OPERATIONS.some(({ op }) => op === name));
  if (unknown.length > 0 || wanted.size === 0) {
    console.error(`error: --ops takes a comma-separated list of: ${ALL_OPERATIONS.map(({ op }) => op).join(', ')}`);
    process.exit(2);
  }
  if (wanted.has('confirmation') && !wanted.has('configuration-file')) {
    console.error('error: --ops confirmation confirms the file configuration-file downloads: name both');
    process.exit(2);
  }
  return ALL_OPERATIONS.filter(({ op }) => wanted.has(op));
}
const OPERATIONS = selectedOperations(values.ops);

async function timed(org: Org, baseUrl: string, operation: Operation, draw: number): Promise<number> {
  const { method = 'GET', path, body } = operation.request(org, draw);
  const url = `${baseUrl}/${path}`;
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${org.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - started;
  if (response.status !== 200 || !operation.accept(org, { response, bytes }))
    throw new Error(`${method} ${url} answered ${response.status} with ${bytes.toString('utf8').slice(0, 300)}`);
  return elapsed;
}

/** A write in the churn organization that drops the read cache's answers from the tables `operation` reads. */
async function churnWrite(baseUrl: string, churn: Org, configurationId: string, label: string, operation: Operation) {
  const response =
    operation.churn === 'device'
      ? await fetch(`${baseUrl}/devices/C0000001?name=churn-${label}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${churn.key}` },
        })
      : await fetch(`${baseUrl}/configurations/${configurationId}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${churn.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `churn-${label}` }),
        });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`the churn write answered ${response.status}`);
}

/** `server devices import` of `lines` lines in its own process: lines per second and peak RSS. */
function importRun(
  databaseUrl: string,
  dir: string,
  lines: number,
  tag: string,
): { lines: number; seconds: number; per_s: number; peak_rss_mb: number } {
  const file = join(dir, `import-${tag}.csv`);
  const rows = ['serialNumber,deviceType,model'];
  for (let i = 1; i <= lines; i++)
    rows.push(`${tag}${String(i).padStart(7, '0')},${['EPC', 'NSCP', 'SRCP', 'WESP'][i % 4]},Model ${i % 12}`);
  writeFileSync(file, `${rows.join('\n')}\n`);
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'peak-rss-kb %M',
      process.execPath,
      '--import',
      'tsx',
      'server/cli.ts',
      '--database-url',
      databaseUrl,
      'devices',
      'import',
      file,
    ],
    {
      encoding: 'utf8',
      env: process.env,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const rss = /peak-rss-kb (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !rss)
    throw new Error(`devices import of ${lines} lines failed (${run.status}): ${run.stderr.slice(-500)}`);
  log(
    `import ${lines} lines: ${run.stdout.trim()} in ${seconds.toFixed(1)} s, peak RSS ${Math.round(Number(rss[1]) / 1024)} MB`,
  );
  return {
    lines,
    seconds: round(seconds),
    per_s: Math.round(lines / seconds),
    peak_rss_mb: round(Number(rss[1]) / 1024, 1),
  };
}

async function main(): Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-scale-'));
  try {
    log(`starting the stack: PostgreSQL, ${INSTANCES} service instance(s), HAProxy`);
    const stack = await up({ instances: INSTANCES, runDir, port: 0, seedDemo: false, log });
    // This process loads the database beside the instances: the same password and sealing key.
    if (stack.postgres) process.env[PASSWORD_FILE_ENV] = stack.postgres.passwordFile;
    process.env.PROVISIONER_SEALING_KEY_FILE = join(stack.runDir, 'sealing-key');
    const db = await openDatabase({ databaseUrl: stack.databaseUrl });
    try {
      const orgs: Org[] = [];
      for (const [id, letter, devices, configurationCount] of [
        ['large', 'L', LARGE, CONFIGURATIONS],
        ['small', 'S', SMALL, SMALL_CONFIGURATIONS],
        ['churn', 'C', 1, 0],
      ] as const) {
        orgs.push({
          id,
          letter,
          devices,
          configurationCount,
          configurations: { ids: [], members: [] },
          key: await createOrganizationWithKey(db, { orgId: id, keyName: 'bench', role: 'Admin' }),
        });
      }
      const orgUrl = (org: Org) => `${stack.url}/v1/organizations/${org.id}`;
      const seedMs: Record<string, number> = {};
      for (const org of orgs) {
        seedMs[org.id] = await seed(db, org);
        log(`seeded ${org.devices} devices in ${org.id} in ${(seedMs[org.id]! / 1000).toFixed(1)} s`);
      }
      const [large, small, churn] = orgs as [Org, Org, Org];
      const configurationSeedMs: Record<string, number> = {};
      for (const org of [large, small]) {
        const started = performance.now();
        org.configurations = await seedConfigurations(db, stack.url, org, org.configurationCount, log);
        configurationSeedMs[org.id] = performance.now() - started;
      }
      const churnConfiguration = await (
        await fetch(`${orgUrl(churn)}/configurations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${churn.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'churn' }),
        })
      ).json();
      const churnConfigurationId = (churnConfiguration as { data: { id: string } }).data.id;
      await db.query('ANALYZE');

      const times = new Map<string, number[]>();
      for (let sample = 0; sample < SAMPLES; sample++) {
        for (const operation of OPERATIONS) {
          const draw = Math.random();
          // Alternating which goes first, so neither always follows the other's warm pages.
          for (const org of sample % 2 === 0 ? [large, small] : [small, large]) {
            await churnWrite(
              orgUrl(churn),
              churn,
              churnConfigurationId,
              `${sample}-${operation.op}-${org.id}`,
              operation,
            );
            const key = `${operation.op}/${org.id}`;
            times.set(key, [...(times.get(key) ?? []), await timed(org, orgUrl(org), operation, draw)]);
          }
        }
      }
      const operations = OPERATIONS.map(({ op }) => {
        const of = (org: Org, p: number) => round(percentile(times.get(`${op}/${org.id}`) ?? [], p));
        const figure = {
          op,
          p50_small_ms: of(small, 50),
          p99_small_ms: of(small, 99),
          p50_large_ms: of(large, 50),
          p99_large_ms: of(large, 99),
          ratio: 0,
        };
        figure.ratio = round(figure.p99_large_ms / figure.p99_small_ms);
        return figure;
      });

      const importDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-import-'));
      let imports: ReturnType<typeof importRun>[];
      try {
        imports = [
          importRun(stack.databaseUrl, importDir, Math.max(1, Math.round(IMPORT_LINES / 10)), 'P'),
          importRun(stack.databaseUrl, importDir, IMPORT_LINES, 'Q'),
        ];
      } finally {
        rmSync(importDir, { recursive: true, force: true });
      }

      log(
        `\n${cpus().length} cores; ${LARGE} devices and ${CONFIGURATIONS} configurations vs ${SMALL} and ${SMALL_CONFIGURATIONS}, ${SAMPLES} samples per operation and organization, through HAProxy and ${INSTANCES} service instance(s) on PostgreSQL 15`,
      );
      log('operation                      p50 small  p99 small  p50 large  p99 large  p99 ratio');
      for (const f of operations) {
        log(
          `${f.op.padEnd(30)} ${String(f.p50_small_ms).padStart(9)}  ${String(f.p99_small_ms).padStart(9)}  ${String(f.p50_large_ms).padStart(9)}  ${String(f.p99_large_ms).padStart(9)}  ${String(f.ratio).padStart(9)}`,
        );
      }
      const result = {
        devices_large: LARGE,
        devices_small: SMALL,
        configurations_large: CONFIGURATIONS,
        configurations_small: SMALL_CONFIGURATIONS,
        cores: cpus().length,
        samples: SAMPLES,
        instances: INSTANCES,
        through: 'haproxy',
        seed_large_s: round(seedMs.large! / 1000, 1),
        seed_configurations_large_s: round(configurationSeedMs.large! / 1000, 1),
        operations,
        import_rate_per_s: imports[1]!.per_s,
        import_rate_per_s_small: imports[0]!.per_s,
        import_lines: imports.map((run) => run.lines),
        import_peak_rss_mb_10k: imports[0]!.peak_rss_mb,
        import_peak_rss_mb_100k: imports[1]!.peak_rss_mb,
      };
      if (values.json) console.log(JSON.stringify(result));
      else console.log(JSON.stringify(result, null, 2));
    } finally {
      await db.close();
    }
  } finally {
    await down(runDir, { removeLogs: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
