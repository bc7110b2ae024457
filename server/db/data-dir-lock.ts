import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { hostname as osHostname } from 'node:os';
import { tryAcquireLock, type HeldLock } from '../../platform/durable-lock';

/**
 * One process per PGlite data directory. PGlite is a single process's database: a second process
 * that opens the same directory writes over the first one's pages (keys lost, rows of one
 * organization read as another's). Every opener of a data directory (`serve`, the operator
 * commands, backup, restore) takes this lock first and holds it until it closes the database.
 *
 * The lock file lies beside the directory, not in it: a restore swaps the whole directory for
 * another and must hold the lock across the swap.
 *
 * It is never judged stale by age (a service runs for months without touching it); only an owner
 * on this host that is no longer alive frees it. An owner on another host (a data directory on a
 * shared file system) or a process id the system gave to another program after a crash keeps it
 * until the operator removes the file, which the refusal says.
 */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockPath: string,
    readonly holder: DataDirHolder | undefined,
  ) {
    super(
      `${dataDir} is in use by ${describeHolder(holder)}: a PGlite data directory can be opened by one process at a time.`,
    );
  }
}

/** Who holds a data directory, as its lock file says. */
export interface DataDirHolder {
  pid: number;
  hostname: string;
  since: Date;
  /** The holder's command line, when it runs on this host and the system shows it. */
  command?: string;
}

export function dataDirLockPath(dataDir: string): string {
  const absolute = resolve(dataDir);
  return join(dirname(absolute), `${basename(absolute)}.lock`);
}

/** Takes the data directory's lock or throws DataDirBusyError naming the process that holds it. */
export async function lockDataDir(dataDir: string): Promise<HeldLock> {
  const path = dataDirLockPath(dataDir);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const held = await tryAcquireLock(path, { staleMs: Number.POSITIVE_INFINITY });
  if (held) return held;
  throw new DataDirBusyError(dataDir, path, readHolder(path));
}

function readHolder(path: string): DataDirHolder | undefined {
  try {
    const content = JSON.parse(readFileSync(path, 'utf8')) as {
      pid?: unknown;
      hostname?: unknown;
      acquiredAt?: unknown;
    };
    if (
      typeof content.pid !== 'number' ||
      typeof content.hostname !== 'string' ||
      typeof content.acquiredAt !== 'number'
    )
      return undefined;
    const holder: DataDirHolder = { pid: content.pid, hostname: content.hostname, since: new Date(content.acquiredAt) };
    const command = content.hostname === osHostname() ? commandLineOf(content.pid) : undefined;
    return command ? { ...holder, command } : holder;
  } catch {
    return undefined;
  }
}

/** Linux shows a process's arguments in /proc; elsewhere (or once it is gone) there is none. */
function commandLineOf(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const words = raw.split('\0').filter((word) => word.length > 0);
    if (words.length === 0) return undefined;
    const line = words.join(' ');
    // Cut in the middle: the program at the start, the command and its directory at the end (node's
    // own options, such as serve's heap sizes, come between and say least).
    return line.length > 160 ? `${line.slice(0, 40)} … ${line.slice(-117)}` : line;
  } catch {
    return undefined;
  }
}

export function describeHolder(holder: DataDirHolder | undefined): string {
  if (!holder) return 'another process (its lock file could not be read)';
  const where = holder.hostname === osHostname() ? '' : ` on host ${holder.hostname}`;
  const what = holder.command ? ` (${holder.command})` : '';
  return `process ${holder.pid}${where}${what} since ${holder.since.toISOString()}`;
}

/**
 * The one line an operator command prints when the directory is held: who holds it and what to do.
 * The command is refused rather than sent through the running service (docs/decisions.md).
 */
export function busyRefusal(error: DataDirBusyError): string {
  const holder = error.holder ? `process ${error.holder.pid}` : 'that process';
  return (
    `${error.message} Stop ${holder} first (it is normally the running service: backup, restore, seed-demo and key commands ` +
    `run against a stopped one, and keys can be managed meanwhile through its API with an Admin key, docs/operations.md); ` +
    `if ${holder} is gone or is not a Provisioner process, remove ${error.lockPath}.`
  );
}
