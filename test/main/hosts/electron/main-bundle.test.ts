/**
 * The built main bundle, run: dist/main/electron.cjs in Node with the fake `electron` answering
 * its require (see bundle-harness.ts). It proves the bundle loads its external native and WASM
 * modules, starts the real core and the embedded service, opens the window as configured, serves
 * the renderer with the CSP, and answers the contract over IPC with validation, while refusing a
 * subframe and never letting a key reach the renderer.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp } from '../../../fixtures/built-app';

const root = join(import.meta.dirname, '..', '..', '..', '..');
let userData: string;
let report: Record<string, unknown>;
let stderr = '';

beforeAll(async () => {
  await builtApp();
  userData = await mkdtemp(join(tmpdir(), 'provisioner-bundle-'));
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(import.meta.dirname, 'bundle-harness.ts'), userData],
    {
      cwd: root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bundle harness exited with ${code}:\n${stderr.slice(-4000)}`);
  report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}, 120_000);

afterAll(async () => {
  if (userData) await rm(userData, { recursive: true, force: true });
});

describe('the built main bundle', () => {
  it('opens the window on app:// with the secure preferences and the built preload', () => {
    expect(report.url).toBe('app://provisioner/index.html');
    expect(report.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: join(root, 'dist', 'preload', 'preload.cjs'),
    });
  });

  it('serves the renderer with the CSP', () => {
    expect(report.indexStatus).toBe(200);
    expect(report.indexCsp).toMatch(/^default-src 'self'; script-src 'self'/);
  });

  it('hosts the real core: app info, session, the local workspace and its registry', () => {
    expect(report.appInfo).toMatchObject({ ok: true, value: { host: 'electron' } });
    expect(report.signedOut).toMatchObject({ ok: true, value: { status: 'signedOut' } });
    expect(report.workspace).toMatchObject({ ok: true, value: { status: 'signedIn', kind: 'local', role: 'Admin' } });
    expect(report.devices).toMatchObject({ ok: true, value: { page: 1, items: expect.any(Array) } });
    expect(report.support).toMatchObject({ ok: true });
  });

  it('validates input on arrival and refuses a subframe', () => {
    expect(report.invalid).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^Invalid input for devices\.list: limit/) },
    });
    expect(report.subframe).toBe('Refused: IPC is accepted only from the Provisioner window');
    expect(stderr).toContain('refused a call to session.get from an untrusted sender');
  });

  it('forwards the core’s events to the window on the one event channel', () => {
    expect(report.sentChannels).toEqual(['provisioner:event']);
    expect(report.sentStreams).toEqual(expect.arrayContaining(['session.changed']));
  });

  it('never lets the API key the core used reach the renderer', () => {
    expect(report.keysUsed).toBeGreaterThan(0);
    expect(report.keyReachedRenderer).toBe(false);
  });
});
