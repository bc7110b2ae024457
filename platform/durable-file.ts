import * as nodeFs from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * The few file-system calls the cache and the outbox make, behind one small interface so tests
 * can inject failures (a "crash" between write and rename, a full disk) without mocking node:fs.
 */
export interface FileSystem {
  open(path: string, flags: string | number, mode?: number): Promise<nodeFs.FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<string | undefined>;
  stat(path: string): Promise<{ size: number; mtimeMs: number }>;
}

export const nodeFileSystem: FileSystem = {
  open: (path, flags, mode) => nodeFs.open(path, flags, mode),
  rename: (from, to) => nodeFs.rename(from, to),
  unlink: (path) => nodeFs.unlink(path),
  readFile: (path) => nodeFs.readFile(path),
  readdir: (path) => nodeFs.readdir(path),
  mkdir: (path, options) => nodeFs.mkdir(path, options),
  stat: (path) => nodeFs.stat(path),
};

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** A name no other writer (thread, process) picks, in the same directory so rename stays atomic. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * fsync a directory so a rename or unlink inside it survives a power cut. Some platforms
 * (Windows) cannot open a directory for sync; there the rename is as durable as the OS makes it.
 */
export async function fsyncDir(fs: FileSystem, dir: string): Promise<void> {
  let handle: nodeFs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await handle?.close();
  }
}

/**
 * Replace `path` with `data` so that after a crash at any point the file holds either the old
 * content or the new one, never a torn mix: write a temp file, fsync it, rename over, fsync the dir.
 */
export function writeFileDurable(fs: FileSystem, path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  return replaceDurably(fs, path, mode, (handle) => handle.writeFile(data));
}

/** The steps behind every durable replace; `write` fills the temp file. */
async function replaceDurably(
  fs: FileSystem,
  path: string,
  mode: number,
  write: (handle: nodeFs.FileHandle) => Promise<void>,
): Promise<void> {
  const temp = tempPathFor(path);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await write(handle);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(temp, path);
  } catch (err) {
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(fs, dirname(path));
}

/** Move a finished file into place durably (the caller has fsync'd its content). */
export async function renameDurable(fs: FileSystem, from: string, to: string): Promise<void> {
  await fs.rename(from, to);
  await fsyncDir(fs, dirname(to));
  if (dirname(from) !== dirname(to)) await fsyncDir(fs, dirname(from));
}

/** Unlink and make the removal durable; a file already gone is not an error. */
export async function removeDurable(fs: FileSystem, path: string): Promise<boolean> {
  try {
    await fs.unlink(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
  await fsyncDir(fs, dirname(path));
  return true;
}

export async function readFileIfExists(fs: FileSystem, path: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The `.json` files a store keeps in `dir`, each with its bytes. Hidden names (a durable write's
 * temp files among them) are passed over, and so is a file removed since the listing; a directory
 * that cannot be listed (not made yet) holds none.
 */
export async function* readJsonFiles(
  fs: FileSystem,
  dir: string,
): AsyncGenerator<{ name: string; path: string; raw: Buffer }> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.') || !name.endsWith('.json')) continue;
    const path = join(dir, name);
    const raw = await readFileIfExists(fs, path);
    if (raw) yield { name, path, raw };
  }
}

/**
 * Remove temp files a crashed writer left behind. Only old ones: a young temp file may belong to a
 * writer in another process that is about to rename it.
 */
export async function removeStaleTemps(
  fs: FileSystem,
  dir: string,
  olderThanMs: number,
  nowMs: number,
): Promise<number> {
  let removed = 0;
  for (const name of await fs.readdir(dir)) {
    if (!isTempName(name)) continue;
    const path = join(dir, name);
    try {
      const info = await fs.stat(path);
      if (nowMs - info.mtimeMs < olderThanMs) continue;
      await fs.unlink(path);
      removed += 1;
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
  }
  return removed;
}

/**
 * The one way every process here replaces a file: `writeFileDurable` on the real file system,
 * private to the user (0600) unless `mode` says otherwise.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  return writeFileDurable(nodeFileSystem, path, data, mode);
}

/**
 * Puts `data` at `path` unless a file is there already, durably. Written whole beside it, then
 * linked into place: link refuses an existing name, so of two processes creating it at once both
 * end up with the first one's content, never a mix and never each its own.
 */
export async function createFileOnce(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temp = tempPathFor(path);
  await writeFileDurable(nodeFileSystem, temp, data, mode);
  try {
    await nodeFs.link(temp, path);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
  } finally {
    await nodeFs.unlink(temp).catch(() => undefined);
    await fsyncDir(nodeFileSystem, dirname(path));
  }
}

/**
 * writeFileAtomic for data that arrives in pieces (a download): each piece is passed to `onChunk`
 * as it is written. A failure part way removes the temp file and leaves the old file untouched.
 */
export function writeStreamAtomic(
  path: string,
  chunks: AsyncIterable<Uint8Array>,
  onChunk?: (chunk: Uint8Array) => void,
  mode = 0o600,
): Promise<void> {
  return replaceDurably(nodeFileSystem, path, mode, async (handle) => {
    for await (const chunk of chunks) {
      await handle.write(chunk);
      onChunk?.(chunk);
    }
  });
}
