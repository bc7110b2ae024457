import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CoreError, type CoreHost, type EventStreams, type WebServerMessage } from '../../../../contract/index';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';

/**
 * Web mode's server without a browser: what it serves, whom it refuses, and the contract over its
 * WebSocket (input parsed with the contract's schemas before the core sees it, events pushed).
 */

const seen: { channel: string; input: unknown }[] = [];
const listeners = new Set<(line: EventStreams['logs.line']) => void>();
const core: CoreHost = {
  async invoke(channel, input) {
    seen.push({ channel, input });
    if (channel === 'workbench.cancel') throw new CoreError('NOT_ALLOWED', 'Operators may not', [], 403);
    return [] as never;
  },
  subscribe(stream, listener) {
    if (stream !== 'logs.line') return () => undefined;
    const l = listener as (line: EventStreams['logs.line']) => void;
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

let dir: string;
let server: WebServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-web-'));
  await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Provisioner</title>');
  await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside');
  server = await startWebServer({ core, rendererDir: join(dir, 'renderer') });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

function get(
  path: string,
  host = `127.0.0.1:${server.port}`,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function open(token: string, origin = server.origin): WebSocket {
  return new WebSocket(`ws://127.0.0.1:${server.port}/contract?token=${encodeURIComponent(token)}`, { origin });
}

function nextMessage(ws: WebSocket): Promise<WebServerMessage> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)) as WebServerMessage)));
}

describe('web mode server', () => {
  it('prints an address on loopback with the token in the fragment', () => {
    expect(server.openUrl).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the renderer with a strict policy, and nothing outside it', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await get('/assets/app.js')).headers['content-type']).toContain('text/javascript');
    expect((await get('/../secret.txt')).body).not.toContain('outside');
    expect((await get('/%2e%2e/secret.txt')).body).not.toContain('outside');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('refuses a Host that is not this loopback origin (DNS rebinding)', async () => {
    expect((await get('/', 'evil.example:80')).status).toBe(421);
  });

  it('refuses WebSockets from other origins and without this run’s token', async () => {
    const foreign = open(server.token, 'http://evil.example');
    await expect(
      new Promise((resolve) => foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode))),
    ).resolves.toBe(403);
    const stale = open('an-old-token');
    await expect(new Promise((resolve) => stale.on('close', (code) => resolve(code)))).resolves.toBe(4401);
  });

  it('carries calls, parsed by the contract, and the core’s errors as data', async () => {
    const ws = open(server.token);
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'configurations.list', input: {} }));
    expect(await nextMessage(ws)).toEqual({ type: 'result', id: 1, outcome: { ok: true, value: [] } });
    expect(seen.at(-1)).toEqual({ channel: 'configurations.list', input: { page: 1, limit: 20 } });

    ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'configurations.list', input: { limit: 500 } }));
    expect(await nextMessage(ws)).toMatchObject({ id: 2, outcome: { ok: false, error: { code: 'INVALID_INPUT' } } });
    ws.send(JSON.stringify({ type: 'invoke', id: 3, channel: 'shell.exec', input: {} }));
    expect(await nextMessage(ws)).toMatchObject({ id: 3, outcome: { ok: false, error: { code: 'UNKNOWN_CHANNEL' } } });
    ws.send(JSON.stringify({ type: 'invoke', id: 4, channel: 'workbench.cancel', input: { jobId: 'j' } }));
    expect(await nextMessage(ws)).toEqual({
      type: 'result',
      id: 4,
      outcome: {
        ok: false,
        error: { code: 'NOT_ALLOWED', message: 'Operators may not', violations: [], httpStatus: 403 },
      },
    });
    expect(seen.map((s) => s.channel)).toEqual(['configurations.list', 'workbench.cancel']);

    const event = nextMessage(ws);
    for (const listener of listeners)
      listener({ seq: 1, at: '2026-01-01T00:00:00.000Z', level: 'info', source: 'test', message: 'hello' });
    expect(await event).toEqual({
      type: 'event',
      stream: 'logs.line',
      payload: { seq: 1, at: '2026-01-01T00:00:00.000Z', level: 'info', source: 'test', message: 'hello' },
    });
    ws.close();
  });
});
