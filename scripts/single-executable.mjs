// The machinery of a Node single-executable application (SEA) for a program of ours that runs on a
// machine without Node or node_modules: `npm run build:cli` (scripts/build-cli.mjs, the
// `provisioner` CLI) and `npm run build:service` (scripts/build-service.mjs, the service's
// `provisioner-service`) are each one call of buildSingleExecutable.
//
//   OUT/NAME                   this Node binary with ENTRY (bundled by esbuild into one CommonJS
//                              file) injected as its main script
//   OUT/lib/package.json       name and version (the code reads our version from it)
//   OUT/lib/node_modules/      what cannot live inside the executable (BESIDE_BINARY below), with
//                              the packages they need, laid out as in our node_modules
//
// Install by copying OUT as a whole (e.g. to /opt/provisioner) and linking the executable onto
// PATH: it finds lib/ beside its real path. The executable embeds the Node that runs this script,
// so run it with Node 24 (the npm scripts do, given Node 24 on PATH).
import { build as esbuild } from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { coreBundleOptions } from './build.mjs';

const root = join(import.meta.dirname, '..');

/**
 * Packages the executable loads from lib/ at run time instead of carrying them in its blob: a
 * native add-on is a file that must be dlopen()ed from disk, and each of these finds its own files
 * relative to its package folder.
 */
const BESIDE_BINARY = [
  // serialport's native binding; node-gyp-build finds prebuilds/<platform>-<arch>/ in its folder.
  '@serialport/bindings-cpp',
  // BLE: its own add-on (macOS, Windows) and, on Linux, bluetooth-hci-socket and usb.
  '@abandonware/noble',
  // cbor-x's optional native decoder (cbor-x falls back to JavaScript without it).
  'cbor-extract',
  // The embedded service's database: reads pglite.wasm and pglite.data next to itself.
  '@electric-sql/pglite',
];

/** Optional add-ons our dependencies try to require and we do not install: the require fails, as it does from node_modules. */
const NOT_INSTALLED = ['pg-native', 'bufferutil', 'utf-8-validate'];

/**
 * Dependencies that native packages declare to build their add-on at install time (node-pre-gyp,
 * node-gyp and the C++ headers packages) or for their types; loading the built add-on needs none.
 */
const INSTALL_TIME_ONLY = new Set([
  '@mapbox/node-pre-gyp',
  'node-gyp',
  'nan',
  'node-addon-api',
  'napi-thread-safe-callback',
]);

/** Node writes the single-executable blob's flag into the binary at this sentinel (Node's docs). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const besidePattern = new RegExp(`^(${BESIDE_BINARY.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`);

/** The folder of the package a file inside node_modules belongs to. */
function packageFolderOf(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join(sep);
}

/**
 * Replaces each import of a BESIDE_BINARY package by a require, at run time, of the very file
 * esbuild would have bundled (resolved as a require, so CommonJS entries), under lib/ where
 * copyBesideBinary puts it. Records the package folders it needs.
 */
