import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runStart } from '../../../../main/hosts/electron/launcher/run-start';

/**
 * `npm start` end to end in a throw-away project folder: a stand-in electron package (whose
 * install script really tries the network), a stand-in web mode that records its arguments, and
 * a black-hole "download host" that accepts connections and never answers.
 */
let project: string;
let blackHole: Server;
let mirror: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}/`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
});

beforeEach(async (context) => {
  project = await mkdtemp(join(tmpdir(), 'provisioner-start-'));
  context.onTestFinished(() => rm(project, { recursive: true, force: true }));
  await mkdir(join(project, 'node_modules', 'electron'), { recursive: true });
  await writeFile(join(project, 'node_modules', 'electron', 'package.json'), '{"name":"electron","version":"45.4.1"}');
  // The real install script would fetch from the mirror; this one records that it ran.
  await writeFile(
    join(project, 'node_modules', 'electron', 'install.js'),
    "require('fs').writeFileSync(__dirname + '/install-ran', ''); process.exit(1);",
  );
  await mkdir(join(project, 'main', 'hosts', 'web'), { recursive: true });
  await writeFile(
    join(project, 'main', 'hosts', 'web', 'cli.ts'),
    "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.WEB_ARGS_FILE as string, JSON.stringify(process.argv.slice(2)));\n",
  );
});

function env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: project,
    ELECTRON_MIRROR: mirror,
    WEB_ARGS_FILE: join(project, 'web-args.json'),
    ...extra,
  };
}

async function installStandInElectron(script: string): Promise<void> {
  const electron = join(project, 'node_modules', 'electron');
  await mkdir(join(electron, 'dist'), { recursive: true });
  await writeFile(join(electron, 'path.txt'), 'electron');
  await writeFile(join(electron, 'dist', 'electron'), `#!/bin/sh\n${script}\n`);
  await chmod(join(electron, 'dist', 'electron'), 0o755);
}

describe('npm start', () => {
  it('falls back to web mode with one line, quickly, when the binary cannot be fetched', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const builds: string[] = [];
    const started = Date.now();
    const code = await runStart({
      projectRoot: project,
      args: ['--simulate'],
      build: async (t) => void builds.push(t),
      env: env({ DISPLAY: ':99' }),
      isRoot: false,
    });
    log.mockRestore();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Electron cannot run here \(no Electron binary: the download failed, 127\.0\.0\.1:\d+ did not answer within 4 s\); starting web mode instead\.$/,
    );
    expect(builds).toEqual(['web']);
    expect(JSON.parse(await readFile(join(project, 'web-args.json'), 'utf8'))).toEqual(['--simulate']);
  });

  it('falls back without trying the network where there is no display', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const code = await runStart({ projectRoot: project, args: [], build: async () => {}, env: env({}), isRoot: false });
    log.mockRestore();
    expect(code).toBe(0);
    expect(lines).toEqual([
      'Electron cannot run here (no display: DISPLAY and WAYLAND_DISPLAY are unset; no Electron binary: not downloaded yet); starting web mode instead.',
    ]);
    await expect(readFile(join(project, 'node_modules', 'electron', 'install-ran'))).rejects.toThrow();
  });

  it.runIf(process.platform !== 'win32')(
    'builds everything and launches the Electron binary on the app folder when it can run',
    async () => {
      await installStandInElectron(
        `echo "$@" > "${join(project, 'electron-args')}"\n[ -z "$ELECTRON_RUN_AS_NODE" ] || exit 9`,
      );
      const builds: string[] = [];
      const code = await runStart({
        projectRoot: project,
        args: ['--trace'],
        build: async (t) => void builds.push(t),
        env: env({ DISPLAY: ':99', ELECTRON_RUN_AS_NODE: '1' }),
        isRoot: false,
      });
      expect(code).toBe(0);
      expect(builds).toEqual(['electron']);
      expect((await readFile(join(project, 'electron-args'), 'utf8')).trim()).toBe('. --trace');
    },
  );

  it.runIf(process.platform !== 'win32')('falls back to web mode when Electron dies while starting', async () => {
    await installStandInElectron('echo "libnss3.so: cannot open shared object file" >&2; exit 127');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const builds: string[] = [];
    const code = await runStart({
      projectRoot: project,
      args: [],
      build: async (t) => void builds.push(t),
      env: env({ DISPLAY: ':99' }),
      isRoot: false,
    });
    log.mockRestore();
    expect(code).toBe(0);
    expect(builds).toEqual(['electron', 'web']);
    expect(lines).toEqual([
      'Electron cannot run here (Electron exited with code 127 while starting); starting web mode instead.',
    ]);
  });
});
