import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECURITY_LOG_ENV } from '../../server/cli/security-log';
import { runInProcess, useOperatorDataDir } from './cli-run';

/**
 * The operator commands log what an auditor follows as the API does (docs/operations.md, "Logs"):
 * a key issued, rotated or revoked, a backup, a restore, the secrets resealed, each one pino-shaped
 * line with a `security` field naming the operating-system user, on stderr and in
 * $PROVISIONER_SECURITY_LOG. Run through the same commander program as the bin, on a PGlite
 * directory of their own.
 */

interface Line {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  msg: string;
  security?: Record<string, unknown>;
}

/** The JSON lines of a command's stderr that are security events. */
function events(err: string): Line[] {
  return err
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.security !== undefined);
}

const operator = useOperatorDataDir('operator-security-events');
const by = `operator:${process.env.SUDO_USER || userInfo().username}`;

describe('security events of the operator commands', () => {
  afterEach(() => {
    delete process.env[SECURITY_LOG_ENV];
    delete process.env.PROVISIONER_SEALING_KEY_FILE;
  });

  it('logs nothing for a command that changed nothing', async () => {
    const refused = await runInProcess([
      'key',
      'revoke',
      '--org',
      'demo',
      '--name',
      'no-such-key',
      '--data',
      operator.data,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('has no key named "no-such-key"');
    expect(events(refused.err)).toEqual([]);
  });

  it('logs key create, rotate and revoke, backup, restore and secrets reseal, on stderr and in $PROVISIONER_SECURITY_LOG', async () => {
    const logFile = join(operator.dir, 'security.log');
    process.env[SECURITY_LOG_ENV] = logFile;
    const data = ['--data', operator.data];
    const run = async (args: string[]) => {
      const result = await runInProcess([...args, ...data]);
      expect(result.code, result.err).toBe(0);
      return result;
    };

    const created = await run(['key', 'create', '--org', 'demo', '--name', 'line-9', '--role', 'Operator']);
    const keyValue = created.out.trim();
    const rotated = await run(['key', 'rotate', '--org', 'demo', '--name', 'line-9', '--old-valid-for', '0']);
    const revoked = await run(['key', 'revoke', '--org', 'demo', '--name', 'line-9']);
    const backupFile = join(operator.dir, 'copy.backup');
    const backup = await run(['backup', '--out', backupFile]);
    const restore = await run(['restore', backupFile]);
    const keyFile = join(operator.dir, 'sealing-key');
    writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const resealed = await run(['secrets', 'reseal', '--new-key-file', keyFile]);
    // Reading changes nothing, and is not an event.
    process.env.PROVISIONER_SEALING_KEY_FILE = keyFile;
    const listed = await run(['key', 'list', '--org', 'demo']);

    const each = [created, rotated, revoked, backup, restore, resealed].map((result) => events(result.err));
    for (const lines of each) expect(lines).toHaveLength(1);
    expect(events(listed.err)).toEqual([]);
    const [createdLine, rotatedLine, revokedLine, backupLine, restoreLine, resealLine] = each.map((lines) => lines[0]!);
    expect(createdLine).toMatchObject({
      level: 30,
      pid: process.pid,
      hostname: hostname(),
      msg: 'API key created',
      security: { event: 'key-created', orgId: 'demo', keyName: 'line-9', role: 'Operator', by },
    });
    expect(rotatedLine).toMatchObject({
      security: { event: 'key-rotated', orgId: 'demo', keyName: 'line-9', role: 'Operator', by },
      msg: expect.stringMatching(/^API key rotated; the old key works until \d{4}-/),
    });
    expect(revokedLine).toMatchObject({
      msg: 'API key revoked',
      security: { event: 'key-revoked', orgId: 'demo', keyName: 'line-9', role: 'Operator', by },
    });
    expect(backupLine).toMatchObject({
      msg: 'database backed up',
      security: { event: 'backup', target: operator.data, file: backupFile, by },
    });
    expect(restoreLine).toMatchObject({
      msg: 'database restored',
      security: { event: 'restore', target: operator.data, file: backupFile, by },
    });
    expect(resealLine).toMatchObject({ security: { event: 'configuration', setting: 'sealing-key', by } });
    for (const lines of each) expect(lines[0]!.time).toBeGreaterThan(0);

    // Never a key's value.
    const all = [created, rotated, revoked].map((result) => result.err).join('');
    expect(all).not.toContain(keyValue);
    expect(all).not.toContain(rotated.out.trim());

    // The same lines, in the same order, in the file; readable by no one but its owner and group.
    const filed = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
    expect(filed.map((line) => line.security?.event)).toEqual([
      'key-created',
      'key-rotated',
      'key-revoked',
      'backup',
      'restore',
      'configuration',
    ]);
    expect(filed).toEqual([createdLine, rotatedLine, revokedLine, backupLine, restoreLine, resealLine]);
    expect(statSync(logFile).mode & 0o027).toBe(0);
  });
});
