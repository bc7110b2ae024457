import { describe, expect, it } from 'vitest';
import { runInProcess } from './cli-run';

/**
 * A connection string's password on a command line is every local user's to read (ps,
 * /proc/PID/cmdline): the operator commands refuse `--database-url` holding one, before they
 * connect, and say where to put it instead. The same string in $DATABASE_URL is taken (here it
 * then fails to connect, to a port nothing listens on: not refused for its password).
 */
const WITH_PASSWORD = 'postgres://svc:s3cret-on-the-command-line@127.0.0.1:1/provisioner';

describe('a password on the command line', () => {
  it.each([['serve'], ['migrate'], ['backup', '--out', '/nonexistent/x.backup'], ['key', 'list', '--org', 'demo']])(
    'is refused by %s, before anything is opened',
    async (...command) => {
      const refused = await runInProcess(['--database-url', WITH_PASSWORD, ...command]);
      expect(refused.code).toBe(1);
      expect(refused.err).toBe(
        '--database-url holds a password, which every local user can read on a command line (ps): give the connection string in $DATABASE_URL instead, or its password in a 0600 file named by $PROVISIONER_DATABASE_PASSWORD_FILE.',
      );
    },
  );

  it('is not what refuses the same string from $DATABASE_URL, nor a --database-url without a password', async () => {
    process.env.DATABASE_URL = WITH_PASSWORD;
    try {
      const fromEnvironment = await runInProcess(['migrate']).catch((error: unknown) => ({
        code: 1,
        out: '',
        err: String(error),
      }));
      expect(fromEnvironment.code).not.toBe(0);
      expect(fromEnvironment.err).not.toContain('holds a password');
      expect(fromEnvironment.err).toMatch(/ECONNREFUSED/);
    } finally {
      delete process.env.DATABASE_URL;
    }
    const withoutPassword = await runInProcess([
      '--database-url',
      'postgres://svc@127.0.0.1:1/provisioner',
      'migrate',
    ]).catch((error: unknown) => ({ code: 1, out: '', err: String(error) }));
    expect(withoutPassword.err).not.toContain('holds a password');
    expect(withoutPassword.err).toMatch(/ECONNREFUSED/);
  });
});
