import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, pgCtlCommand, readState, startPostgres, type StackPostgres, type StackState } from '../../scripts/stack';
import { useScratchDir } from '../fixtures/scratch';

/**
 * `npm run stack` as an operator meets it (issue 31): a stack up on a PostgreSQL whose connection
 * string holds a password puts that password on no process's command line; the database stopped
 * mid-run is answered through HAProxy in the service's JSON envelope (503 DATABASE_UNAVAILABLE,
 * from the instances themselves), logged once per change of state in pino's lines only; with no
 * instance alive HAProxy answers in the envelope too; `down` finds the stack though it was started
 * with --run-dir, and keeps the logs unless told otherwise. The database is a cluster of the
 * stack's own kind (scram-sha-256: the password is really used), started by the test so that the
 * test can stop it; root is needed to run it as postgres.
 */

const PG_BIN = process.env.PROVISIONER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const STACK_SCRIPT = fileURLToPath(new URL('../../scripts/stack.ts', import.meta.url));
const canRun =
  existsSync(join(PG_BIN, 'initdb')) && spawnSync('haproxy', ['-v']).status === 0 && process.getuid?.() === 0;
const SEALING_KEY = randomBytes(32).toString('base64');
const scratch = useScratchDir('stack-operator');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The runbook's lines (docs/operations.md), run as written: the arguments after `npm run stack --`. */
const RUNBOOK_UP = 'npm run stack -- up --instances 2 --seed-demo';
const RUNBOOK_DOWN = 'npm run stack -- down';
const argsOf = (line: string): string[] => line.replace(/^npm run stack -- /, '').split(' ');

function runStack(
  args: string[],
  env: NodeJS.ProcessEnv,
): { done: Promise<{ code: number; out: string; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', STACK_SCRIPT, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    done: new Promise(
      (resolve, reject) => (
        child.on('error', reject),
        child.on('close', (code) => resolve({ code: code ?? 1, out, err }))
      ),
    ),
  };
}

/** Every process's command line (NULs as spaces), by pid: what `ps` shows any local user. */
function commandLines(): Map<number, string> {
  const lines = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      lines.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // Ended meanwhile.
    }
  }
  return lines;
}

interface Answer {
  status: number;
  type: string;
  requestId: string | null;
  body: string;
}

async function get(url: string, key: string): Promise<Answer> {
  const response = await fetch(`${url}/v1/organizations/demo/configurations`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    requestId: response.headers.get('x-request-id'),
    body: await response.text(),
  };
}

const codeOf = (answer: Answer): string | undefined =>
  (JSON.parse(answer.body) as { errors?: Array<{ code: string }> }).errors?.[0]?.code;

