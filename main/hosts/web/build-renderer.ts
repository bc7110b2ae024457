import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built renderer's folder (dist/renderer at the repository root). */
export const RENDERER_DIST_DIR = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));
const CONFIG_FILE = fileURLToPath(new URL('../../../renderer/vite.config.ts', import.meta.url));
/** What the renderer is built from: its own folder and the two it imports (lint's map allows no others). */
const RENDERER_SOURCE_DIRS = ['renderer', 'contract', 'domain'].map((name) =>
  fileURLToPath(new URL(`../../../${name}/`, import.meta.url)),
);

/**
 * Whether dist/renderer holds a build at least as new as every source file it is made from. Only
 * its existence was checked before, so `npm run web` after a pull served yesterday's screens.
 */
export function rendererIsCurrent(
  dir = RENDERER_DIST_DIR,
  sourceDirs: readonly string[] = RENDERER_SOURCE_DIRS,
): boolean {
  const built = statSync(join(dir, 'index.html'), { throwIfNoEntry: false });
  if (!built) return false;
  return sourceDirs.every((sourceDir) => newestFileTimeMs(sourceDir) <= built.mtimeMs);
}

/** The newest modification time of a file below `dir`; 0 when it has none (or does not exist: an installed app has no sources). */
function newestFileTimeMs(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const stat = statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false });
    if (stat && stat.mtimeMs > newest) newest = stat.mtimeMs;
  }
  return newest;
}

/** Builds the renderer with Vite (as `vite build --config renderer/vite.config.ts` would). */
export async function buildRenderer(options: { quiet?: boolean } = {}): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: CONFIG_FILE, logLevel: options.quiet ? 'silent' : 'warn' });
  return RENDERER_DIST_DIR;
}
