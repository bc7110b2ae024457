/**
 * electron-builder run for real, as far as this machine allows: it cannot download Electron, so it
 * packs a Linux `dir` build around a stand-in Electron (a script carrying a genuine fuse wire)
 * and native modules as installed. What it checks is ours: what goes into app.asar, what is
 * unpacked beside it, the udev rule in resources/, and the fuses flipped in the binary.
 */
import { extractFile, listPackage } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp } from '../../../fixtures/built-app';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's defaults, in FuseV1Options order: RunAsNode, EnableCookieEncryption,
// EnableNodeOptionsEnvironmentVariable, EnableNodeCliInspectArguments,
// EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar,
// LoadBrowserProcessSpecificV8Snapshot, GrantFileProtocolExtraPrivileges.
const DEFAULT_FUSES = '10110001';

let work: string;
let resources: string;
let binary: string;

async function standInElectron(dir: string): Promise<void> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  const script = Buffer.from('#!/bin/sh\necho "stand-in Electron"\n#');
  const wire = Buffer.concat([
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, DEFAULT_FUSES.length]),
    Buffer.from(DEFAULT_FUSES),
    Buffer.from('\n'),
  ]);
  await writeFile(join(dir, 'electron'), Buffer.concat([script, wire]));
  await chmod(join(dir, 'electron'), 0o755);
  for (const file of ['LICENSE', 'LICENSES.chromium.html', 'chrome-sandbox']) await writeFile(join(dir, file), '');
  await writeFile(join(dir, 'version'), '45.4.1');
}

describe.runIf(process.platform === 'linux')('a packed Linux build', () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'provisioner-pack-'));
    await builtApp();
    const electronDist = join(work, 'electron-dist');
    await standInElectron(electronDist);
    // electron-builder reads electron-builder.yml itself; these only add to it.
    await build({
      projectDir: root,
      // npmRebuild off: rebuilding native modules for Electron needs its headers from the network.
      // beforeBuild off: the suite's one build is packed (electron-builder.yml's hook would build
      // dist/ again, emptying dist/renderer while other test files serve it).
      config: {
        electronDist,
        electronVersion: '45.4.1',
        npmRebuild: false,
        beforeBuild: null,
        directories: { output: join(work, 'out') },
      },
      targets: Platform.LINUX.createTarget('dir'),
      publish: 'never',
    });
    const unpacked = join(work, 'out', 'linux-unpacked');
    resources = join(unpacked, 'resources');
    binary = join(unpacked, 'provisioner');
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('puts the built app in app.asar without source maps or build tools', () => {
    const files = listPackage(join(resources, 'app.asar'), { isPack: false });
    for (const file of [
      '/package.json',
      '/dist/main/electron.cjs',
      '/dist/preload/preload.cjs',
      '/dist/renderer/index.html',
    ])
      expect(files, file).toContain(file);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(
      files.filter((f) => /\/node_modules\/(tsx|esbuild|react|react-dom|zustand|@xyflow|@dagrejs|d3-[a-z]+)\//.test(f)),
    ).toEqual([]);
    const pkg = JSON.parse(extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as {
      main: string;
      homepage: string;
    };
    expect(pkg.main).toBe('dist/main/electron.cjs');
    expect(pkg.homepage).toBeTruthy();
  });

  it('unpacks native add-ons and PGlite’s WASM beside the asar', () => {
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules');
    expect(existsSync(join(unpacked, '@serialport', 'bindings-cpp', 'prebuilds', 'linux-x64'))).toBe(true);
    expect(existsSync(join(unpacked, '@abandonware', 'bluetooth-hci-socket'))).toBe(true);
    expect(existsSync(join(unpacked, 'usb'))).toBe(true);
    expect(existsSync(join(unpacked, 'cbor-extract'))).toBe(true);
    expect(existsSync(join(unpacked, '@electric-sql', 'pglite', 'dist', 'pglite.wasm'))).toBe(true);
    expect(existsSync(join(unpacked, '@electric-sql', 'pglite', 'dist', 'pglite.data'))).toBe(true);
  });

  it('ships the udev rule where the deb’s after-install script looks for it', async () => {
    const rule = await readFile(join(resources, 'linux', '60-provisioner.rules'), 'utf8');
    expect(rule).toContain('ATTRS{idProduct}=="d101"');
  });

  it('flips the Electron fuses as configured', async () => {
    const bytes = await readFile(binary);
    const at = bytes.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
    const fuses = bytes.subarray(at + 2, at + 2 + DEFAULT_FUSES.length).toString('ascii');
    // RunAsNode off, cookie encryption on, NODE_OPTIONS off, --inspect off, asar integrity on,
    // app only from asar on, V8 snapshot as is, no extra file:// privileges.
    expect(fuses).toBe('01001100');
  });
});
