import { hostname as osHostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { errnoCode, nodeFileSystem, readFileIfExists, type FileSystem } from './durable-file';

/**
 * An advisory lock between processes: a file created with O_EXCL. Held only for short critical
 * sections (one outbox send pass), so a lock older than `staleMs`, or one whose owner process on
 * this host is gone, is stale and may be taken over.
 *
 * Known limit: two processes that both judge the same lock stale at the same instant can both
 * end up holding it. For the outbox that means two senders for one pass, which costs a duplicate
 * request of an identical payload that the service deduplicates; never a lost or a different event.
 */
export interface LockOptions {
  fs?: FileSystem;
  staleMs?: number;
  now?: () => number;
  pid?: number;
  hostname?: string;
  /** Whether a process id on this host is alive; injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

export interface HeldLock {
  readonly path: string;
  readonly token: string;
  /** Push the lock's age back so a long pass is not taken for a dead one. */
  refresh(): Promise<void>;
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  hostname: string;
  token: string;
  acquiredAt: number;
  refreshedAt: number;
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errnoCode(err) === 'EPERM';
  }
}

function parseLock(raw: Buffer | undefined): LockContent | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw.toString('utf8')) as Partial<LockContent>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.token === 'string' &&
      typeof value.refreshedAt === 'number'
    ) {
      return value as LockContent;
    }
  } catch {
    // A lock torn by a crash mid-write: judged by file age below.
  }
  return undefined;
}

/** Try once to take the lock; `undefined` when a live owner holds it. */
export async function tryAcquireLock(path: string, options: LockOptions = {}): Promise<HeldLock | undefined> {
  const fs = options.fs ?? nodeFileSystem;
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? 10 * 60_000;
  const pid = options.pid ?? process.pid;
  const host = options.hostname ?? osHostname();
  const isAlive = options.isAlive ?? processIsAlive;
  const token = randomUUID();

  const write = async (flags: string): Promise<void> => {
    const at = now();
    const content: LockContent = { pid, hostname: host, token, acquiredAt: at, refreshedAt: at };
    const handle = await fs.open(path, flags, 0o600);
    try {
      if (flags !== 'wx') await handle.truncate(0);
      await handle.write(JSON.stringify(content), 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
  };

  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await write('wx');
      return makeHeld(fs, path, token, write);
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
    const raw = await readFileIfExists(fs, path);
    if (raw === undefined) continue; // released between our two calls: try again
    const owner = parseLock(raw);
    let stale: boolean;
    if (owner) {
      const ownerGone = owner.hostname === host && owner.pid !== pid && !isAlive(owner.pid);
      stale = ownerGone || now() - owner.refreshedAt > staleMs;
    } else {
      const info = await fs.stat(path).catch(() => undefined);
      stale = info === undefined || now() - info.mtimeMs > staleMs;
    }
    if (!stale) return undefined;
    // Take over a stale lock: move it aside under a unique name (only one taker's rename of that
    // exact file succeeds) rather than unlinking, which could delete a fresh lock of another taker.
    const aside = `${path}.stale.${token}`;
    try {
      await fs.rename(path, aside);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') continue;
      throw err;
    }
    await fs.unlink(aside).catch(() => undefined);
  }
  return undefined;
}

function makeHeld(fs: FileSystem, path: string, token: string, write: (flags: string) => Promise<void>): HeldLock {
  let released = false;
  const ownsIt = async (): Promise<boolean> => parseLock(await readFileIfExists(fs, path))?.token === token;
  return {
    path,
    token,
    async refresh() {
      if (released) return;
      if (await ownsIt()) await write('r+');
    },
    async release() {
      if (released) return;
      released = true;
      if (await ownsIt())
        await fs.unlink(path).catch((err: unknown) => {
          if (errnoCode(err) !== 'ENOENT') throw err;
        });
    },
  };
}
