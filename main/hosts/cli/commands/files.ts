import { mkdir, readFile, unlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { nodeFileSystem, renameDurable } from '../../../../platform/durable-file';
import { CliError, EXIT } from '../errors';

/** A file the technician named, read whole (firmware bundles and configuration files are small). */
export async function readInputFile(path: string): Promise<{ bytes: Uint8Array; name: string }> {
  try {
    return { bytes: new Uint8Array(await readFile(path)), name: basename(path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot be read (${code ?? String(error)})`, EXIT.failed);
  }
}

export async function outputDir(dir: string): Promise<string> {
  const absolute = resolve(dir);
  await mkdir(absolute, { recursive: true });
  return absolute;
}

/**
 * Moves a finished download (written and fsync'd by the API client) to its final name, the
 * service's suggestion made safe; the rename itself survives a power cut.
 */
export async function moveTo(from: string, dir: string, name: string): Promise<string> {
  const safe = basename(name).replace(/[^A-Za-z0-9._-]/g, '_') || 'download';
  const target = join(dir, safe);
  try {
    await renameDurable(nodeFileSystem, from, target);
  } catch (error) {
    await unlink(from).catch(() => undefined);
    throw error;
  }
  return target;
}
