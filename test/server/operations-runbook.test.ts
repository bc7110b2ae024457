import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeBlocks, type CodeBlock } from '../fixtures/markdown-code-blocks';
import { useOperatorDataDir } from './cli-run';
import { startServe } from './helpers/serve-process';
import { POSTGRES_URL, scratchDatabase } from './postgres-cluster';

/**
 * docs/operations.md is a runbook: every code block in it is either run here as written (on a
 * scratch database; the only changes are the substitutions listed with it, which put what would
 * be the production machine's paths and addresses in a scratch directory and on loopback), or
 * appears line by line in the test file named with it, or is listed below with the reason it is
 * neither. A block added to the runbook and not listed here fails the first test.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNBOOK = 'docs/operations.md';
// Each operator command is a process that loads the service and its embedded database (seconds of
// CPU): a block of four takes minutes on a busy two-core machine, hence the long time limits.

type Coverage =
  /** Run by a test below. */
  | { how: 'run' }
  /** Each line appears, as written, in that test file (which runs it). */
  | { how: 'verbatim'; file: string }
  | { how: 'not-run'; reason: string };

/** Every block of the runbook, by its first line. */
const COVERAGE: ReadonlyArray<{ firstLine: string; coverage: Coverage }> = [
  {
    firstLine: 'npm run stack -- up --instances 2 --seed-demo',
    coverage: { how: 'verbatim', file: 'test/server/stack-operator.test.ts' },
  },
  {
    firstLine: 'DATABASE_URL=postgres://svc:…@db.internal/provisioner npm run server -- migrate',
    coverage: { how: 'run' },
  },
  {
    firstLine: 'CREATE EXTENSION pg_trgm;',
    coverage: { how: 'verbatim', file: 'test/server/search-indexes-role.test.ts' },
  },
  { firstLine: 'provisioner-service serve --host 0.0.0.0 --port 8080', coverage: { how: 'run' } },
  {
    firstLine:
      '{"level":30,"reqId":"…","audit":{"orgId":"demo","keyName":"line-3","role":"Operator","method":"GET","route":"/v1/organizations/:orgId/configurations","status":200,"outcome":"ok","client":"203.0.113.7"},"msg":"request"}',
    coverage: {
      how: 'not-run',
      reason: 'an example of the audit line, not a command; test/server/audit-log.test.ts checks its fields',
    },
  },
  {
    firstLine: '/var/log/provisioner/service.log {',
    coverage: {
      how: 'not-run',
      reason: 'a logrotate configuration, not a command (logrotate is not installed on the test machine)',
    },
  },
  { firstLine: 'npm run server -- backup --out provisioner-2026-11-30.backup', coverage: { how: 'run' } },
  {
    firstLine:
      'error: .provisioner-data/service is in use by process 4242 (node … serve) since 2026-11-30T08:00:00.000Z: a PGlite data directory can be opened by one process at a time. Stop process 4242 first …',
    coverage: {
      how: 'not-run',
      reason: 'an example of the refusal a command prints, not a command; test/server/data-dir-lock.test.ts meets it',
    },
  },
  { firstLine: 'npm run server -- key create --org demo --name line-2 --role Service', coverage: { how: 'run' } },
  {
    firstLine:
      'openssl rand -base64 32 > /etc/provisioner/sealing-key.new && chmod 600 /etc/provisioner/sealing-key.new',
    coverage: { how: 'run' },
  },
  {
    firstLine: 'dpkg -i ./provisioner-service_*_amd64.deb ./provisioner_*_amd64.deb',
    coverage: { how: 'verbatim', file: 'test/scripts/debian-packages.test.ts' },
  },
  {
    firstLine:
      'install -m 600 -o provisioner-service -g provisioner-service /dev/null /etc/provisioner-service/database-password',
    coverage: { how: 'verbatim', file: 'test/scripts/debian-packages.test.ts' },
  },
  {
    firstLine: '# /lib/systemd/system/provisioner-service.service (from the provisioner-service package)',
    coverage: {
      how: 'not-run',
      reason:
        'a systemd unit, not a command (no systemd in the test machine); test/scripts/debian-packages.test.ts checks it is the unit the package installs, line for line, and starts the service as its ExecStart, User, WorkingDirectory and EnvironmentFile say',
    },
  },
];

const blocks = (): CodeBlock[] => codeBlocks(readFileSync(join(ROOT, RUNBOOK), 'utf8'));
const firstLine = (block: CodeBlock) => block.text.split('\n')[0]!;

/** The runbook's block that starts with `first`, as it is written now. */
function block(first: string): string {
  const found = blocks().find((candidate) => firstLine(candidate) === first);
  if (!found)
    throw new Error(`${RUNBOOK} has no block starting "${first}" any more: update COVERAGE and the test that runs it.`);
  return found.text;
}

/** A data directory as `seed-demo` leaves it (from the test template: no initdb), in a scratch directory. */
const scratch = useOperatorDataDir('operations-runbook');

