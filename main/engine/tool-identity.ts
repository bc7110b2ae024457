import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Who the tool is, for every record a safety engineer reads (issue 26: the tool identifies itself):
 * its product name, its version, and a build id that changes with every build. The build id is:
 * `commit <sha>` when it runs from a git checkout (development, CI); otherwise `sha256 <first 16
 * hex digits>` of the program it runs from: the bundled CLI executable or the Electron bundle,
 * which every build makes anew. PROVISIONER_BUILD_ID, when a packaging pipeline sets it, wins.
 */
export interface ToolIdentity {
  name: string;
  version: string;
  build: string;
}

export const PRODUCT_NAME = 'Provisioner';

let cached: Promise<ToolIdentity> | undefined;

export function toolIdentity(): Promise<ToolIdentity> {
  cached ??= findToolIdentity();
  return cached;
}

/** "Provisioner 0.1.0 (commit 93142f9…)" */
export function toolIdentityText(tool: ToolIdentity): string {
  return `${tool.name} ${tool.version} (${tool.build})`;
}

async function findToolIdentity(): Promise<ToolIdentity> {
  const root = packageRoot();
  return {
    name: PRODUCT_NAME,
    version: packageVersion(root),
    build: process.env.PROVISIONER_BUILD_ID ?? commitOf(root) ?? (await programHash()),
  };
}

/** The nearest folder above this module with a package.json (the project in development, lib/ or app.asar once built). */
function packageRoot(): string | undefined {
  let dir: string;
  try {
    dir = dirname(fileURLToPath(import.meta.url));
  } catch {
    dir = process.cwd();
  }
  for (let i = 0; i < 8; i += 1) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

function packageVersion(root: string | undefined): string {
  try {
    return (
      (JSON.parse(readFileSync(join(root ?? '.', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}

/** The commit HEAD names, read from .git without running git. */
function commitOf(root: string | undefined): string | undefined {
  if (!root) return undefined;
  try {
    const gitDir = join(root, '.git');
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    const sha = ref ? readRef(gitDir, ref) : head;
    if (!sha || !/^[0-9a-f]{40}$/.test(sha)) return undefined;
    return `commit ${sha}`;
  } catch {
    return undefined;
  }
}

function readRef(gitDir: string, ref: string): string | undefined {
  const loose = join(gitDir, ref);
  if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
  const packed = join(gitDir, 'packed-refs');
  if (!existsSync(packed)) return undefined;
  const line = readFileSync(packed, 'utf8')
    .split('\n')
    .find((l) => l.endsWith(` ${ref}`));
  return line?.split(' ')[0];
}

/** SHA-256 of the script Node runs (a bundle), or of the executable when the program is inside it. */
async function programHash(): Promise<string> {
  const script = process.argv[1];
  const file = script && existsSync(script) && statSync(script).isFile() ? script : process.execPath;
  const hash = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', resolve)
      .on('error', reject);
  });
  return `sha256 ${hash.digest('hex').slice(0, 16)}`;
}
