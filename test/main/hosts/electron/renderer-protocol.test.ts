import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./fake-electron'));

const { respondWithRendererFile } = await import('../../../../main/hosts/electron/renderer-protocol');
const { resolveRendererFile } = await import('../../../../main/hosts/electron/renderer-files');
const { CONTENT_SECURITY_POLICY, CSP_DIRECTIVES, withContentSecurityPolicy } =
  await import('../../../../main/hosts/electron/csp');

let root: string;
let outside: string;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'provisioner-renderer-'));
  root = join(base, 'renderer');
  outside = join(base, 'secret.txt');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Provisioner</title>');
  await writeFile(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(outside, 'not for the renderer');
});
afterAll(async () => {
  await rm(join(root, '..'), { recursive: true, force: true });
});

describe('Content-Security-Policy', () => {
  const directive = (name: string) => CSP_DIRECTIVES.find(([n]) => n === name)?.[1] ?? [];

  it('allows scripts and styles from the app itself only', () => {
    expect(directive('default-src')).toEqual(["'self'"]);
    expect(directive('script-src')).toEqual(["'self'"]);
    expect(directive('style-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*/);
  });

  it('shuts out plugins, frames, form posts and <base>', () => {
    expect(directive('object-src')).toEqual(["'none'"]);
    expect(directive('frame-src')).toEqual(["'none'"]);
    expect(directive('frame-ancestors')).toEqual(["'none'"]);
    expect(directive('form-action')).toEqual(["'none'"]);
    expect(directive('base-uri')).toEqual(["'none'"]);
  });

  it('replaces a looser policy instead of adding to it', () => {
    const headers = withContentSecurityPolicy({
      'Content-Security-Policy': ["script-src 'unsafe-eval'"],
      'content-security-policy': ['default-src *'],
      Server: ['x'],
    });
    expect(headers).toEqual({ Server: ['x'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});

describe('app:// serves the renderer build and nothing else', () => {
  it('serves index.html with the CSP and a content type', async () => {
    const response = await respondWithRendererFile(root, 'GET', 'app://provisioner/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Provisioner</title>');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves built assets', async () => {
    const response = await respondWithRendererFile(root, 'GET', 'app://provisioner/assets/index-abc.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('falls back to index.html for a client-side route, but not for a missing asset', async () => {
    expect((await respondWithRendererFile(root, 'GET', 'app://provisioner/bench')).status).toBe(200);
    expect((await respondWithRendererFile(root, 'GET', 'app://provisioner/assets/missing.js')).status).toBe(404);
  });

  it('refuses to leave the renderer folder, however the path is spelled', async () => {
    for (const url of [
      'app://provisioner/../secret.txt',
      'app://provisioner/%2e%2e/secret.txt',
      'app://provisioner/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://provisioner/..%5csecret.txt',
      `app://provisioner/${encodeURIComponent(outside)}`,
    ]) {
      const response = await respondWithRendererFile(root, 'GET', url);
      expect(await response.text(), url).not.toContain('not for the renderer');
    }
    // The URL parser already folds dot segments (also percent-encoded ones) at the root; what is
    // left must still be a path inside the folder.
    for (const url of [
      'app://provisioner/%2e%2e/%2e%2e/etc/passwd',
      'app://provisioner/a/..%2f..%2f..%2fetc/passwd',
      'app://provisioner/..%5c..%5cetc%5cpasswd',
    ]) {
      const target = resolveRendererFile(root, url);
      if (target.ok) expect(target.filePath.startsWith(join(root, '/')), `${url} -> ${target.filePath}`).toBe(true);
    }
    expect(resolveRendererFile(root, 'app://provisioner/a/..%2f..%2f..%2fetc/passwd')).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('answers only GET and HEAD, and only on its own host', async () => {
    expect((await respondWithRendererFile(root, 'POST', 'app://provisioner/index.html')).status).toBe(405);
    expect((await respondWithRendererFile(root, 'GET', 'app://other-host/index.html')).status).toBe(404);
    const head = await respondWithRendererFile(root, 'HEAD', 'app://provisioner/index.html');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