function besideBinary(packageFolders) {
  return {
    name: 'beside-binary',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: besidePattern }, async (args) => {
        if (args.pluginData?.besideBinary) return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: 'require-call',
          resolveDir: args.resolveDir,
          pluginData: { besideBinary: true },
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        packageFolders.add(packageFolderOf(resolved.path));
        return { path: relative(root, resolved.path).split(sep).join('/'), namespace: 'beside-binary' };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'beside-binary' }, (args) => ({
        contents: `module.exports = __requireBesideBinary(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * In a single executable, `require` loads only built-in modules; files on disk are loaded with a
 * require made by module.createRequire. lib/ is found beside the executable's real path
 * (process.execPath is the resolved binary, also when started through a symbolic link).
 */
const BANNER = [
  "const __libDir = require('node:path').join(require('node:path').dirname(process.execPath), 'lib');",
  "const __requireBesideBinary = (file) => require('node:module').createRequire(require('node:path').join(__libDir, 'package.json'))(require('node:path').join(__libDir, file));",
  // A source file's import.meta.url: where it would be under lib/, so '../package.json' from
  // server/service.ts is lib/package.json.
  "const __sourceUrl = (file) => require('node:url').pathToFileURL(require('node:path').join(__libDir, file)).href;",
].join('\n');

/**
 * Bundles `entry` into `outfile`; answers the package folders that go beside the binary and the
 * packages bundled into the file (names, for the license notices of a package that ships it).
 */
async function bundle(entry, outfile) {
  const packageFolders = new Set();
  const { metafile } = await esbuild(
    coreBundleOptions({
      entry,
      outfile,
      target: `node${process.versions.node.split('.')[0]}`,
      external: NOT_INSTALLED,
      plugins: [besideBinary(packageFolders)],
      banner: BANNER,
      // No source map: the executable has no file to point it at, and errors name our functions anyway.
      minifySyntax: true,
      logLevel: 'warning',
      metafile: true,
    }),
  );
  const bundled = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) bundled.add(match[1]);
  }
  return { packageFolders, bundled: [...bundled].sort() };
}

/** The installed folder of package `name` as Node resolves it from `fromFolder`, or undefined. */
function installedFolder(name, fromFolder) {
  for (let dir = fromFolder; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

/** The package folders and every folder of what they depend on (installed optional ones included). */
function dependencyClosure(folders) {
  const closure = new Set();
  const pending = [...folders];
  while (pending.length > 0) {
    const folder = pending.pop();
    if (closure.has(folder)) continue;
    closure.add(folder);
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    for (const name of new Set([...Object.keys(pkg.dependencies ?? {}), ...optional])) {
      if (INSTALL_TIME_ONLY.has(name) || name.startsWith('@types/')) continue;
      const found = installedFolder(name, folder);
      if (found) pending.push(found);
      else if (!optional.has(name))
        throw new Error(`${name}, needed by ${relative(root, folder)}, is not installed (run npm ci)`);
    }
  }
  return closure;
}

const PLATFORM_PREBUILD = new RegExp(`^${process.platform}-[^/]*\\b${process.arch}\\b`);

/** The executable is this Node binary: where it is built against glibc, add-ons built for musl cannot load in it. */
const OTHER_LIBC = process.report?.getReport().header.glibcVersionRuntime
  ? /(^|[./-])musl([./-]|$)/
  : /(^|[./-])glibc([./-]|$)/;

/** An add-on's sources and build files: compiled already, never loaded. */
const ADDON_SOURCES =
  /\.(c|cc|cpp|cxx|h|hh|hpp|m|mm|gyp|gypi|sln|vcxproj|vcxproj\.filters|props|xcconfig|am|mk)$|(^|\/)(Makefile|CMakeLists\.txt)$/;

/** The files a package's package.json names as commands ("bin"): npm links them for a shell, nothing requires them. */
function commandsOf(folder) {
  const { bin } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const files = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  return new Set(files.map((file) => file.replace(/^\.\//, '')));
}

/**
 * What a package needs at run time: not its nested node_modules (each dependency is copied on its
 * own), source maps, type declarations, prebuilt add-ons for other platforms or the other C
 * library, the compiler's intermediate files beside a built add-on or its sources, the package's
 * command scripts, or dot files (linter and CI settings).
 */
function neededAtRunTime(folder) {
  const commands = commandsOf(folder);
  return (source) => {
    const path = relative(folder, source).split(sep).join('/');
    if (path === '') return true;
    if (path === 'node_modules' || path.startsWith('node_modules/')) return false;
    if (/(^|\/)\./.test(path) || commands.has(path)) return false;
    if (/\.map$|\.d\.[cm]?ts$/.test(path) || ADDON_SOURCES.test(path)) return false;
    if (/\.node$/.test(path) && OTHER_LIBC.test(path.slice(path.lastIndexOf('/') + 1))) return false;
    const prebuild = /^prebuilds\/([^/]+)/.exec(path);
    if (prebuild && !PLATFORM_PREBUILD.test(prebuild[1])) return false;
    if (path.startsWith('build/') && !/^build\/Release(\/[^/]+\.node)?$/.test(path) && path !== 'build/Release')
      return false;
    return true;
  };
}

/** Copies each package to lib/ at its path under the project root, so Node resolves among them as among node_modules. */
function copyBesideBinary(packageFolders, libDir) {
  const closure = [...dependencyClosure(packageFolders)].sort();
  for (const folder of closure) {
    cpSync(folder, join(libDir, relative(root, folder)), { recursive: true, filter: neededAtRunTime(folder) });
  }
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(libDir, 'package.json'), `${JSON.stringify({ name, version, private: true }, null, 2)}\n`);
  return closure.map((folder) => relative(join(root, 'node_modules'), folder));
}

/**
 * Makes `executable` from the bundle: a copy of this Node with the blob Node made from it injected.
 * With `strip`, the copy loses its symbol table first (binutils' strip; about 18 MB of Node 24's
 * 127): what Debian wants of a packaged binary. The dynamic symbols add-ons link against stay.
 */
async function makeExecutable(mainScript, executable, workDir, strip) {
  const blob = join(workDir, 'main.blob');
  const seaConfig = join(workDir, 'sea-config.json');
  writeFileSync(
    seaConfig,
    `${JSON.stringify(
      {
        main: mainScript,
        output: blob,
        // A product, not an experiment: the user should not see Node's warning.
        disableExperimentalSEAWarning: true,
        // V8's compiled code goes into the blob: start-up skips compiling the 3 MB bundle.
        useCodeCache: true,
      },
      null,
      2,
    )}\n`,
  );
  const made = spawnSync(process.execPath, ['--experimental-sea-config', seaConfig], {
    cwd: workDir,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`node --experimental-sea-config failed: ${made.stderr || made.stdout}`);
  if (strip) {
    const stripped = spawnSync('strip', ['--strip-unneeded', '-o', executable, process.execPath], { encoding: 'utf8' });
    if (stripped.status !== 0)
      throw new Error(`strip failed (binutils installed?): ${stripped.stderr || stripped.error?.message}`);
  } else {
    copyFileSync(process.execPath, executable);
  }
  chmodSync(executable, 0o755);
  const { inject } = await import('postject');
  // postject's ELF library warns about every note section of Node's binary it cannot name: noise
  // (the injection is checked by running the result), so it is held back.
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
  } finally {
    console.warn = warn;
  }
}

/** outDir is emptied first: only when it is empty or holds an earlier build, never someone's folder. */
function refuseForeignOutDir(outDir, name) {
  if (!existsSync(outDir) || readdirSync(outDir).length === 0) return;
  if (existsSync(join(outDir, name)) && existsSync(join(outDir, 'lib', 'package.json'))) return;
  throw new Error(`${outDir} is not empty and holds no earlier build of ${name}; choose an empty or new folder.`);
}

/**
 * Builds `entry` (a path from the project root) as the executable outDir/name, with lib/ beside it
 * (outDir is emptied first; `strip`: see makeExecutable). Answers the executable's path, what went into lib/ (paths under
 * node_modules) and the packages bundled into the executable.
 */
export async function buildSingleExecutable({ entry, name, outDir, quiet = false, strip = false }) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24)
    throw new Error(
      `The executable embeds the Node that builds it; this is Node ${process.version}, and ${name} needs Node 24 (see .nvmrc).`,
    );
  const started = Date.now();
  const executable = join(outDir, name);
  refuseForeignOutDir(outDir, name);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'lib'), { recursive: true });
  // The bundle, the blob and the SEA configuration are inputs of the executable, not shipped.
  const workDir = mkdtempSync(join(tmpdir(), `${name}-build-`));
  try {
    const mainScript = join(workDir, `${name}.cjs`);
    const { packageFolders, bundled } = await bundle(entry, mainScript);
    const besideBinary = copyBesideBinary(packageFolders, join(outDir, 'lib'));
    await makeExecutable(mainScript, executable, workDir, strip);
    if (!quiet) {
      console.log(
        `Built ${relative(process.cwd(), executable)} (Node ${process.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s; beside it in lib/: ${besideBinary.join(', ')}.`,
      );
    }
    return { executable, besideBinary, bundled };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The command line of a build script: `--out DIR` or the default folder. */
export function runBuildScript(build, defaultOutDir) {
  const out = process.argv.indexOf('--out');
  const outDir = out === -1 ? defaultOutDir : process.argv[out + 1];
  if (!outDir) {
    console.error('--out needs a folder');
    process.exit(2);
  }
  build({ outDir: resolve(outDir) }).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
