// The esbuild plugin that puts zopfli's worker thread into a bundle: shared by scripts/build.mjs
// (the Electron main process) and scripts/build-cli.mjs (the single executable).
import { build as esbuild } from 'esbuild';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const WORKER_ENTRY = join(root, 'main/engine/cache/zopfli-worker.ts');
/** The module that answers the worker's script (main/engine/cache/zopfli-worker-script.ts). */
const WORKER_SCRIPT_MODULE = /[\\/]main[\\/]engine[\\/]cache[\\/]zopfli-worker-script\.ts$/;

/**
 * From source, zopfliWorkerScript() answers a require of zopfli-worker.ts, which loads @gfx/zopfli
 * from node_modules. A bundle has neither the .ts file nor node_modules (the single executable runs
 * with none), so this replaces that module by one answering the worker bundled on its own: one
 * CommonJS script with zopfli and its WebAssembly (base64 in a JSON file) inside, run by
 * `new Worker(script, { eval: true })`. coreBundleOptions (build.mjs) lists it for both builds,
 * before sourceLocationImportMetaUrl: the first plugin to load a file wins, and that one would load
 * this module as it is.
 */
export const zopfliWorkerInline = {
  name: 'zopfli-worker-inline',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: WORKER_SCRIPT_MODULE }, async () => {
      const worker = await esbuild({
        entryPoints: [WORKER_ENTRY],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'cjs',
        target: pluginBuild.initialOptions.target,
        minify: true,
        logLevel: 'silent',
        metafile: true,
      });
      const script = worker.outputFiles[0].text;
      if (/\brequire\(\s*["']@gfx\/zopfli/.test(script))
        throw new Error('the zopfli worker bundle still requires @gfx/zopfli at run time');
      return {
        contents: `export function zopfliWorkerScript(): string {\n  return ${JSON.stringify(script)};\n}\n`,
        loader: 'ts',
        watchFiles: Object.keys(worker.metafile.inputs).map((input) => join(root, input)),
      };
    });
  },
};
