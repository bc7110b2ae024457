import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Outbox } from '../../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../../main/engine/outbox/outbox-sender';
import { createServiceClient } from '../../main/cloud';
import { down, readState, type StackState } from '../../scripts/stack';
import { call, POSTGRES_URL, scratchDatabase, type ScratchDatabase } from './postgres-cluster';

/**
 * `npm run stack -- up --instances 2` as an operator runs it: two instances on PostgreSQL behind
 * HAProxy. The app's outbox delivers through the load balancer while one instance is killed, and
 * every confirmation is stored exactly once. Runs where CI runs it (.ci/run starts PostgreSQL and
 * installs haproxy).
 */
const haproxyInstalled = spawnSync('haproxy', ['-v']).status === 0;
const skipReason = !POSTGRES_URL
  ? 'needs a PostgreSQL server: set TEST_DATABASE_URL (.ci/run starts one)'
  : !haproxyInstalled
    ? 'needs haproxy (apt-get install -y haproxy; .ci/run installs it)'
    : '';
const STACK_SCRIPT = fileURLToPath(new URL('../../scripts/stack.ts', import.meta.url));

/** A database of the caller's needs the caller's sealing key (docs/operations.md, "Secrets at rest"). */
const SEALING_KEY = randomBytes(32).toString('base64');

function runStack(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', STACK_SCRIPT, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PROVISIONER_SEALING_KEY: SEALING_KEY },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipReason !== '')(`the stack: instances behind HAProxy ${skipReason ? `(${skipReason})` : ''}`, () => {
  let database: ScratchDatabase;
  let runDir: string;
  let stack: StackState;
  let url: string;
  let key: string;

  beforeAll(async () => {
    database = await scratchDatabase();
    runDir = join(mkdtempSync(join(tmpdir(), 'provisioner-stack-test-')), 'run');
    const started = await runStack([
      'up',
      '--instances',
      '2',
      '--database-url',
      database.url,
      '--seed-demo',
      '--run-dir',
      runDir,
    ]);
    expect(started.code, started.err).toBe(0);
    url = started.out.trim();
    stack = readState(runDir)!;
    key = stack.adminKey!;
    // Five processes start one after the other (migrate, seed, two instances, HAProxy): more room
    // than one hook usually needs on a busy 2-core machine.
  }, 240_000);
  afterAll(async () => {
    if (runDir) {
      await down(runDir);
      rmSync(join(runDir, '..'), { recursive: true, force: true });
    }
    await database?.drop();
  });

  it('prints the load balancer URL, which spreads requests over ready instances and passes request ids on', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).toBe(stack.url);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const answer = await call(url, key, 'GET', 'configurations', { headers: { 'X-Request-Id': `stack-test-${i}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBe(`stack-test-${i}`);
    }
    // Each instance answered some of them (round robin), as its own metrics say.
    for (const instance of stack.instances) {
      const metrics = await (await fetch(`${instance.url}/metrics`)).text();
      expect(metrics).toMatch(
        /provisioner_http_request_duration_seconds_count\{method="GET",route="\/v1\/organizations\/:orgId\/configurations",status_code="200"\} [1-9]/,
      );
    }
    // Metrics are read from each instance directly, never through the load balancer.
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
  });

  it('delivers every confirmation of the outbox exactly once while an instance is killed', async () => {
    const serials = ['EPC000101', 'EPC000102', 'NSCP000101', 'NSCP000102'];
    for (const serial of serials)
      expect((await call(url, key, 'POST', `devices?serialNumber=${serial}&name=${serial}`)).status).toBe(201);
    const outboxDir = join(runDir, '..', 'outbox');
    const client = createServiceClient({ baseUrl: url, orgId: 'demo', apiKey: key });
    const outbox = new Outbox({
      dir: outboxDir,
      sender: clientConfirmationSender(() => client),
      backoff: { baseMs: 20, capMs: 200, jitter: 0.2 },
    });
    const total = 40;
    const start = Date.now() - 60_000;
    for (let i = 0; i < total; i++) {
      await outbox.enqueue({
        kind: 'firmware',
        serviceUrl: url,
        orgId: 'demo',
        serialNumber: serials[i % serials.length]!,
        payload: {
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: '1.1.0',
          applyTimeStamp: new Date(start + i * 1000).toISOString(),
        },
      });
    }
    // Send while one instance dies without a word, mid-stream.
    const victim = stack.instances[0]!;
    const sending = (async () => {
      for (let pass = 0; pass < 400 && (await outbox.pending()).count > 0; pass++) {
        await outbox.syncNow({ force: true });
        if ((await outbox.pending()).count > 0) await sleep(50);
      }
    })();
    await sleep(30);
    process.kill(victim.pid, 'SIGKILL');
    await sending;
    expect(await outbox.pending()).toMatchObject({ count: 0, rejected: 0 });
    await outbox.stop();

    const stored = await call(url, key, 'GET', '/v1/version');
    expect(stored.status).toBe(200);
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const confirmations = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM confirmations WHERE kind = 'firmware'",
      );
      const keys = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM confirmation_requests');
      expect(confirmations.rows[0]!.n).toBe(total);
      expect(keys.rows[0]!.n).toBe(total);
    } finally {
      await db.end();
    }
  });

  it('stops everything it started on down', async () => {
    const pids = [stack.haproxy.pid, ...stack.instances.map((instance) => instance.pid)];
    const stopped = await runStack(['down', '--run-dir', runDir]);
    expect(stopped.code).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(readState(runDir)).toBeUndefined();
  });
});
