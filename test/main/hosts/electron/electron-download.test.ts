import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  downloadElectronBinary,
  electronMirror,
  hostAnswers,
  runInstallScript,
} from '../../../../main/hosts/electron/launcher/electron-download';
import { findElectronBinary } from '../../../../main/hosts/electron/launcher/electron-binary';

const projectRoot = join(import.meta.dirname, '..', '..', '..', '..');

/** Accepts connections and never answers: what a network that drops traffic looks like. */
let blackHole: Server;
let blackHolePort: number;
const sockets = new Set<Socket>();
const temporaryDirs: string[] = [];

beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  blackHolePort = (blackHole.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
  await Promise.all(temporaryDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** An environment that can only reach the black hole, with no cached download to fall back on. */
async function isolatedEnv(): Promise<NodeJS.ProcessEnv> {
  const cache = await mkdtemp(join(tmpdir(), 'provisioner-electron-cache-'));
  temporaryDirs.push(cache);
  return {
    PATH: process.env.PATH,
    HOME: cache,
    electron_config_cache: cache,
    ELECTRON_MIRROR: `http://127.0.0.1:${blackHolePort}/`,
  };
}

describe('fetching the Electron binary never hangs', () => {
  it('reads the same mirror variables as electron’s install script', () => {
    expect(electronMirror({})).toBe('https://github.com/electron/electron/releases/download/');
    expect(electronMirror({ ELECTRON_MIRROR: 'https://mirror.example/electron/' })).toBe(
      'https://mirror.example/electron/',
    );
    expect(electronMirror({ npm_config_electron_mirror: 'https://npmrc.example/' })).toBe('https://npmrc.example/');
  });

  it('gives up quickly when the download host does not answer', async () => {
    const started = Date.now();
    const result = await downloadElectronBinary({
      projectRoot,
      env: await isolatedEnv(),
      probeTimeoutMs: 500,
      timeoutMs: 60_000,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toEqual({
      ok: false,
      detail: 'the download failed, 127.0.0.1:' + blackHolePort + ' did not answer within 500 ms',
    });
  });

  it('gives up at once when the host refuses connections', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const started = Date.now();
    const result = await hostAnswers(`http://127.0.0.1:${port}/`, 5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({ ok: false, detail: `127.0.0.1:${port} is unreachable (ECONNREFUSED)` });
  });

  it('kills the install script when it overruns its time limit', async () => {
    const env = await isolatedEnv();
    const started = Date.now();
    const result = await runInstallScript(join(projectRoot, 'node_modules', 'electron', 'install.js'), env, 1_500);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({ ok: false, detail: 'the download took longer than 2 s' });
  });

  it('reports a failing install script in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provisioner-install-'));
    try {
      const script = join(dir, 'install.js');
      await writeFile(script, "console.error(new Error('getaddrinfo ENOTFOUND github.com').stack); process.exit(1);");
      expect(await runInstallScript(script, {}, 10_000)).toEqual({
        ok: false,
        detail: 'the download failed, Error: getaddrinfo ENOTFOUND github.com',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('finding the Electron binary without require("electron")', () => {
  it('finds it through path.txt, or says it is not downloaded', async () => {
    const root = await mkdtemp(join(tmpdir(), 'provisioner-root-'));
    try {
      const pkg = join(root, 'node_modules', 'electron');
      await mkdir(join(pkg, 'dist'), { recursive: true });
      await writeFile(join(pkg, 'package.json'), '{"name":"electron"}');
      expect(findElectronBinary(root, {})).toEqual({ kind: 'missing', detail: 'not downloaded yet' });
      await writeFile(join(pkg, 'path.txt'), 'electron');
      expect(findElectronBinary(root, {})).toEqual({ kind: 'missing', detail: 'not downloaded yet' });
      await writeFile(join(pkg, 'dist', 'electron'), '');
      expect(findElectronBinary(root, {})).toEqual({ kind: 'present', path: join(pkg, 'dist', 'electron') });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('says when the electron package itself is not installed', () => {
    expect(findElectronBinary(join(tmpdir(), 'no-such-project'), {})).toMatchObject({
      kind: 'missing',
      detail: expect.stringContaining('npm ci'),
    });
  });
});
