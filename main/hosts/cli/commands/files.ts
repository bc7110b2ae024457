import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { errnoCode, fsyncDir, nodeFileSystem, tempPathFor, writeFileAtomic } from '../../../../platform/durable-file';
import { t } from '../cli-language';
import { CliError, EXIT } from '../errors';

/** A file the technician named, read whole (firmware bundles and configuration files are small). */
export async function readInputFile(path: string): Promise<{ bytes: Uint8Array; name: string }> {
  try {
    return { bytes: new Uint8Array(await readFile(path)), name: basename(path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT'
        ? t('cli:files.noSuchFile', { path })
        : t('cli:files.cannotRead', { path, code: code ?? String(error) }),
      EXIT.failed,
    );
  }
}

export async function outputDir(dir: string): Promise<string> {
  const absolute = resolve(dir);
  await mkdir(absolute, { recursive: true });
  return absolute;
}

/**
 * A file name taken from outside (the service's suggestion, or a name built from what a downloaded
 * file says of itself) made safe to create in the output directory: only its last path segment
 * (after every `/` and `\\`), no leading dots (a name like `.bashrc` or `..` would land among the
 * user's own dot files), letters, digits, `.`, `_` and `-` only. Empty after that: refused.
 */
export function safeDownloadName(name: string): string {
  const lastSegment = name.split(/[\\/]/).pop() ?? '';
  const safe = lastSegment.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  if (safe === '') throw new CliError(t('cli:files.unsafeName', { name }), EXIT.failed);
  return safe;
}

/**
 * A downloaded file the core's checks refused (`DownloadRefused`), said with their reason; the
 * person is told that nothing was saved.
 */
export function refusal(what: 'firmware bundle' | 'configuration file', reason: string): CliError {
  return new CliError(
    t('cli:files.refused', {
      what: what === 'firmware bundle' ? 'firmware' : 'configuration',
      reason: reason.replace(/\.$/, ''),
    }),
    EXIT.failed,
  );
}

/**
 * Saves a downloaded file, already checked, as `dir/name` (name made safe by safeDownloadName),
 * durably and private to the user. A file already there is kept unless `force`: written whole
 * beside it, then linked into place (link refuses an existing name), so no check-then-write race
 * either. Returns the path.
 */
export async function saveDownload(
  dir: string,
  name: string,
  bytes: Uint8Array,
  options: { force?: boolean } = {},
): Promise<string> {
  const target = join(dir, safeDownloadName(name));
  if (options.force) {
    await writeFileAtomic(target, bytes);
    return target;
  }
  const temp = tempPathFor(target);
  try {
    await writeFileAtomic(temp, bytes);
    await linkOrCreate(temp, target, bytes);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') throw new CliError(t('cli:files.exists', { path: target }), EXIT.failed);
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await fsyncDir(nodeFileSystem, dir);
  return target;
}

/** Where the file system has no hard links (a FAT USB stick), an exclusive create stands in for the link. */
async function linkOrCreate(temp: string, target: string, bytes: Uint8Array): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    try {
      await writeFile(target, bytes, { flag: 'wx', mode: 0o600 });
    } catch (writeError) {
      if (errnoCode(writeError) !== 'EEXIST') await unlink(target).catch(() => undefined);
      throw writeError;
    }
  }
}
