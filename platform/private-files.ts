import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from './durable-file';

/** A file or directory that group or others could read (or write) before makePrivate took it back. */
export interface MadePrivate {
  path: string;
  kind: 'file' | 'directory';
  /** Its permission bits before, e.g. 0o644. */
  modeBefore: number;
}

/** Every right of group and others. */
const SHARED_BITS = 0o077;

/**
 * Takes every right of group and others away from a tree, so it holds what the data directories
 * promise (directories 0700, files 0600) also where the umask had no say: PGlite creates its files
 * 0666 whatever the umask, a tree may be copied in, a person may make a file. The owner's own bits
 * stay as they are. Symbolic links are neither followed nor changed. A path that vanishes meanwhile
 * (a database at work) is skipped; a missing root fixes nothing. Returns what it fixed.
 */
export async function makePrivate(root: string): Promise<MadePrivate[]> {
  // Windows has no mode bits to speak of (a file reads 0666 whatever its ACL, chmod changes only
  // the read-only flag); the user's profile folders are private by their ACLs.
  if (process.platform === 'win32') return [];
  const fixed: MadePrivate[] = [];
  await walk(root, fixed);
  return fixed;
}

async function walk(path: string, fixed: MadePrivate[]): Promise<void> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  if (info.isSymbolicLink()) return;
  const mode = info.mode & 0o777;
  if ((mode & SHARED_BITS) !== 0) {
    try {
      await chmod(path, mode & ~SHARED_BITS);
      fixed.push({ path, kind: info.isDirectory() ? 'directory' : 'file', modeBefore: mode });
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
  }
  if (!info.isDirectory()) return;
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  for (const name of names) await walk(join(path, name), fixed);
}

/**
 * The one line a start prints when makePrivate had to fix something in a data directory: how many
 * files and directories, and where, so the user can look for whoever made them readable.
 */
export function describeMadePrivate(root: string, fixed: readonly MadePrivate[]): string {
  const files = fixed.filter((f) => f.kind === 'file').length;
  const directories = fixed.length - files;
  const counts = [
    files > 0 ? plural(files, 'file') : '',
    directories > 0 ? plural(directories, 'directory', 'directories') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `${counts} in ${root} could be read by other users; made them private (files 0600, directories 0700)`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
