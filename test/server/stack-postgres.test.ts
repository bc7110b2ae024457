import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PASSWORD_FILE_ENV } from '../../server/db/password-file';
import { pgCtlCommand, startPostgres, type StackPostgres } from '../../scripts/stack';
import { openedWhile, PER_FILE } from '../fixtures/opened-while';
import { useScratchDir } from '../fixtures/scratch';

/**
 * The stack's own PostgreSQL (`npm run stack -- up` without --database-url) trusts nobody, loopback
 * included: a local user (`nobody`) who connects to 127.0.0.1 without the password, or with a
 * wrong one, is refused; the service started as the stack starts it reads the generated password
 * from its 0600 file and gets in. Bounded: one cluster, no instances, no load balancer.
 */

const PG_BIN = process.env.PROVISIONER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const canRun =
  existsSync(join(PG_BIN, 'initdb')) && spawnSync('psql', ['--version']).status === 0 && process.getuid?.() === 0;
const scratch = useScratchDir('stack-postgres');

const cluster = openedWhile(
  PER_FILE,
  "The stack's own PostgreSQL cluster",
  async () => {
    // The cluster's owner (postgres) must reach its directory inside the scratch directory.
    chmodSync(scratch.dir, 0o711);
    return startPostgres(join(scratch.dir, 'run'));
  },
  async ({ postgres }: { postgres: StackPostgres }) => {
    const [command, args] = pgCtlCommand(postgres, 'stop');
    spawnSync(command, args);
  },
  120_000,
);

/** psql as the local user `nobody`, over TCP to 127.0.0.1, never prompting for a password. */
function psqlAsNobody(
  port: number,
  user: string,
  env: Record<string, string> = {},
): { status: number | null; stderr: string } {
  const result = spawnSync(
    'runuser',
    [
      '-u',
      'nobody',
      '--',
      'env',
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      'psql',
      '-w',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      user,
      '-d',
      'postgres',
      '-c',
      'SELECT 1',
    ],
    { encoding: 'utf8' },
  );
  return { status: result.status, stderr: result.stderr };
}

describe.skipIf(!canRun)(
  "the stack's PostgreSQL (needs PostgreSQL 15 server binaries and root, to act as nobody)",
  () => {
    it('keeps the generated password in a 0600 file and authenticates every connection with scram-sha-256', () => {
      const { postgres, databaseUrl } = cluster();
      expect(statSync(postgres.passwordFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(postgres.passwordFile, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
      expect(databaseUrl).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`);
      const rules = readFileSync(join(postgres.dataDir, 'pg_hba.conf'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) expect(rule).toMatch(/\sscram-sha-256$/);
      // initdb's copy of the password is gone.
      expect(readdirSync(join(postgres.dataDir, '..')).filter((name) => name.includes('password'))).toEqual([]);
    });

    it('refuses another local user on 127.0.0.1 without the password, and with a wrong one', () => {
      const { postgres } = cluster();
      const without = psqlAsNobody(postgres.port, postgres.user);
      expect(without.status).not.toBe(0);
      expect(without.stderr).toMatch(/no password supplied|password authentication failed/);
      const wrong = psqlAsNobody(postgres.port, postgres.user, { PGPASSWORD: 'postgres' });
      expect(wrong.status).not.toBe(0);
      expect(wrong.stderr).toMatch(/password authentication failed for user "postgres"/);
    });

    it('lets the service in with the password file, as the stack starts it; not with a file others can read', () => {
      const { postgres, databaseUrl } = cluster();
      const migrate = (env: NodeJS.ProcessEnv) =>
        spawnSync(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'server', 'cli.ts'), '--database-url', databaseUrl, 'migrate'],
          { cwd: ROOT, env, encoding: 'utf8' },
        );
      const withFile = migrate({ ...process.env, [PASSWORD_FILE_ENV]: postgres.passwordFile });
      expect(withFile.status, withFile.stderr).toBe(0);
      expect(withFile.stdout).toMatch(/applied migrations|schema is up to date/);

      const withoutFile = migrate({ PATH: process.env.PATH });
      expect(withoutFile.status).not.toBe(0);

      chmodSync(postgres.passwordFile, 0o644);
      try {
        const readable = migrate({ ...process.env, [PASSWORD_FILE_ENV]: postgres.passwordFile });
        expect(readable.status).not.toBe(0);
        expect(readable.stderr).toContain(
          `The database password file ${postgres.passwordFile} can be read by other users (mode 644): chmod 600`,
        );
      } finally {
        chmodSync(postgres.passwordFile, 0o600);
      }
    });
  },
);