describe.skipIf(!canRun)(
  'the stack as an operator runs it (needs PostgreSQL 15 server binaries, haproxy and root)',
  () => {
    let postgres: StackPostgres;
    let password: string;
    let runDir: string;
    let stack: StackState;
    let env: NodeJS.ProcessEnv;
    const seenWithPassword: string[] = [];

    beforeAll(async () => {
      // The cluster's owner (postgres) must pass through the scratch directory to its own.
      chmodSync(scratch.dir, 0o711);
      const started = await startPostgres(join(scratch.dir, 'database'));
      postgres = started.postgres;
      password = readFileSync(postgres.passwordFile, 'utf8').trim();
      const url = new URL(started.databaseUrl);
      url.password = password;
      runDir = join(scratch.dir, 'run');
      env = {
        DATABASE_URL: url.toString(),
        PROVISIONER_SEALING_KEY: SEALING_KEY,
        // The user's list of stacks and default run directory, kept apart from the machine's.
        PROVISIONER_STACK_REGISTRY: join(scratch.dir, 'stacks'),
        PROVISIONER_STACK_DIR: join(scratch.dir, 'default-run'),
      };
      // Command lines are read throughout `up`, so that migrate and seed-demo are seen too.
      const up = runStack([...argsOf(RUNBOOK_UP), '--run-dir', runDir], env);
      let finished = false;
      const result = up.done.finally(() => (finished = true));
      while (!finished) {
        for (const [pid, line] of commandLines()) if (line.includes(password)) seenWithPassword.push(`${pid}: ${line}`);
        await sleep(50);
      }
      const { code, err } = await result;
      expect(code, err).toBe(0);
      expect(err).toContain(`stop with: npm run stack -- down --run-dir ${runDir}`);
      stack = readState(runDir)!;
    }, 240_000);

    afterAll(async () => {
      if (runDir) await down(runDir, { removeLogs: true });
      if (postgres) spawnSync(...pgCtlCommand(postgres, 'stop'));
    });

    it('puts the password of the connection string on no command line: the processes it started read it from their environment', () => {
      for (const [pid, line] of commandLines()) if (line.includes(password)) seenWithPassword.push(`${pid}: ${line}`);
      expect(seenWithPassword).toEqual([]);
      // The instances did get it, and use it (scram-sha-256): they answer.
      for (const instance of stack.instances) {
        expect(commandLines().get(instance.pid)).toMatch(/server\/cli\.ts serve --host 127\.0\.0\.1 --port \d+/);
        expect(readFileSync(`/proc/${instance.pid}/environ`, 'utf8').split('\0')).toContain(
          `DATABASE_URL=${env.DATABASE_URL}`,
        );
      }
    });

    it('refuses --database-url with a password on its own command line, before starting anything', async () => {
      const refused = await runStack(
        ['up', '--database-url', env.DATABASE_URL!, '--run-dir', join(scratch.dir, 'refused')],
        env,
      ).done;
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(
        '--database-url holds a password, which every local user can read on a command line (ps): give the connection string in $DATABASE_URL instead',
      );
      expect(existsSync(join(scratch.dir, 'refused'))).toBe(false);
    });

    it("answers a database outage with the instances' own 503 DATABASE_UNAVAILABLE in the JSON envelope, never HAProxy's page, and is ready again when it is back", async () => {
      const key = stack.adminKey!;
      expect((await get(stack.url, key)).status).toBe(200);
      const haproxyLog = () => readFileSync(stack.haproxy.log, 'utf8');
      expect(haproxyLog()).not.toContain("backend 'instances' has no server available");

      const stopped = spawnSync(...pgCtlCommand(postgres, 'stop'), { encoding: 'utf8' });
      expect(stopped.status, stopped.stderr).toBe(0);
      // Until HAProxy has taken every instance out of the ready ones, and three answers after that.
      const during: Answer[] = [];
      let afterOut = 0;
      for (let attempt = 0; attempt < 600 && afterOut < 3; attempt++) {
        const wasOut = haproxyLog().includes("backend 'instances' has no server available");
        during.push(await get(stack.url, key));
        if (wasOut) afterOut++;
        else await sleep(100);
      }
      expect(afterOut).toBe(3);
      for (const answer of during) {
        expect(answer.status, answer.body).toBe(503);
        expect(answer.type).toMatch(/^application\/json/);
        expect(codeOf(answer)).toBe('DATABASE_UNAVAILABLE');
        // The instance's own answer, with its request id.
        expect(answer.requestId).toBeTruthy();
      }

      const restarted = spawnSync(...pgCtlCommand(postgres, 'start'), { encoding: 'utf8' });
      expect(restarted.status, restarted.stderr).toBe(0);
      let back: Answer | undefined;
      for (let attempt = 0; attempt < 600 && back?.status !== 200; attempt++) {
        back = await get(stack.url, key);
        if (back.status !== 200) await sleep(100);
      }
      expect(back?.status).toBe(200);
      // Both instances have said they are ready again (HAProxy probes each twice a second).
      const readyAgain = (log: string) => log.split('\n').filter((line) => line.includes('"ready again"')).length;
      for (
        let attempt = 0;
        attempt < 600 && stack.instances.some((instance) => readyAgain(readFileSync(instance.log, 'utf8')) === 0);
        attempt++
      )
        await sleep(100);
    }, 240_000);

    it('logs only pino lines, and the change of readiness once each way, not on every probe', () => {
      for (const instance of stack.instances) {
        const lines = readFileSync(instance.log, 'utf8')
          .split('\n')
          .filter((line) => line !== '');
        expect(lines.length).toBeGreaterThan(0);
        const records = lines.map((line) => {
          let record: Record<string, unknown>;
          try {
            record = JSON.parse(line) as Record<string, unknown>;
          } catch {
            throw new Error(`${instance.log} has a line that is not JSON: ${line}`);
          }
          expect(record, line).toMatchObject({
            level: expect.any(Number),
            time: expect.any(Number),
            pid: instance.pid,
            hostname: expect.any(String),
            msg: expect.any(String),
          });
          return record;
        });
        const readiness = records
          .filter((record) => record.readiness !== undefined)
          .map((record) => [record.level, record.msg]);
        expect(readiness).toEqual([
          [40, 'not ready: the database does not answer'],
          [30, 'ready again'],
        ]);
      }
    });

    it('answers in the envelope too when no instance is alive', async () => {
      for (const instance of stack.instances) process.kill(-instance.pid, 'SIGKILL');
      let answer: Answer | undefined;
      for (let attempt = 0; attempt < 600; attempt++) {
        // A connection kept alive to a killed instance may be cut once: asked again.
        answer = await get(stack.url, stack.adminKey!).catch(() => undefined);
        if (answer?.status === 503 && codeOf(answer) === 'NO_INSTANCE_AVAILABLE') break;
        await sleep(100);
      }
      expect(answer?.status).toBe(503);
      expect(answer?.type).toBe('application/json');
      expect(codeOf(answer!)).toBe('NO_INSTANCE_AVAILABLE');
      expect(answer?.body).not.toMatch(/<html/i);
    });

    it('down, without --run-dir, finds the stack, names the stacks when several are up, and keeps the logs unless --remove-logs', async () => {
      // A second stack's state in the default run directory: now down must ask which.
      const other = env.PROVISIONER_STACK_DIR!;
      mkdirSync(other, { recursive: true });
      writeFileSync(join(other, 'stack.json'), JSON.stringify({ runDir: other, instances: [] }), { mode: 0o600 });
      const ambiguous = await runStack(['down'], env).done;
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.err).toContain(`npm run stack -- down --run-dir ${runDir}\n`);
      expect(ambiguous.err).toContain(`npm run stack -- down --run-dir ${other}\n`);
      expect((await runStack(['down', '--run-dir', other, '--remove-logs'], env).done).code).toBe(0);
      expect(existsSync(other)).toBe(false);

      const stopped = await runStack(argsOf(RUNBOOK_DOWN), env).done;
      expect(stopped.code, stopped.err).toBe(0);
      expect(stopped.err).toContain(`stopped the stack in ${runDir}; its logs are in ${runDir}`);
      expect(() => process.kill(stack.haproxy.pid, 0)).toThrow();
      expect(readdirSync(runDir).sort()).toEqual(['haproxy.log', 'instance-1.log', 'instance-2.log']);
      expect(readFileSync(env.PROVISIONER_STACK_REGISTRY!, 'utf8')).not.toContain(runDir);
      const again = await runStack(['down'], env).done;
      expect(again.err).toContain('no stack is up');

      expect((await runStack(['down', '--run-dir', runDir, '--remove-logs'], env).done).code).toBe(0);
      expect(existsSync(runDir)).toBe(false);
    });
  },
);

describe('stack --help', () => {
  it('explains each subcommand and its options', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', STACK_SCRIPT, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const expected of [
      /^ {2}up +Start a stack/m,
      /^ {2}down +Stop a stack/m,
      /--instances N/,
      /--seed-demo/,
      /--run-dir DIR/,
      /--remove-logs/,
      /\$DATABASE_URL/,
      /logs stay/,
    ]) {
      expect(help.stdout).toMatch(expected);
    }
  });
});
