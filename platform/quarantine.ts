import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { errnoCode, fsyncDir, type FileSystem } from './durable-file';

/**
 * A file a store cannot read as what it should be (torn by a disk fault, truncated, garbage,
 * hand-edited into nonsense) is moved aside, never deleted: a person or support can look at it,
 * nothing it held is lost, and the store starts without it instead of failing at every start.
 *
 * `<dir>/quarantine/<time>-<random>-<name>`: the time says when it was set aside, the random part
 * keeps two files of one name set aside in the same millisecond apart.
 */

export const QUARANTINE_DIR = 'quarantine';

export interface QuarantinedFile {
  /** Where the file was. */
  from: string;
  /** Where it is now. */
  path: string;
  /** Why it could not be read. */
  reason: string;
  /** When it was set aside (ISO 8601). */
  at: string;
}

/**
 * Moves `path` into `quarantineDir` (created 0700 when missing) with a rename, so its bytes stay
 * exactly as they were. Undefined when the file is already gone: another process set it aside or
 * replaced it meanwhile.
 */
export async function quarantineFile(
  fs: FileSystem,
  path: string,
  options: { quarantineDir: string; reason: string; now: number },
): Promise<QuarantinedFile | undefined> {
  const at = new Date(options.now).toISOString();
  // No ':' in file names: Windows refuses them.
  const stamp = at.replace(/:/g, '-');
  const target = join(options.quarantineDir, `${stamp}-${randomBytes(3).toString('hex')}-${basename(path)}`);
  await fs.mkdir(options.quarantineDir, { recursive: true, mode: 0o700 });
  try {
    await fs.rename(path, target);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  await fsyncDir(fs, options.quarantineDir);
  await fsyncDir(fs, dirname(path));
  return { from: path, path: target, reason: options.reason, at };
}

/** The files set aside in `quarantineDir`, oldest first (their names start with the time). */
export async function listQuarantined(fs: FileSystem, quarantineDir: string): Promise<string[]> {
  try {
    return (await fs.readdir(quarantineDir)).sort().map((name) => join(quarantineDir, name));
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return [];
    throw err;
  }
}

/** One sentence a person reads: what was set aside, why, where it is now, and that nothing was lost. */
export function quarantineNotice(file: QuarantinedFile): string {
  return `A damaged file was set aside, not deleted: ${file.from} (${file.reason}). It is kept at ${file.path}; keep it for support if this happens again.`;
}
