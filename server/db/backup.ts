import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { tempPathFor, writeFileAtomic } from '../../platform/durable-file';
import { makePrivate } from '../../platform/private-files';
import { lockDataDir } from './data-dir-lock';
import { openPglite, dumpPglite, PGLITE_EXTENSIONS } from './pglite';

/**
 * Backups of the service's database, whole, and restoring one in place of the database:
 * - PGlite: the data directory as PGlite dumps it (a gzip'd tar, `dumpDataDir`); a restore loads it
 *   into a new directory beside the old one, checks it opens, then swaps the two and keeps the old one.
 * - PostgreSQL: pg_dump's custom format; a restore is pg_restore --clean in one transaction, so it
 *   applies whole or not at all.
 * Stop the service first: PGlite allows one process, and a PostgreSQL restore replaces every table
 * under the running instances. A PGlite backup or restore takes the data directory's lock
 * (data-dir-lock.ts), so against a directory a running service holds it is refused, never taken
 * half-written or swapped under it.
 */
export type BackupTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; databaseUrl: string };

export class BackupError extends Error {}

/** pg_dump's custom format starts with these bytes; a PGlite dump is gzip (1f 8b). */
const PG_DUMP_MAGIC = 'PGDMP';
const GZIP_MAGIC = [0x1f, 0x8b];

export async function backupDatabase(target: BackupTarget, outFile: string): Promise<void> {
  if (target.kind === 'postgres') {
    // pg_dump writes beside the destination first, so a failed dump never leaves a partial backup.
    const partial = tempPathFor(outFile);
    try {
      // Made 0600 before pg_dump writes into it (it keeps the mode): the dump holds every sealed
      // secret and, without a sealing key given, the key that opens them.
      writeFileSync(partial, '', { mode: 0o600 });
      chmodSync(partial, 0o600);
      await runPgTool(
        'pg_dump',
        ['--format=custom', '--no-owner', '--no-privileges', '--file', partial],
        target.databaseUrl,
      );
      await rename(partial, outFile);
    } finally {
      rmSync(partial, { force: true });
    }
    return;
  }
  if (!existsSync(join(target.dataDir, 'PG_VERSION')))
    throw new BackupError(`${target.dataDir} is not a PGlite data directory.`);
  const db = await openPglite(target.dataDir);
  try {
    const dump = await dumpPglite(db, 'gzip');
    await writeFileAtomic(outFile, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Restores `file` in place of the target's database; for PGlite returns where the previous directory was kept. */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<{ previous?: string }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const isPgDump = bytes.subarray(0, PG_DUMP_MAGIC.length).toString('latin1') === PG_DUMP_MAGIC;
  const isGzip = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  if (target.kind === 'postgres') {
    if (!isPgDump)
      throw new BackupError(
        `${file} is not a pg_dump archive${isGzip ? ' (it is a PGlite backup: restore it with --data)' : ''}.`,
      );
    await runPgTool(
      'pg_restore',
      ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file],
      target.databaseUrl,
    );
    return {};
  }
  if (!isGzip)
    throw new BackupError(
      `${file} is not a PGlite backup${isPgDump ? ' (it is a pg_dump archive: restore it with --database-url)' : ''}.`,
    );
  return { previous: await restorePglite(target.dataDir, new Blob([new Uint8Array(bytes)])) };
}

async function restorePglite(dataDir: string, dump: Blob): Promise<string | undefined> {
  // Held across the swap: no service may open the directory while it is replaced.
  const lock = await lockDataDir(dataDir);
  try {
    return await restorePgliteLocked(dataDir, dump);
  } finally {
    await lock.release();
  }
}

async function restorePgliteLocked(dataDir: string, dump: Blob): Promise<string | undefined> {
  const parent = dirname(dataDir);
  const incoming = join(parent, `.${basename(dataDir)}.restoring-${process.pid}`);
  rmSync(incoming, { recursive: true, force: true });
  try {
    // The restored directory holds the keys as `serve` leaves them: 0700, its files 0600. PGlite
    // creates its files 0666 whatever the umask; the 0700 directory keeps them from others until
    // makePrivate narrows them, before the directory takes the data directory's place.
    mkdirSync(incoming, { recursive: true, mode: 0o700 });
    // Loading and querying it proves the backup is whole before anything is replaced.
    const db = await PGlite.create(incoming, { loadDataDir: dump, extensions: PGLITE_EXTENSIONS });
    try {
      await db.query('SELECT count(*) FROM schema_migrations');
    } finally {
      await db.close();
    }
    await makePrivate(incoming);
  } catch (error) {
    rmSync(incoming, { recursive: true, force: true });
    throw new BackupError(`The backup could not be loaded: ${(error as Error).message}`);
  }
  let previous: string | undefined;
  if (existsSync(dataDir) && (!statSync(dataDir).isDirectory() || readdirSync(dataDir).length > 0)) {
    previous = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dataDir, previous);
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
  renameSync(incoming, dataDir);
  return previous;
}

/** PostgreSQL's client programs: PROVISIONER_PG_BIN, else the newest Debian install, else PATH. */
export function pgToolPath(tool: 'pg_dump' | 'pg_restore'): string {
  const configured = process.env.PROVISIONER_PG_BIN;
  if (configured) return join(configured, tool);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(debian, name, 'bin', tool)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin', tool);
  }
  return tool;
}

/**
 * Runs a client program against the database. The password goes in PGPASSWORD, not on the
 * command line where every user of the machine could read it.
 */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const program = pgToolPath(tool);
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, '--dbname', url.toString()], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) =>
      reject(
        new BackupError(
          `Cannot run ${program}: ${error.message} (set PROVISIONER_PG_BIN to the folder holding ${tool}).`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}
