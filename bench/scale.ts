/**
 * Data at scale (issue 30), `npm run bench -- scale [--json] [--devices N] [--small N] [--samples N]
 * [--import-lines N]`: on a throwaway PostgreSQL cluster, an organization of N devices (default
 * 1,000,000) and one of 1,000, bulk-loaded the same way (generate_series), and the device list's
 * operations timed through the HTTP service against both, interleaved in the same run:
 *
 * - device-list-first: page 1 (limit 30) with its totalCount;
 * - device-list-deep: a page from the second half of the list;
 * - device-list-configurable: a deep page of the devices in no configuration;
 * - device-list-serial-prefix: search by a serial-number prefix that 100 devices start.
 *
 * Before each timed request the bench renames a device of a third organization through the
 * service: that write drops the service's read cache (server/cache/read-cache.ts), so every timed
 * request reads the database, as the first one after any change does.
 *
 * Then `server devices import` (the operator CLI, its own process) of a 10,000-line and a
 * 100,000-line (--import-lines) CSV: lines per second and the process's peak RSS (/usr/bin/time).
 *
 * Prints a table, and with --json one JSON object as the last line. Every loop is bounded by its
 * sample count.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOrganizationWithKey, openDatabase, startService, type Database } from '../server';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { pgCtlCommand, startPostgres } from '../scripts/stack';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    devices: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '100' },
    'import-lines': { type: 'string', default: '100000' },
  },
});
const positive = (name: string, text: string): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`error: --${name} must be a whole number of at least 1, got "${text}"`);
    process.exit(2);
  }
  return value;
};
const LARGE = positive('devices', values.devices);
const SMALL = positive('small', values.small);
const SAMPLES = positive('samples', values.samples);
const IMPORT_LINES = positive('import-lines', values['import-lines']);
if (SMALL < 1000 || LARGE < SMALL) {
  console.error(
    'error: --small must be at least 1000 (the serial-prefix search needs 100 matches) and --devices at least --small',
  );
  process.exit(2);
}

const log = (text: string) => process.stderr.write(`${text}\n`);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

interface Org {
  id: string;
  /** The serial numbers' first letter: L(arge) or S(mall). */
  letter: string;
  devices: number;
  key: string;
}

/**
 * Manufacturing records and registrations in two statements each, as an import and a migration
 * would write them: serial numbers `${letter}` + 7 digits, every type, a few models.
 */
async function seed(db: Database, org: Org): Promise<number> {
  const started = performance.now();
  await db.query(
    `INSERT INTO manufacturing_records (serial_number, device_type, model)
     SELECT $1 || lpad(i::text, 7, '0'), (ARRAY['SRCP','WESP','EPC','NSCP'])[1 + i % 4], 'Model ' || (i % 12) FROM generate_series(1, $2::int) i`,
    [org.letter, org.devices],
  );
  await db.query(
    `INSERT INTO devices (serial_number, org_id, name) SELECT $1 || lpad(i::text, 7, '0'), $2, 'Device ' || i FROM generate_series(1, $3::int) i`,
    [org.letter, org.id, org.devices],
  );
  return performance.now() - started;
}

/** One timed request: what it asks for, given the organization and the sample's random draw. */
interface Operation {
  op: string;
  path: (org: Org, draw: number) => string;
}

const deepPage = (org: Org, draw: number) =>
  Math.floor(org.devices / 30 / 2) + Math.floor(draw * (org.devices / 30 / 2 - 1));
const OPERATIONS: Operation[] = [
  { op: 'device-list-first', path: () => 'devices?limit=30&page=1' },
  { op: 'device-list-deep', path: (org, draw) => `devices?limit=30&page=${deepPage(org, draw)}` },
  {
    op: 'device-list-configurable',
    path: (org, draw) => `devices?limit=30&page=${deepPage(org, draw)}&configurableOnly=true`,
  },
  // The first five digits of a serial number at most org.devices: 100 serial numbers start with them.
  {
    op: 'device-list-serial-prefix',
    path: (org, draw) =>
      `devices?limit=30&search=${org.letter}${String(Math.floor(draw * Math.floor(org.devices / 100))).padStart(5, '0')}`,
  },
];

async function timed(url: string, key: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { data?: { items?: unknown[] } };
  const elapsed = performance.now() - started;
  if (response.status !== 200 || !body.data?.items?.length)
    throw new Error(`${url} answered ${response.status} with ${JSON.stringify(body).slice(0, 300)}`);
  return elapsed;
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
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
  const { postgres, databaseUrl } = await startPostgres(runDir);
  process.env[PASSWORD_FILE_ENV] = postgres.passwordFile;
  const stop = () => spawnSync(...pgCtlCommand(postgres, 'stop'), { stdio: 'ignore' });
  try {
    const db = await openDatabase({ databaseUrl });
    const service = await startService({ db, port: 0 });
    try {
      const orgs: Org[] = [];
      for (const [id, letter, devices] of [
        ['large', 'L', LARGE],
        ['small', 'S', SMALL],
        ['churn', 'C', 1],
      ] as const) {
        orgs.push({
          id,
          letter,
          devices,
          key: await createOrganizationWithKey(db, { orgId: id, keyName: 'bench', role: 'Admin' }),
        });
      }
      const seedMs: Record<string, number> = {};
      for (const org of orgs) {
        seedMs[org.id] = await seed(db, org);
        log(`seeded ${org.devices} devices in ${org.id} in ${(seedMs[org.id]! / 1000).toFixed(1)} s`);
      }
      await db.query('ANALYZE');
      const [large, small, churn] = orgs as [Org, Org, Org];
      const orgUrl = (org: Org) => `${service.url}/v1/organizations/${org.id}`;

      const times = new Map<string, number[]>();
      for (let sample = 0; sample < SAMPLES; sample++) {
        for (const operation of OPERATIONS) {
          const draw = Math.random();
          // Alternating which goes first, so neither always follows the other's warm pages.
          for (const org of sample % 2 === 0 ? [large, small] : [small, large]) {
            const rename = await fetch(
              `${orgUrl(churn)}/devices/C0000001?name=churn-${sample}-${operation.op}-${org.id}`,
              {
                method: 'PATCH',
                headers: { authorization: `Bearer ${churn.key}` },
              },
            );
            if (rename.status !== 200) throw new Error(`the churn rename answered ${rename.status}`);
            const key = `${operation.op}/${org.id}`;
            times.set(key, [
              ...(times.get(key) ?? []),
              await timed(`${orgUrl(org)}/${operation.path(org, draw)}`, org.key),
            ]);
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
          importRun(databaseUrl, importDir, Math.max(1, Math.round(IMPORT_LINES / 10)), 'P'),
          importRun(databaseUrl, importDir, IMPORT_LINES, 'Q'),
        ];
      } finally {
        rmSync(importDir, { recursive: true, force: true });
      }

      log(
        `\n${cpus().length} cores; ${LARGE} vs ${SMALL} devices, ${SAMPLES} samples per operation and organization, through the HTTP service on PostgreSQL 15`,
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
        cores: cpus().length,
        samples: SAMPLES,
        seed_large_s: round(seedMs.large! / 1000, 1),
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
      await service.close();
      await db.close();
    }
  } finally {
    stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
