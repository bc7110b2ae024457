#!/usr/bin/env node
// The project's `postinstall`, the last step of `npm ci`, makes the install one for the Node 24
// that npm installed for this platform, whatever Node ran npm:
// 1. node_modules/.bin/node is that Node (linked here where npm 9 did not), and the rest runs on it.
// 2. Optional packages for this platform that npm skipped because their `engines` refuse the Node
//    that ran npm (rolldown's binding, which Vite needs, wants 20.19 or later: npm on Node 18
//    leaves it out) are installed now, on Node 24.
// 3. Every add-on compiled from source at install loads in it; those that do not are rebuilt
//    for it, against its headers.
//
// Why they may not: npm runs install scripts on that Node, but node-gyp compiles against the
// headers its configuration names, and Debian's npm (like this machine's ~/.npmrc) sets
// `nodedir=/usr`, the system Node's headers (18 or 20). An add-on built that way is refused by
// Node 24 (NODE_MODULE_VERSION 115, not 137). N-API add-ons with prebuilds (serialport, usb,
// cbor-extract) load on any Node and are never touched; today only bluetooth-hci-socket (NAN) is
// compiled against one Node's headers.
//
// Runs on whatever Node npm chose for scripts, so it keeps to APIs old Nodes have.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkOwnNode } from './node-runtime.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Package folders under `dir`'s node_modules, nested ones included (bounded by the tree on disk). */
function packageDirs(dir, found = []) {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const path = join(modules, entry);
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(path)) addPackage(join(path, scoped), found);
    } else {
      addPackage(path, found);
    }
  }
  return found;
}

function addPackage(path, found) {
  if (!existsSync(join(path, 'package.json')) || !statSync(path).isDirectory()) return;
  found.push(path);
  packageDirs(path, found);
}

/** The .node files node-gyp (build/Release) or node-pre-gyp (the package's binary.module_path) left in a package compiled at install. */
function compiledAddons(pkgDir) {
  if (!existsSync(join(pkgDir, 'binding.gyp'))) return [];
  const dirs = [join(pkgDir, 'build', 'Release')];
  const modulePath = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).binary?.module_path;
  if (typeof modulePath === 'string' && !modulePath.includes('{')) dirs.push(join(pkgDir, modulePath));
  return dirs
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d)
        .filter((f) => f.endsWith('.node'))
        .map((f) => join(d, f)),
    );
}

/** Whether the add-on was compiled for another Node's ABI. Other load errors (an empty target, no hardware) are not ours to fix. */
function builtForAnotherNode(file) {
  try {
    require(file);
    return null;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.includes('NODE_MODULE_VERSION') ? message.split('\n')[0] : null;
  }
}

/** This Node's headers when they lie beside its binary (the registry's node-<platform>-<arch> packages, nvm, official tarballs). */
function ownHeadersDir() {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return existsSync(join(prefix, 'include', 'node', 'node_version.h')) ? prefix : null;
}

function staleAddons() {
  const stale = new Map();
  for (const pkgDir of packageDirs(projectRoot)) {
    for (const file of compiledAddons(pkgDir)) {
      const reason = builtForAnotherNode(file);
      if (reason) stale.set(JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).name, reason);
    }
  }
  return stale;
}

// Checked on the Node the scripts will run on: npm 9 runs this on its own Node when it did not
// link node_modules/.bin/node, so it hands over to that Node once linked.
const ownNode = linkOwnNode();
if (ownNode && realpathSync(ownNode) !== realpathSync(process.execPath)) {
  const result = spawnSync(ownNode, [fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

/** Whether a lockfile entry's os/cpu/libc fields admit this machine (npm's own rule: a list, `!` excludes). */
function forThisPlatform(entry) {
  const admits = (field, value) => {
    if (field === undefined) return true;
    const list = [].concat(field);
    if (list.includes(`!${value}`)) return false;
    return list.some((item) => !item.startsWith('!')) ? list.includes(value) : true;
  };
  const libc =
    process.platform === 'linux'
      ? process.report?.getReport().header.glibcVersionRuntime
        ? 'glibc'
        : 'musl'
      : undefined;
  return (
    admits(entry.os, process.platform) &&
    admits(entry.cpu, process.arch) &&
    (libc === undefined || admits(entry.libc, libc))
  );
}

/**
 * Optional packages of the lockfile built for a platform (os or cpu set), for this one, with an
 * `engines.node`, that are not on disk. (Packages without os and cpu are optional only through a
 * parent for another platform, such as the WASM build's runtime, which npm rightly leaves out.)
 */
function skippedForEngines() {
  const lockPath = join(projectRoot, 'package-lock.json');
  if (!existsSync(lockPath)) return [];
  const { packages = {} } = JSON.parse(readFileSync(lockPath, 'utf8'));
  return Object.entries(packages)
    .filter(
      ([path, entry]) =>
        path !== '' &&
        entry.optional &&
        (entry.os || entry.cpu) &&
        entry.engines?.node &&
        forThisPlatform(entry) &&
        !existsSync(join(projectRoot, path)),
    )
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

const skipped = process.env.PROVISIONER_POSTINSTALL_COMPLETING ? [] : skippedForEngines();
if (skipped.length > 0) {
  console.log(
    `Installing ${skipped.join(', ')} for Node ${process.version} (npm left them out: they refuse the Node it ran on).`,
  );
  // The lockfile as it is, on this Node; no scripts (none of these has any, and not this one again).
  const env = { ...process.env, PROVISIONER_POSTINSTALL_COMPLETING: '1' };
  const args = ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund'];
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: projectRoot, env, encoding: 'utf8' })
    : spawnSync('npm', args, { cwd: projectRoot, env, encoding: 'utf8', shell: process.platform === 'win32' });
  // npm 9 drops node_modules/.bin/node again on every install.
  linkOwnNode();
  const still = skippedForEngines();
  if (result.status !== 0 || still.length > 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    console.warn(
      `warning: ${(still.length > 0 ? still : skipped).join(', ')} could not be installed for Node ${process.version}; run \`npm install\` again.`,
    );
  }
}

const stale = staleAddons();
if (stale.size > 0) {
  const names = [...stale.keys()];
  const headers = ownHeadersDir();
  console.log(
    `Rebuilding ${names.join(', ')} for Node ${process.version} (compiled at install against another Node's headers)${headers ? ` with the headers in ${relative(projectRoot, headers) || headers}` : ''}.`,
  );
  const env = { ...process.env };
  if (headers) env.npm_config_nodedir = headers;
  // The npm running this install, on this Node; `npm` from PATH when started by hand.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'rebuild', ...names], { cwd: projectRoot, env, encoding: 'utf8' })
    : spawnSync('npm', ['rebuild', ...names], {
        cwd: projectRoot,
        env,
        encoding: 'utf8',
        shell: process.platform === 'win32',
      });
  const still = staleAddons();
  if (result.status !== 0 || still.size > 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    for (const [name, reason] of still.size > 0 ? still : stale) {
      console.warn(
        `warning: ${name} could not be rebuilt for Node ${process.version} (${reason}); what needs it (Bluetooth LE on Linux) will not work until \`npm rebuild ${name}\` succeeds.`,
      );
    }
  }
}
