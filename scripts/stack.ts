/**
 * `npm run stack -- up [--instances N]` / `npm run stack -- down`: the service as it runs at scale,
 * on this machine: N stateless instances on one PostgreSQL database behind HAProxy (Debian's
 * package), everything on 127.0.0.1. `up` prints the one URL to use; `down` stops what `up`
 * started (found through stack-registry.ts whatever --run-dir it was given) and keeps the logs.
 * Without $DATABASE_URL `up` also starts a throwaway PostgreSQL cluster in the run directory. No
 * process it starts has the connection string on its command line (where `ps` shows it to every
 * local user): each reads it from its environment. docs/operations.md says how to run the same in
 * production.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  rmdirSync,
  writeFileSync,
  chownSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { carriesPassword, PASSWORD_FILE_ENV, PASSWORD_ON_COMMAND_LINE } from '../server/db/password-file';
import { haproxyConfig } from './stack-haproxy';
import { listedRunDirs, listRunDir, ownedByMe, unlistRunDir } from './stack-registry';
import { serviceHeapArgs } from './service-heap.mjs';

export { haproxyConfig, METRICS_DENY_RULES } from './stack-haproxy';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVICE_CLI = join(ROOT, 'server', 'cli.ts');
const PG_BIN = process.env.PROVISIONER_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface StackInstance {
  name: string;
  pid: number;
  port: number;
  url: string;
  log: string;
}

export interface StackPostgres {
  dataDir: string;
  port: number;
  /** The user that owns and runs the cluster (postgres when we run as root: initdb refuses root). */
  user: string;
  log: string;
  /**
   * The generated password of `user` (scram-sha-256; the cluster trusts no one, loopback
   * included): a 0600 file of the user who ran `up`, which the instances read
   * (PROVISIONER_DATABASE_PASSWORD_FILE).
   */
  passwordFile: string;
}

export interface StackState {
  runDir: string;
  /** The load balancer: the one URL clients use. */
  url: string;
  databaseUrl: string;
  instances: StackInstance[];
  haproxy: { pid: number; port: number; config: string; log: string };
  /** Set when `up` started its own cluster (and `down` stops it). */
  postgres?: StackPostgres;
  /** The demo organization's Admin key, when `up` seeded it. */
  adminKey?: string;
}

export interface StackOptions {
  instances: number;
  runDir: string;
  /** 0 picks a free port. */
  port: number;
  databaseUrl?: string;
  seedDemo: boolean;
  log?: (line: string) => void;
}

export function defaultRunDir(): string {
  return process.env.PROVISIONER_STACK_DIR ?? join(tmpdir(), `provisioner-stack-${userInfo().username}`);
}

const stateFile = (runDir: string) => join(runDir, 'stack.json');

export function readState(runDir: string): StackState | undefined {
  const file = stateFile(runDir);
  if (!existsSync(file)) return undefined;
  // down stops the processes it names: a file another user could have written is not believed.
  if (!ownedByMe(file)) throw new Error(`${file} is not yours alone (another user could write it): not using it.`);
  return JSON.parse(readFileSync(file, 'utf8')) as StackState;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `url` until it answers 200; gives up after `attempts` tries a tenth of a second apart. */
export async function waitUntilOk(url: string, attempts = 600): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200 after ${attempts} tries.`);
}

function run(command: string, args: string[], what: string, env?: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', ...(env ? { env } : {}) });
  if (result.error) throw new Error(`${what}: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** The service's operator CLI through tsx, as `npm run server` runs it. */
const serviceCommand = (args: string[]): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', SERVICE_CLI, ...args],
];

/** The environment the service's processes get: the connection string in it, never on their command line. */
const serviceEnv = (databaseUrl: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...env,
  DATABASE_URL: databaseUrl,
});

/** Commands run as the cluster's owner: initdb and the server refuse to run as root. */
function asOwner(user: string, command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 && user !== 'root'
    ? ['runuser', ['-u', user, '--', command, ...args]]
    : [command, args];
}

/**
 * A throwaway cluster in `runDir/postgres`, on 127.0.0.1 and a socket in that directory. Every
 * connection, local socket and loopback alike, authenticates with scram-sha-256 and a password
 * generated here: with trust, any local user would be its superuser (and run programs as its
 * owner). The password is in `runDir/database-password` (0600); the connection string carries none.
 */
