import { fileURLToPath } from 'node:url';

/**
 * The script a zopfli worker thread is started with (`new Worker(script, { eval: true })`). From
 * source (tsx, vitest) it requires zopfli-worker.ts by its absolute path: Node 24 strips its types,
 * and @gfx/zopfli comes from node_modules. Both bundles (scripts/build.mjs, scripts/build-cli.mjs)
 * replace this module, through scripts/zopfli-worker-plugin.mjs, by one answering the worker
 * bundled with zopfli and its WebAssembly: the single executable has no node_modules to load from,
 * and the Electron main bundle is one file.
 */
export function zopfliWorkerScript(): string {
  return `require(${JSON.stringify(fileURLToPath(new URL('./zopfli-worker.ts', import.meta.url)))});`;
}
