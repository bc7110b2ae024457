import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BinaryState } from './launch-decision';

/**
 * Finds the Electron executable the way node_modules/electron/index.js does (path.txt names it
 * under dist/, ELECTRON_OVERRIDE_DIST_PATH replaces dist/), without requiring that module: when
 * the binary is missing, `require('electron')` downloads it synchronously with no time limit.
 */
export function findElectronBinary(projectRoot: string, env: NodeJS.ProcessEnv = process.env): BinaryState {
  const packageDir = join(projectRoot, 'node_modules', 'electron');
  if (!existsSync(join(packageDir, 'package.json')))
    return { kind: 'missing', detail: 'the electron package is not installed (run npm ci)' };
  let relative: string | null = null;
  try {
    relative = readFileSync(join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    relative = null;
  }
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, relative || 'electron');
    return existsSync(path)
      ? { kind: 'present', path }
      : { kind: 'missing', detail: `nothing at ELECTRON_OVERRIDE_DIST_PATH (${path})` };
  }
  if (!relative) return { kind: 'missing', detail: 'not downloaded yet' };
  const path = join(packageDir, 'dist', relative);
  return existsSync(path) ? { kind: 'present', path } : { kind: 'missing', detail: 'not downloaded yet' };
}
