/**
 * Where `npm run stack -- down` finds the stacks `up` started, whatever run directory they were
 * given: `up` adds its run directory to a list of the user's, `down` takes it off. The list is a
 * file of the user's own (`$PROVISIONER_STACK_REGISTRY`, else `$TMPDIR/provisioner-stacks-$USER`),
 * one absolute path a line; a list another user could have written is not believed, since `down`
 * stops the processes a listed directory names.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export function registryFile(): string {
  return process.env.PROVISIONER_STACK_REGISTRY ?? join(tmpdir(), `provisioner-stacks-${userInfo().username}`);
}

/** Whether `path` belongs to this user and nobody else may write it. */
export function ownedByMe(path: string): boolean {
  const stat = statSync(path);
  return (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
}

export function listedRunDirs(file = registryFile()): string[] {
  if (!existsSync(file)) return [];
  if (!ownedByMe(file))
    throw new Error(
      `${file} is not yours alone (another user could write it): remove it, or set PROVISIONER_STACK_REGISTRY to a file of yours.`,
    );
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('/'));
}

function writeList(dirs: readonly string[], file: string): void {
  // Written aside and renamed over, so a reader never sees half a list.
  const staged = `${file}.${process.pid}`;
  writeFileSync(staged, dirs.map((dir) => `${dir}\n`).join(''), { mode: 0o600 });
  renameSync(staged, file);
}

export function listRunDir(runDir: string, file = registryFile()): void {
  const dirs = listedRunDirs(file);
  if (!dirs.includes(runDir)) writeList([...dirs, runDir], file);
}

export function unlistRunDir(runDir: string, file = registryFile()): void {
  const dirs = listedRunDirs(file);
  if (dirs.includes(runDir))
    writeList(
      dirs.filter((dir) => dir !== runDir),
      file,
    );
}
