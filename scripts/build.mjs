#!/usr/bin/env node
// Builds the desktop app into dist/: the Electron main process (dist/main/electron.cjs, the
// "main" of package.json), the sandboxed preload (dist/preload/preload.cjs) and the renderer
// (dist/renderer, by Vite with renderer/vite.config.ts).
//
//   node scripts/build.mjs            all three
//   node scripts/build.mjs --web      the renderer only (what web mode serves)
//   node scripts/build.mjs --shell    main and preload only (tests: the renderer build empties
//                                     dist/renderer, which web mode may be serving meanwhile)
//
// Imported by scripts/start.mjs, which builds quietly before launching, and run by
// electron-builder as its beforeBuild hook, so `npm run dist` packs what the sources say.
import { build as esbuild } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zopfliWorkerInline } from './zopfli-worker-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Left out of the main bundle and loaded from node_modules at run time: Electron itself, native
 * add-ons (they are rebuilt for Electron and unpacked from the asar by electron-builder), WASM
 * modules that read their own files next to them (PGlite), and the optional native helpers that
 * pure-JS packages try to require.
 */
export const MAIN_EXTERNALS = [
  'electron',
  'serialport',
  '@serialport/*',
  '@abandonware/noble',
  '@abandonware/bluetooth-hci-socket',
  'usb',
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'pg',
  'pg-native',
  'cbor-extract',
  '@cbor-extract/*',
  'bufferutil',
  'utf-8-validate',
];

// What the pinned Electron (45, see package.json) embeds: Chromium 156 and Node 24. Keep these in
// step with the Electron line (docs/decisions.md, "Electron line").
const PRELOAD_TARGET = 'chrome156';
const MAIN_TARGET = 'node24';

/** A sandboxed preload may require only these; anything else must be bundled in. */
const SANDBOXED_PRELOAD_MODULES = new Set(['electron', 'events', 'timers', 'url']);

/**
 * Our TypeScript is ESM and may find files next to itself with `new URL('../package.json',
 * import.meta.url)`. A CJS bundle has no import.meta, so each module's import.meta.url becomes
 * `__sourceUrl(<its path from the project root>)`, which the bundle's banner defines: here the URL
 * the source file has inside the app (dist/main/ is two levels below the app root, which is the
 * project folder in development and app.asar when packaged); scripts/build-cli.mjs defines its own.
 */
export const sourceLocationImportMetaUrl = {
  name: 'source-location-import-meta-url',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.[cm]?tsx?$/ }, async (args) => {
      if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const source = relative(root, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `__sourceUrl(${JSON.stringify(source)})`),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * The esbuild options the two bundles of the core share (the Electron main process here, the
 * single executable in scripts/build-cli.mjs): `entry` (from the project root) and what it imports
 * in one CommonJS file for Node, with zopfli's worker bundled in and import.meta.url made to work.
 * `plugins` come first, and zopfliWorkerInline before sourceLocationImportMetaUrl: the first
 * plugin to load a file wins. `banner` defines __sourceUrl; `more` is any other esbuild option.
 */
export function coreBundleOptions({ entry, outfile, target, external, plugins = [], banner, ...more }) {
  return {
    entryPoints: [resolve(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target,
    external,
    plugins: [...plugins, zopfliWorkerInline, sourceLocationImportMetaUrl],
    ...(banner === undefined ? {} : { banner: { js: banner } }),
    ...more,
  };
}

async function buildMain({ quiet }) {
  await esbuild(
    coreBundleOptions({
      entry: 'main/hosts/electron/main.ts',
      outfile: join(root, 'dist/main/electron.cjs'),
      target: MAIN_TARGET,
      external: MAIN_EXTERNALS,
      banner:
        "const __sourceUrl = (file) => require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', '..', file)).href;",
      sourcemap: true,
      logLevel: quiet ? 'error' : 'warning',
    }),
  );
}

async function buildPreload({ quiet }) {
  const outfile = join(root, 'dist/preload/preload.cjs');
  await esbuild({
    entryPoints: [join(root, 'preload/preload.ts')],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: PRELOAD_TARGET,
    external: ['electron'],
    // zod (through the contract) is most of it; the renderer parses this on every page load.
    minify: true,
    sourcemap: true,
    logLevel: quiet ? 'error' : 'warning',
  });
  const required = [...readFileSync(outfile, 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
  const forbidden = required.filter((name) => !SANDBOXED_PRELOAD_MODULES.has(name));
  if (forbidden.length > 0) {
    throw new Error(
      `preload bundle requires ${forbidden.join(', ')}: a sandboxed preload can load only ${[...SANDBOXED_PRELOAD_MODULES].join(', ')}`,
    );
  }
}

async function buildRenderer({ quiet }) {
  const configFile = join(root, 'renderer/vite.config.ts');
  if (!existsSync(configFile)) {
    console.warn(`Renderer not built: ${relative(root, configFile)} does not exist yet.`);
    return;
  }
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile, logLevel: quiet ? 'error' : 'warn' });
}

const PARTS = {
  electron: 'main, preload and renderer',
  web: 'renderer',
  shell: 'main and preload',
};

/** target: 'electron' (main, preload, renderer), 'web' (renderer) or 'shell' (main, preload). */
export async function build({ target = 'electron', quiet = false } = {}) {
  if (!(target in PARTS)) throw new Error(`Unknown build target ${target}`);
  const started = Date.now();
  if (target !== 'web') await Promise.all([buildMain({ quiet }), buildPreload({ quiet })]);
  if (target !== 'shell') await buildRenderer({ quiet });
  if (!quiet) {
    const parts = PARTS[target];
    console.log(`Built ${parts} into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}

/**
 * electron-builder's beforeBuild hook (see electron-builder.yml): `npm run dist` always packs a
 * fresh build. Resolving to undefined lets electron-builder go on to rebuild native modules.
 */
export async function beforeBuild() {
  await build({ target: 'electron' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv.includes('--web') ? 'web' : process.argv.includes('--shell') ? 'shell' : 'electron';
  build({ target }).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
