/**
 * `npm run build:cli` for real: builds the single executable once, copies its folder to an empty
 * directory outside the repository (no node_modules above it, no Node on PATH) and runs it there,
 * also through a symbolic link as an install would. The commands it runs load the native serial
 * binding (opening a port), the local workspace (PGlite's WASM, the embedded service) and zopfli
 * on its worker thread (the script scripts/zopfli-worker-plugin.mjs bundles in).
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type ProcessRun } from '../fixtures/run-process';

const root = join(import.meta.dirname, '..', '..');

let build: string;
let installed: string;
let home: string;

/** Runs the executable with nothing of this machine's Node around it: a bare PATH, an empty HOME. */
function run(executable: string, args: readonly string[]): Promise<ProcessRun> {
  return runProcess(executable, args, { cwd: home, env: { PATH: '/usr/bin:/bin', HOME: home } });
}

// Building is slow (a 3 MB bundle, a copy of the Node binary, the injection): no time limit.
beforeAll(async () => {
  build = await mkdtemp(join(tmpdir(), 'provisioner-cli-build-test-'));
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--out', join(build, 'cli')], {
    cwd: root,
    stdio: 'pipe',
  });
  installed = await mkdtemp(join(tmpdir(), 'provisioner-cli-installed-'));
  await cp(join(build, 'cli'), installed, { recursive: true });
  home = await mkdtemp(join(tmpdir(), 'provisioner-cli-home-'));
}, 0);

afterAll(async () => {
  for (const dir of [build, installed, home]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the single-executable CLI, copied away from the repository', () => {
  it('prints our version and the Node it embeds (the one that built it)', { timeout: 0 }, async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const result = await run(join(installed, 'provisioner'), ['--version']);
    expect(result).toEqual({ code: 0, stdout: `${version} (node ${process.version})\n`, stderr: '' });
  });

  it('prints its help', { timeout: 0 }, async () => {
    const result = await run(join(installed, 'provisioner'), ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: provisioner \[options\] \[command\]\n/);
    for (const command of ['login', 'device', 'outbox', 'cache'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(result.stderr).toBe('');
  });

  it('opens a serial port through the native binding beside it', { timeout: 0 }, async () => {
    // The binding's own error for a port that is not there; without lib/ it would be "Cannot find module".
    const port = join(home, 'no-such-tty');
    const result = await run(join(installed, 'provisioner'), [
      '--data-dir',
      join(home, 'data'),
      '--json',
      'device',
      'list',
      '--link',
      `serial:${port}`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as Array<{ connection: string; error?: string }>;
    expect(listed).toEqual([
      expect.objectContaining({
        connection: `serial:${port}`,
        error: `Error: No such file or directory, cannot open ${port}`,
      }),
    ]);
  });

  it(
    'makes zopfli streams on a worker thread from the script bundled into it, with no zopfli beside it',
    { timeout: 0 },
    async () => {
      expect(await readdir(join(installed, 'lib', 'node_modules'))).not.toContain('@gfx');
      const result = await run(join(installed, 'provisioner'), [
        '--data-dir',
        join(home, 'data'),
        '--json',
        'cache',
        'self-test',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const { zopfli } = JSON.parse(result.stdout) as {
        zopfli: { sourceBytes: number; streamBytes: number; inflatesBack: boolean };
      };
      expect(zopfli).toEqual({ sourceBytes: 8192, streamBytes: expect.any(Number), inflatesBack: true });
      // A stream at all, and a deflated one: the sample is a few repeated opcodes.
      expect(zopfli.streamBytes).toBeGreaterThan(0);
      expect(zopfli.streamBytes).toBeLessThan(zopfli.sourceBytes / 2);
    },
  );

  it(
    'starts the local workspace (PGlite, the embedded service) and answers from it, also through a symbolic link',
    { timeout: 0 },
    async () => {
      const linkDir = await mkdtemp(join(tmpdir(), 'provisioner-cli-bin-'));
      try {
        await symlink(join(installed, 'provisioner'), join(linkDir, 'provisioner'));
        const result = await run(join(linkDir, 'provisioner'), ['--data-dir', join(home, 'data'), 'signing-key']);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
      } finally {
        await rm(linkDir, { recursive: true, force: true });
      }
    },
  );
});