/**
 * Runs a block with bash (every line must succeed) from the repository, as an operator would from
 * the installed package, after the substitutions given. The embedded database is the scratch
 * directory's (PROVISIONER_SERVICE_DATA); nothing of the caller's database or keys is passed on.
 */
function runBlock(
  text: string,
  substitutions: Record<string, string> = {},
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  let script = text;
  for (const [from, to] of Object.entries(substitutions)) {
    expect(script, `the substitution of "${from}"`).toContain(from);
    script = script.replaceAll(from, to);
  }
  const base = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'PROVISIONER_SEALING_KEY',
    'PROVISIONER_SEALING_KEY_FILE',
    'PROVISIONER_DATABASE_PASSWORD_FILE',
    'PROVISIONER_SECURITY_LOG',
  ])
    delete base[name];
  return spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...base, PROVISIONER_SERVICE_DATA: scratch.data, ...env },
  });
}

describe(`${RUNBOOK} as a runbook`, () => {
  it('lists every block of the runbook, and no block that is not there', () => {
    const listed = new Set(COVERAGE.map((entry) => entry.firstLine));
    const found = blocks();
    const unlisted = found
      .filter((candidate) => !listed.has(firstLine(candidate)))
      .map((candidate) => `line ${candidate.line}: ${firstLine(candidate)}`);
    expect(
      unlisted,
      `blocks of ${RUNBOOK} that no test runs: run each in ${fileURLToPath(import.meta.url)} (or in a test named in COVERAGE), or list it with the reason it is not run`,
    ).toEqual([]);
    const stale = [...listed].filter((first) => !found.some((candidate) => firstLine(candidate) === first));
    expect(stale, `COVERAGE names blocks ${RUNBOOK} no longer has`).toEqual([]);
  });

  it('finds each line of the blocks said to be copied from a test in that test', () => {
    for (const { firstLine: first, coverage } of COVERAGE) {
      if (coverage.how !== 'verbatim') continue;
      const source = readFileSync(join(ROOT, coverage.file), 'utf8');
      for (const line of block(first)
        .split('\n')
        .filter((text) => text.trim() !== ''))
        expect(source, `${coverage.file} should run: ${line}`).toContain(line);
    }
  });

  it.skipIf(!POSTGRES_URL)(
    'runs the migration line against a PostgreSQL database (DATABASE_URL in the environment; needs TEST_DATABASE_URL, which .ci/run sets)',
    async () => {
      const database = await scratchDatabase();
      try {
        const result = runBlock(
          block('DATABASE_URL=postgres://svc:…@db.internal/provisioner npm run server -- migrate'),
          { 'postgres://svc:…@db.internal/provisioner': database.url },
        );
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/applied migrations 1, 2, /);
      } finally {
        await database.drop();
      }
    },
    600_000,
  );

  it('runs the API key lines on the embedded database with the demo organization', () => {
    const result = runBlock(block('npm run server -- key create --org demo --name line-2 --role Service'));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^line-2 {2}Service {2}created /m);
    expect(result.stdout).toContain('revoked line-2 of organization demo (2 keys');
  }, 600_000);

  it('runs the backup and restore lines', () => {
    const file = join(scratch.dir, 'provisioner-2026-11-30.backup');
    const result = runBlock(block('npm run server -- backup --out provisioner-2026-11-30.backup'), {
      'provisioner-2026-11-30.backup': file,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`wrote ${file}`);
    expect(result.stdout).toContain(`restored ${file}`);
  }, 600_000);

  it('runs the instance line (on loopback and a free port), which serves until SIGTERM and then exits 0', async () => {
    const line = block('provisioner-service serve --host 0.0.0.0 --port 8080');
    expect(line.split('\n')).toHaveLength(1);
    // The bin is `provisioner-service` once the package is installed.
    expect(line).toMatch(/^provisioner-service /);
    const args = line
      .replace(/^provisioner-service /, '')
      .replace('--host 0.0.0.0', '--host 127.0.0.1')
      .replace('--port 8080', '--port 0')
      .split(' ');
    const { started, exited, child } = startServe(args, {
      ...process.env,
      DATABASE_URL: '',
      PROVISIONER_SERVICE_DATA: scratch.data,
    });
    const { url } = await started;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 600_000);

  it('runs the lines that change the sealing key (last: the database is then sealed with the new one)', () => {
    const etc = join(scratch.dir, 'etc-provisioner');
    mkdirSync(etc);
    const result = runBlock(
      block('openssl rand -base64 32 > /etc/provisioner/sealing-key.new && chmod 600 /etc/provisioner/sealing-key.new'),
      { '/etc/provisioner': etc },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^resealed \d+ secrets$/m);
    // The key it wrote now opens the database, and nothing else does.
    const withKey = runBlock(
      'npm run server -- signing-key show',
      {},
      { PROVISIONER_SEALING_KEY_FILE: join(etc, 'sealing-key.new') },
    );
    expect(withKey.status, withKey.stderr).toBe(0);
    expect(runBlock('npm run server -- signing-key show').status).not.toBe(0);
  }, 600_000);
});