export async function startPostgres(runDir: string): Promise<{ postgres: StackPostgres; databaseUrl: string }> {
  const dir = join(runDir, 'postgres');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const root = process.getuid?.() === 0;
  const user = root ? 'postgres' : userInfo().username;
  let ownerUid = -1;
  if (root) {
    if (spawnSync('id', ['postgres']).status !== 0)
      run('useradd', ['--system', '--no-create-home', 'postgres'], 'creating the postgres user');
    ownerUid = Number(run('id', ['-u', 'postgres'], 'id').trim());
    chownSync(dir, ownerUid, -1);
    // The owner passes through the run directory to its own (whatever the umask made it), and lists nothing there.
    chmodSync(runDir, 0o711);
  }
  const password = randomBytes(32).toString('base64url');
  const passwordFile = join(runDir, 'database-password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  const postgres: StackPostgres = {
    dataDir: join(dir, 'data'),
    port: await freePort(),
    user,
    log: join(dir, 'postgres.log'),
    passwordFile,
  };
  // initdb reads the superuser's password from a file of the cluster's owner, removed once read.
  const initdbPasswordFile = join(dir, 'initdb-password');
  writeFileSync(initdbPasswordFile, `${password}\n`, { mode: 0o600 });
  if (root) chownSync(initdbPasswordFile, ownerUid, -1);
  try {
    run(
      ...asOwner(user, join(PG_BIN, 'initdb'), [
        '-D',
        postgres.dataDir,
        '-U',
        user,
        '--auth=scram-sha-256',
        `--pwfile=${initdbPasswordFile}`,
      ]),
      'initdb',
    );
  } finally {
    rmSync(initdbPasswordFile, { force: true });
  }
  pgCtl(postgres, 'start');
  return { postgres, databaseUrl: `postgres://${user}@127.0.0.1:${postgres.port}/postgres` };
}

/** The pg_ctl command that starts, stops or restarts the stack's own cluster and waits until it has. */
export function pgCtlCommand(postgres: StackPostgres, action: 'start' | 'stop' | 'restart'): [string, string[]] {
  const dir = join(postgres.dataDir, '..');
  const args = ['-D', postgres.dataDir, '-l', postgres.log, '-w', action];
  if (action !== 'stop')
    args.splice(2, 0, '-o', `-p ${postgres.port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`);
  if (action !== 'start') args.splice(args.length - 1, 0, '-m', 'fast');
  return asOwner(postgres.user, join(PG_BIN, 'pg_ctl'), args);
}

function pgCtl(postgres: StackPostgres, action: 'start' | 'stop'): void {
  run(...pgCtlCommand(postgres, action), `pg_ctl ${action}`);
}

/**
 * One instance: `serve` in its own process group, so that it outlives `up` and can be killed alone.
 * Its log is its stderr, pino's lines only; stdout says no more than the address it listens on.
 */
export async function startInstance(
  runDir: string,
  name: string,
  databaseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StackInstance> {
  const port = await freePort();
  const log = join(runDir, `${name}.log`);
  const fd = openSync(log, 'a');
  const [command, args] = serviceCommand(['serve', '--host', '127.0.0.1', '--port', String(port)]);
  // `serve` runs with the bounded heap it has wherever it is started, unless NODE_OPTIONS says otherwise.
  const child = spawn(command, [...serviceHeapArgs(env.NODE_OPTIONS), ...args], {
    cwd: ROOT,
    env: serviceEnv(databaseUrl, env),
    detached: true,
    stdio: ['ignore', 'ignore', fd],
  });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`Cannot start ${name}.`);
  return { name, pid: child.pid, port, url: `http://127.0.0.1:${port}`, log };
}

