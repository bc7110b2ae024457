/**
 * The processes of the soak bench (bench/soak.ts): reading a process's memory and descriptors
 * from /proc, killing and starting again the stack's instance on its own port, restarting
 * PostgreSQL, and running the CLI (the Station among others) as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { pgCtlCommand, waitUntilOk, type StackInstance, type StackState } from '../scripts/stack';
import { serviceHeapArgs } from '../scripts/service-heap.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI_BIN = join(ROOT, 'bin', 'provisioner.mjs');
const SERVICE_CLI = join(ROOT, 'server', 'cli.ts');

/** Resident memory in MiB (VmRSS), or null when the process is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/** The V8 heap of a service instance, in MiB, as its /metrics says (null: not said). */
export interface InstanceHeap {
  /** The young generation's used bytes: what the scavenger has not collected yet. */
  heapNew: number | null;
  /** The old generation's used bytes: the live objects, and the garbage until the next full collection. */
  heapOld: number | null;
  /** Every space's used bytes together. */
  heapUsed: number | null;
  /** Memory of JS objects held outside the heap (buffers). */
  external: number | null;
}

const toMiB = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * The instance's heap from its /metrics (the process metrics `serve` turns on; read directly, not
 * through the load balancer, which refuses /metrics). All null when it cannot be read: an
 * instance down, or one without process metrics.
 */
export async function instanceHeapMiB(url: string): Promise<InstanceHeap> {
  let text = '';
  try {
    const answer = await fetch(`${url}/metrics`);
    if (answer.ok) text = await answer.text();
  } catch {
    // Down (killed, restarting): nothing is read.
  }
  const figure = (pattern: RegExp): number | null => {
    const match = pattern.exec(text);
    return match ? toMiB(Number(match[1])) : null;
  };
  return {
    heapNew: figure(/^nodejs_heap_space_size_used_bytes\{space="new"\} (\S+)/m),
    heapOld: figure(/^nodejs_heap_space_size_used_bytes\{space="old"\} (\S+)/m),
    heapUsed: figure(/^nodejs_heap_size_used_bytes (\S+)/m),
    external: figure(/^nodejs_external_memory_bytes (\S+)/m),
  };
}

/**
 * Open file descriptors by kind (`socket`, `pipe`, `anon_inode:[eventfd]`, `file`, or the device's
 * path), but for terminals: a Station holds one pty per device plugged in, which is work, not a
 * leak. The kinds say what a difference between two readings is (keep-alive sockets or a file
 * left open). Null when the process is gone.
 */
export function openFdKinds(pid: number): Record<string, number> | null {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
  const kinds: Record<string, number> = {};
  for (const fd of fds) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // Closed meanwhile.
    }
    if (target.startsWith('/dev/pts/') || target === '/dev/ptmx') continue;
    const kind = /^(socket|pipe):/.test(target)
      ? target.slice(0, target.indexOf(':'))
      : target.startsWith('anon_inode:') || target.startsWith('/dev/')
        ? target
        : 'file';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/** A reading of openFdKinds added up; null when the process was gone. */
export function fdTotal(kinds: Record<string, number> | null): number | null {
  return kinds === null ? null : Object.values(kinds).reduce((sum, count) => sum + count, 0);
}

/** Open file descriptors but for terminals (openFdKinds added up); null when the process is gone. */
export function openFds(pid: number): number | null {
  return fdTotal(openFdKinds(pid));
}

/**
 * Starts the stack's instance again on the port HAProxy knows it by, with the environment `up`
 * gave it (the database password's file, the sealing key), as a supervisor would after a crash;
 * records its new pid in the stack's state so that `down` stops it.
 */
export async function restartInstance(stack: StackState, instance: StackInstance): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: stack.databaseUrl };
  if (stack.postgres) {
    env[PASSWORD_FILE_ENV] = stack.postgres.passwordFile;
    env.PROVISIONER_SEALING_KEY_FILE = join(stack.runDir, 'sealing-key');
  }
  const fd = openSync(instance.log, 'a');
  const child = spawn(
    process.execPath,
    [
      ...serviceHeapArgs(env.NODE_OPTIONS),
      '--import',
      'tsx',
      SERVICE_CLI,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(instance.port),
    ],
    { cwd: ROOT, env, detached: true, stdio: ['ignore', 'ignore', fd] },
  );
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`Cannot start ${instance.name} again.`);
  instance.pid = child.pid;
  writeFileSync(join(stack.runDir, 'stack.json'), `${JSON.stringify(stack, null, 2)}\n`, { mode: 0o600 });
  await waitUntilOk(`${instance.url}/readyz`, 600);
}

/** pg_ctl restart (fast) in a child process, so that this process's timers and devices keep going meanwhile. */
export function restartPostgres(stack: StackState): Promise<void> {
  const [command, args] = pgCtlCommand(stack.postgres!, 'restart');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl restart exited with ${code}`))));
  });
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  done: Promise<CliRun>;
}

/**
 * The real CLI (`bin/provisioner.mjs`, one process) on `home` as its data directory; `onLine`
 * sees each line of stdout as it comes. stderr is kept (its last 64 KiB).
 */
export function startCli(
  home: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): CliProcess {
  const child = spawn(process.execPath, [CLI_BIN, '--data-dir', home, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (!onLine) stdout += text;
    else {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-65_536);
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** A CLI command to its end, stopped with SIGKILL when it outlasts `timeoutMs`. */
export async function runCli(
  home: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<CliRun> {
  const run = startCli(home, args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Node's options that let a process write a heap snapshot into `dir` when sent SIGUSR2
 * (`--heapsnapshot-signal`), appended to those of `env`.
 */
export function heapSnapshotEnv(env: NodeJS.ProcessEnv, dir: string): NodeJS.ProcessEnv {
  return withNodeOptions(env, `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`);
}

/** `env` with Node's `options` appended to its NODE_OPTIONS (later flags win); `env` itself when there are none. */
export function withNodeOptions(env: NodeJS.ProcessEnv, options: string): NodeJS.ProcessEnv {
  if (options === '') return env;
  return { ...env, NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${options}` : options };
}

/**
 * Asks `pid` (started with heapSnapshotEnv) for a heap snapshot and waits until the file is
 * written (its size unchanged for a second; at most `tries` seconds), then names it
 * `<label>.heapsnapshot`. The snapshot collects garbage first: it holds what is alive. Its path,
 * or null when none came.
 */
export async function takeHeapSnapshot(pid: number, dir: string, label: string, tries = 600): Promise<string | null> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let file: string | undefined;
  let size = -1;
  for (let i = 0; i < tries; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    file ??= readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (file === undefined) continue;
    const now = statSync(join(dir, file)).size;
    if (now > 0 && now === size) {
      const named = join(dir, `${label}.heapsnapshot`);
      renameSync(join(dir, file), named);
      return named;
    }
    size = now;
  }
  return null;
}
