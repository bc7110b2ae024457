import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built renderer's folder (dist/renderer at the repository root). */
export const RENDERER_DIST_DIR = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));
const CONFIG_FILE = fileURLToPath(new URL('../../../renderer/vite.config.ts', import.meta.url));

export function rendererIsBuilt(dir = RENDERER_DIST_DIR): boolean {
  return existsSync(`${dir}index.html`);
}

/** Builds the renderer with Vite (as `vite build --config renderer/vite.config.ts` would). */
export async function buildRenderer(options: { quiet?: boolean } = {}): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: CONFIG_FILE, logLevel: options.quiet ? 'silent' : 'warn' });
  return RENDERER_DIST_DIR;
}