function startHaproxy(runDir: string, port: number, instances: readonly StackInstance[]): StackState['haproxy'] {
  const config = join(runDir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, instances));
  run('haproxy', ['-c', '-q', '-f', config], 'checking the HAProxy configuration (apt-get install -y haproxy)');
  const log = join(runDir, 'haproxy.log');
  const fd = openSync(log, 'a');
  const child = spawn('haproxy', ['-db', '-f', config], { cwd: runDir, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error('Cannot start haproxy.');
  return { pid: child.pid, port, config, log };
}

export async function up(options: StackOptions): Promise<StackState> {
  const log = options.log ?? (() => {});
  const runDir = resolve(options.runDir);
  const running = readState(runDir);
  if (
    running &&
    [running.haproxy?.pid, ...running.instances.map((i) => i.pid)].some((pid) => pid !== undefined && isAlive(pid))
  ) {
    throw new Error(
      `A stack is already up at ${running.url} (run directory ${runDir}): npm run stack -- down --run-dir ${runDir} first.`,
    );
  }
  // What a stack that ended badly left (its PostgreSQL may still run) goes first; earlier logs
  // stay, and the instances append to them.
  await down(runDir);
  removeAllButLogs(runDir);
  mkdirSync(runDir, { recursive: true });
  listRunDir(runDir);
  const state: Partial<StackState> & { runDir: string; instances: StackInstance[] } = { runDir, instances: [] };
  // It may hold the demo Admin key: the user's alone.
  const save = () => writeFileSync(stateFile(runDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  try {
    if (options.databaseUrl) {
      state.databaseUrl = options.databaseUrl;
    } else {
      log('starting a throwaway PostgreSQL cluster');
      const started = await startPostgres(runDir);
      state.postgres = started.postgres;
      state.databaseUrl = started.databaseUrl;
    }
    save();
    const databaseUrl = state.databaseUrl;
    // The service's processes read the password of the stack's own cluster from its file.
    const baseEnv = state.postgres ? { ...process.env, [PASSWORD_FILE_ENV]: state.postgres.passwordFile } : process.env;
    // On PostgreSQL an instance refuses to start without a sealing key (docs/operations.md): the
    // stack's own cluster gets one made for it, 0600 in the run directory; a given database keeps
    // whatever key the caller's environment names.
    const sealingKeyFile = join(runDir, 'sealing-key');
    if (state.postgres && !baseEnv.PROVISIONER_SEALING_KEY && !baseEnv.PROVISIONER_SEALING_KEY_FILE) {
      writeFileSync(sealingKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    }
    const env = existsSync(sealingKeyFile) ? { ...baseEnv, PROVISIONER_SEALING_KEY_FILE: sealingKeyFile } : baseEnv;
    // Once, before any instance: the instances would also migrate (one at a time, under the lock).
    log('migrating');
    run(...serviceCommand(['migrate']), 'migrate', serviceEnv(databaseUrl, env));
    if (options.seedDemo)
      state.adminKey = run(...serviceCommand(['seed-demo']), 'seed-demo', serviceEnv(databaseUrl, env)).trim();
    for (let i = 1; i <= options.instances; i++) {
      state.instances.push(await startInstance(runDir, `instance-${i}`, databaseUrl, env));
      save();
    }
    log(`starting ${options.instances} instances`);
    await Promise.all(state.instances.map((instance) => waitUntilOk(`${instance.url}/readyz`)));
    state.haproxy = startHaproxy(runDir, options.port || (await freePort()), state.instances);
    state.url = `http://127.0.0.1:${state.haproxy.port}`;
    save();
    await waitUntilOk(`${state.url}/readyz`);
    return state as StackState;
  } catch (error) {
    save();
    await down(runDir);
    throw error;
  }
}

async function stopProcess(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  // Each was started in its own process group: the group takes tsx's child along.
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      try {
        process.kill(pid, name);
      } catch {
        // Gone meanwhile.
      }
    }
  };
  signal('SIGTERM');
  for (let attempt = 0; attempt < 100 && isAlive(pid); attempt++) await sleep(100);
  if (isAlive(pid)) signal('SIGKILL');
}

const isLog = (name: string) => name.endsWith('.log');

/**
 * Empties the run directory but for the logs (the instances', HAProxy's, and PostgreSQL's, moved up
 * out of the cluster's directory): the state, the generated password and sealing key and the
 * cluster go.
 */
function removeAllButLogs(runDir: string): void {
  if (!existsSync(runDir)) return;
  const postgresLog = join(runDir, 'postgres', 'postgres.log');
  if (existsSync(postgresLog)) copyFileSync(postgresLog, join(runDir, 'postgres.log'));
  for (const name of readdirSync(runDir))
    if (!isLog(name)) rmSync(join(runDir, name), { recursive: true, force: true });
}

/** The logs a stack writes (by their names: the directory may be anyone's), and the run directory when nothing else is left in it. */
function removeLogs(runDir: string): void {
  if (!existsSync(runDir)) return;
  for (const name of readdirSync(runDir))
    if (/^(instance-\d+|haproxy|postgres)\.log$/.test(name)) rmSync(join(runDir, name), { force: true });
  if (readdirSync(runDir).length === 0) rmdirSync(runDir);
}

/**
 * Stops what `up` started in `runDir` and removes what it made there, keeping the logs unless
 * `removeLogs` (then the directory goes too, when the logs were all it held). Whether a stack was
 * there.
 */
export async function down(runDir: string, options: { removeLogs?: boolean } = {}): Promise<boolean> {
  runDir = resolve(runDir);
  const state = readState(runDir) as Partial<StackState> | undefined;
  if (state) {
    const pids = [state.haproxy?.pid, ...(state.instances ?? []).map((instance) => instance.pid)].filter(
      (pid): pid is number => pid !== undefined,
    );
    await Promise.all(pids.map(stopProcess));
    if (state.postgres && existsSync(join(state.postgres.dataDir, 'postmaster.pid'))) pgCtl(state.postgres, 'stop');
    removeAllButLogs(runDir);
  }
  if (options.removeLogs) removeLogs(runDir);
  unlistRunDir(runDir);
  return state !== undefined;
}

/** The run directories of this user's stacks that are up (their state is there): the default one and those `up` listed. */
export function stacksUp(): string[] {
  const dirs = [...new Set([resolve(defaultRunDir()), ...listedRunDirs()])];
  return dirs.filter((dir) => readState(dir) !== undefined);
}

const HELP = `npm run stack -- <command> [options]: the service at scale on this machine, as in production
(docs/operations.md): instances on one PostgreSQL database behind HAProxy, all on 127.0.0.1.

Commands:
  up      Start a stack and print its URL (the load balancer's) on stdout.
            --instances N        how many instances (1 to 16; default 2)
            --port PORT          the load balancer's port (default: a free one)
            --seed-demo          make the demo organization and print its Admin key on stderr
            --run-dir DIR        where the state, the configuration and the logs go
                                 (default $PROVISIONER_STACK_DIR, else $TMPDIR/provisioner-stack-$USER)
          The database is $DATABASE_URL when set (its password, if any, stays in the environment
          or in a 0600 file named by $PROVISIONER_DATABASE_PASSWORD_FILE); else a throwaway
          PostgreSQL cluster in the run directory. --database-url URL is taken only without a
          password: a command line is readable by every local user (ps).
  down    Stop a stack: the one in --run-dir DIR, else the one that is up, whatever run directory
          it was started with (with several up, it lists them). The logs stay in the run
          directory (instance-N.log, haproxy.log, postgres.log) for the next up to append to.
            --run-dir DIR        the stack to stop
            --remove-logs        remove the logs too (and the run directory, once empty)

  --help  this text`;

/** `down`: the stack named, or the one that is up. */
async function stopStack(runDirOption: string | undefined, removeLogsToo: boolean): Promise<number> {
  const candidates = runDirOption ? [resolve(runDirOption)] : stacksUp();
  if (candidates.length > 1) {
    process.stderr.write(
      `${candidates.length} stacks are up; say which to stop:\n${candidates.map((dir) => `  npm run stack -- down --run-dir ${dir}\n`).join('')}`,
    );
    return 2;
  }
  const runDir = candidates[0] ?? resolve(defaultRunDir());
  const stopped = await down(runDir, { removeLogs: removeLogsToo });
  const logs = removeLogsToo
    ? ''
    : existsSync(runDir)
      ? `; its logs are in ${runDir} (--remove-logs removes them)`
      : '';
  process.stderr.write(
    stopped
      ? `stopped the stack in ${runDir}${logs}\n`
      : `no stack is up (looked in ${runDir}${runDirOption ? '' : ' and the run directories up listed'})\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      instances: { type: 'string', default: '2' },
      port: { type: 'string', default: '0' },
      'database-url': { type: 'string' },
      'seed-demo': { type: 'boolean', default: false },
      'run-dir': { type: 'string' },
      'remove-logs': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [command] = positionals;
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1 || (command !== 'up' && command !== 'down')) {
    process.stderr.write(`${HELP}\n`);
    return 2;
  }
  if (command === 'down') return stopStack(values['run-dir'], values['remove-logs']);
  const runDir = resolve(values['run-dir'] ?? defaultRunDir());
  if (values['database-url'] && carriesPassword(values['database-url'])) {
    throw new Error(PASSWORD_ON_COMMAND_LINE);
  }
  const instances = Number(values.instances);
  const port = Number(values.port);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16)
    throw new Error('--instances must be a whole number from 1 to 16.');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('--port must be a port number (0 picks a free one).');
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  const state = await up({
    instances,
    port,
    runDir,
    seedDemo: values['seed-demo'],
    ...(databaseUrl ? { databaseUrl } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const downCommand =
    runDir === resolve(defaultRunDir()) ? 'npm run stack -- down' : `npm run stack -- down --run-dir ${runDir}`;
  process.stderr.write(
    `${instances} instances behind HAProxy; logs and configuration in ${runDir}; stop with: ${downCommand}\n`,
  );
  if (state.adminKey) process.stderr.write(`organization demo, Admin key: ${state.adminKey}\n`);
  process.stdout.write(`${state.url}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
