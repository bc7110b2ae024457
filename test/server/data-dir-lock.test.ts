import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server';
import { dataDirLockPath, DataDirBusyError } from '../../server/db/data-dir-lock';
import { openPglite } from '../../server/db/pglite';
import { runInProcess, useOperatorDataDir } from './cli-run';
import { startServe as startServeProcess } from './helpers/serve-process';

function startServe(data: string): ReturnType<typeof startServeProcess> {
  return startServeProcess(['serve', '--port', '0', '--data', data]);
}

async function keyNames(url: string, adminKey: string, orgId: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/organizations/${orgId}/apiKeys?Limit=30`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as { data: { name: string }[] };
  return body.data.map((key) => key.name).sort();
}

describe('one process per PGlite data directory', () => {
  const operator = useOperatorDataDir('data-dir-lock');
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });

  it('a second opener in this process is refused while the first holds it, and gets it once closed', async () => {
    const first = await openPglite(operator.data);
    try {
      const refused = await openPglite(operator.data).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataDirBusyError);
      expect((refused as DataDirBusyError).holder?.pid).toBe(process.pid);
    } finally {
      await first.close();
    }
    expect(existsSync(dataDirLockPath(operator.data))).toBe(false);
    const again = await openPglite(operator.data);
    await again.close();
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    const pid = gone.pid!;
    await new Promise((resolve) => gone.on('exit', resolve));
    const now = Date.now();
    writeFileSync(
      dataDirLockPath(operator.data),
      JSON.stringify({
        pid,
        hostname: (await import('node:os')).hostname(),
        token: 'left-behind',
        acquiredAt: now,
        refreshedAt: now,
      }),
    );
    const db = await openPglite(operator.data);
    await db.close();
    expect(existsSync(dataDirLockPath(operator.data))).toBe(false);
  });

  it('every operator command against a directory `serve` holds is refused in one line naming it; nothing changes', async () => {
    const adminKey = (await runInProcess(['seed-demo', '--data', operator.data])).out.trim();
    const earlier = join(operator.dir, 'earlier.backup');
    expect((await runInProcess(['backup', '--out', earlier, '--data', operator.data])).code).toBe(0);

    const serve = startServe(operator.data);
    running.push(serve.child);
    const { url } = await serve.started;
    const before = await keyNames(url, adminKey, 'demo');
    const attempted = join(operator.dir, 'during.backup');

    // All at once, as an operator with several terminals (or a cron job) would.
    const commands: string[][] = [
      ['key', 'create', '--org', 'demo', '--name', 'during-serve', '--role', 'Service'],
      ['org', 'create', 'during-serve'],
      ['seed-demo'],
      ['backup', '--out', attempted],
      ['restore', earlier],
      ['migrate'],
      ['signing-key', 'show'],
    ];
    const runs = await Promise.all(commands.map((args) => runInProcess([...args, '--data', operator.data])));
    for (const [index, run] of runs.entries()) {
      const what = commands[index]!.join(' ');
      expect(run.code, what).toBe(1);
      expect(run.out, what).toBe('');
      expect(run.err, what).not.toContain('\n');
      expect(run.err, what).toMatch(/is in use by process \d+ \(.*serve.*\) since .*Stop process \d+ first/);
      expect(run.err, what).toContain(dataDirLockPath(operator.data));
    }

    // The running service saw none of it, and answers as before.
    expect(await keyNames(url, adminKey, 'demo')).toEqual(before);
    expect(existsSync(attempted)).toBe(false);
    expect(readdirSync(dirname(operator.data)).filter((name) => name.includes('before-restore'))).toEqual([]);

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(existsSync(dataDirLockPath(operator.data))).toBe(false);

    // Stopped: the same commands run, and what they wrote is there on the next start.
    const created = await runInProcess([
      'key',
      'create',
      '--org',
      'demo',
      '--name',
      'after-serve',
      '--role',
      'Service',
      '--data',
      operator.data,
    ]);
    expect(created.code).toBe(0);
    const restarted = startServe(operator.data);
    running.push(restarted.child);
    const second = await restarted.started;
    expect(await keyNames(second.url, adminKey, 'demo')).toEqual([...before, 'after-serve'].sort());
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });

  it('serve and key create started at the same instant: one has the directory, the other is refused, nothing is lost', async () => {
    const adminKey = (await runInProcess(['seed-demo', '--data', operator.data])).out.trim();
    const serve = startServe(operator.data);
    running.push(serve.child);
    const created = await runInProcess([
      'key',
      'create',
      '--org',
      'demo',
      '--name',
      'raced',
      '--role',
      'Operator',
      '--data',
      operator.data,
    ]);
    const served = await serve.started.then(
      (s) => s,
      () => undefined,
    );
    if (created.code === 0) {
      // The command won (or finished before serve opened): the key is in the database serve reads.
      let service = served;
      if (!service) {
        expect(await serve.exited).toBe(1);
        const again = startServe(operator.data);
        running.push(again.child);
        service = await again.started;
      }
      const check = await fetch(`${service.url}/v1/organizations/demo/apiKeys/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.out.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: created.out.trim() }),
      });
      expect(check.status).toBe(200);
      expect(((await check.json()) as { data: { valid: boolean; keyName: string } }).data).toMatchObject({
        valid: true,
        keyName: 'raced',
      });
      service.child.kill('SIGTERM');
    } else {
      // serve won: the command was refused, and the key exists nowhere.
      expect(served).toBeDefined();
      expect(created.err).toMatch(/is in use by process \d+/);
      expect(await keyNames(served!.url, adminKey, 'demo')).not.toContain('raced');
      served!.child.kill('SIGTERM');
    }
    for (const child of running) if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
    const db = await openDatabase({ dataDir: operator.data });
    try {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM api_keys WHERE name = 'raced'");
      expect(rows[0]!.n).toBe(created.code === 0 ? 1 : 0);
    } finally {
      await db.close();
    }
  });
});
