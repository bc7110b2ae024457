import { cp, lstat, mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { errnoCode } from './durable-file';
import { describeMadePrivate, makePrivate } from './private-files';

/**
 * Where the CLI and web mode keep a user's things. By default the platform's places for a user's
 * settings and data (XDG on Linux, ~/Library on macOS, %APPDATA% and %LOCALAPPDATA% on Windows,
 * as env-paths names them); `--data-dir DIR` or $PROVISIONER_HOME put everything under one
 * directory instead, which is how tests and scripts keep runs apart.
 */
export interface DataDirs {
  /** Only a credentials.json an earlier CLI left here, until it is moved into the login store (in `web`). */
  config: string;
  /** The CLI's firmware cache, outbox, job intents, configuration files and local workspace. */
  data: string;
  /** Web mode's settings, remembered keys, outbox, firmware cache and local workspace; the login store the CLI shares. */
  web: string;
  /** --data-dir or $PROVISIONER_HOME chose the place, not the platform. */
  chosen: boolean;
}

/** The platform's own places for Provisioner's settings and data. */
export interface PlatformDirs {
  config: string;
  data: string;
}

export function platformDirs(): PlatformDirs {
  // No "-nodejs" suffix: the places are Provisioner's, named as a user looks for them.
  const paths = envPaths('provisioner', { suffix: '' });
  return { config: paths.config, data: paths.data };
}

export function resolveDataDirs(
  env: NodeJS.ProcessEnv,
  dataDirOption: string | undefined,
  platform: () => PlatformDirs = platformDirs,
): DataDirs {
  const single = dataDirOption ?? env.PROVISIONER_HOME;
  if (single) {
    const root = resolve(single);
    return withWeb({ config: root, data: join(root, 'data') }, true);
  }
  return withWeb(platform(), false);
}

function withWeb(dirs: PlatformDirs, chosen: boolean): DataDirs {
  return { config: dirs.config, data: dirs.data, web: join(dirs.data, 'web'), chosen };
}

/** Web mode kept its data here, relative to the directory it was started in. */
export const LEGACY_WEB_DIR = join('.provisioner-data', 'app');

/**
 * Makes the places (0700) and, when they are the platform's, moves the web mode data an earlier
 * version left in `<cwd>/.provisioner-data/app` there, once: only while the new place does not
 * exist, so a second start (or an older copy somewhere else) changes nothing. `note` gets one line
 * saying what moved where. Whatever in them other users could read (a copy, an older version, a
 * database left open by a crash) is made private, and `warn` gets one line saying how much and where.
 */
export async function prepareDataDirs(
  dirs: DataDirs,
  options: { cwd: string; note: (line: string) => void; warn: (line: string) => void },
): Promise<void> {
  if (!dirs.chosen) {
    const legacy = join(options.cwd, LEGACY_WEB_DIR);
    if ((await exists(legacy)) && !(await exists(dirs.web))) {
      await moveTree(legacy, dirs.web);
      // The service's own database (.provisioner-data/service, `npm run server`) stays where the server looks.
      await rmdir(dirname(legacy)).catch(() => undefined);
      options.note(`moved ${legacy} to ${dirs.web}: Provisioner keeps its data in your data directory now`);
    }
  }
  for (const dir of [dirs.config, dirs.data]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const fixed = await makePrivate(dir);
    if (fixed.length > 0) options.warn(describeMadePrivate(dir, fixed));
  }
}

/**
 * Everything a process of the CLI or web mode creates (the login, the outbox, the cache,
 * downloads) is readable by the user alone: directories 0700, files 0600. PGlite sets its files'
 * modes itself; the local workspace brings them in line with makePrivate.
 */
export function keepCreatedFilesPrivate(): void {
  process.umask(0o077);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * rename when both are on one file system; otherwise a copy under a temporary name, renamed into
 * place once complete (a crash leaves no half tree at `to`, so the next start tries again), then
 * the original removed.
 */
async function moveTree(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  try {
    await rename(from, to);
  } catch (error) {
    if (errnoCode(error) !== 'EXDEV') throw error;
    const partial = `${to}.moving`;
    await rm(partial, { recursive: true, force: true });
    await cp(from, partial, {
      recursive: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
      verbatimSymlinks: true,
    });
    await rename(partial, to);
    await rm(from, { recursive: true, force: true });
  }
  await makePrivate(to);
}
