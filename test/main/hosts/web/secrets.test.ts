import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  CoreError,
  type Channel,
  type CoreHost,
  type EventStream,
  type EventStreams,
  type WebServerMessage,
} from '../../../../contract/index';
import type { Core } from '../../../../main/core';
import { KnownSecrets, REDACTED } from '../../../../main/hosts/known-secrets';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { startCountingListener } from '../../../fixtures/another-computer';
import { openedWhile, PER_FILE } from '../../../fixtures/opened-while';
import { demoServicePerFile } from '../../../fixtures/test-core';
import { createWebCore } from './helpers/web-core';

/**
 * What the browser of web mode receives over its WebSocket never holds the API key: the same
 * scrubbing as Electron's IPC (main/hosts/known-secrets.ts). Read as a page would, frame by frame.
 * And the app's sign-in refuses plain http:// to another computer before the key leaves.
 */

const API_KEY = 'pvk_web7f3c9a1e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c';

/** A page on the WebSocket: every frame it receives, and calls by id. */
class Page {
  readonly frames: string[] = [];
  private nextId = 1;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(String(data)));
  }

  static async open(server: WebServer): Promise<Page> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/contract?token=${encodeURIComponent(server.token)}`, {
      origin: server.origin,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Page(ws);
  }

  async call(channel: string, input: unknown): Promise<Extract<WebServerMessage, { type: 'result' }>['outcome']> {
    const id = this.nextId++;
    const answer = new Promise<Extract<WebServerMessage, { type: 'result' }>>((resolve) => {
      const listener = (data: unknown) => {
        const message = JSON.parse(String(data)) as WebServerMessage;
        if (message.type === 'result' && message.id === id) {
          this.ws.off('message', listener);
          resolve(message);
        }
      };
      this.ws.on('message', listener);
    });
    this.ws.send(JSON.stringify({ type: 'invoke', id, channel, input }));
    return (await answer).outcome;
  }

  /** Resolves with the next event the page hears. */
  nextEvent(): Promise<unknown> {
    return new Promise((resolve) => {
      const listener = (data: unknown) => {
        const message = JSON.parse(String(data)) as WebServerMessage;
        if (message.type !== 'event') return;
        this.ws.off('message', listener);
        resolve(message.payload);
      };
      this.ws.on('message', listener);
    });
  }

  close(): void {
    this.ws.close();
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-web-secrets-'));
  await mkdir(join(dir, 'renderer'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Provisioner</title>');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a core that slips', () => {
  const listeners = new Map<EventStream, Set<(payload: never) => void>>();
  const core: CoreHost = {
    async invoke(channel: Channel): Promise<never> {
      if (channel === 'session.signIn')
        return { status: 'signedIn', keyName: 'bench', debug: `Authorization: Bearer ${API_KEY}` } as never;
      if (channel === 'support.report') throw new CoreError('INTERNAL', `request failed with key ${API_KEY}`);
      return {
        fileName: 'report.json',
        content: JSON.stringify({ headers: { authorization: `Bearer ${API_KEY}` } }),
      } as never;
    },
    subscribe<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void) {
      let set = listeners.get(stream);
      if (!set) listeners.set(stream, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
  let server: WebServer;
  beforeAll(async () => {
    server = await startWebServer({ core, rendererDir: join(dir, 'renderer') });
  });
  afterAll(() => server?.close());

  it('sends the page no key in results, errors or events', async () => {
    const page = await Page.open(server);
    await page.call('session.signIn', {
      serviceUrl: 'https://service.example',
      orgId: 'org-1',
      apiKey: API_KEY,
      remember: true,
    });
    await page.call('support.report', {});
    await page.call('logs.recent', {});
    const event = page.nextEvent();
    for (const listener of listeners.get('logs.line') ?? []) {
      (listener as (line: EventStreams['logs.line']) => void)({
        seq: 1,
        at: '2026-01-01T00:00:00.000Z',
        level: 'debug',
        source: 'cloud',
        message: `POST /v1 key=${API_KEY}`,
      });
    }
    expect(JSON.stringify(await event)).toContain(REDACTED);
    page.close();
    expect(page.frames.length).toBeGreaterThanOrEqual(4);
    const everything = page.frames.join('\n');
    expect(everything).not.toContain(API_KEY);
    expect(everything).toContain(REDACTED);
  });

  it('withholds a key the host holds before the page ever typed it', async () => {
    const secrets = new KnownSecrets();
    secrets.add(API_KEY);
    const withheld = await startWebServer({ core, rendererDir: join(dir, 'renderer'), secrets });
    try {
      const page = await Page.open(withheld);
      const outcome = await page.call('logs.recent', {});
      page.close();
      expect(outcome).toMatchObject({ ok: true });
      expect(JSON.stringify(outcome)).not.toContain(API_KEY);
    } finally {
      await withheld.close();
    }
  });
});

describe('the real core in web mode', () => {
  const demo = demoServicePerFile();
  const listener = openedWhile(PER_FILE, 'The counting listener', startCountingListener, (started) => started.close());
  let core: Core;
  let server: WebServer;

  beforeAll(async () => {
    core = await createWebCore(dir, { pollIntervalMs: 60_000 });
    server = await startWebServer({ core, rendererDir: join(dir, 'renderer') });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await core?.close();
  });

  it('refuses to sign in over plain http to another computer, saying why, before the key leaves', async () => {
    const page = await Page.open(server);
    const outcome = await page.call('session.signIn', {
      serviceUrl: listener().url,
      orgId: 'demo',
      apiKey: demo.adminKey,
      remember: true,
    });
    page.close();
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', violations: [{ field: 'serviceUrl', code: 'INSECURE_SERVICE_URL' }] },
    });
    expect(outcome.ok ? '' : outcome.error.message).toMatch(
      /over http:\/\/ the API key would cross the network unencrypted.*https:\/\//,
    );
    expect(listener().requests).toBe(0);
    expect(page.frames.join('\n')).not.toContain(demo.adminKey);
  });

  it('signs in on this computer, and the page hears no key in answers, events, the log or the support report', async () => {
    const page = await Page.open(server);
    const signedIn = await page.call('session.signIn', {
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: demo.adminKey,
      remember: true,
    });
    expect(signedIn).toMatchObject({ ok: true, value: { status: 'signedIn', role: 'Admin' } });
    await page.call('session.get', {});
    await page.call('logs.recent', { limit: 2000 });
    const report = await page.call('support.report', {});
    expect(report).toMatchObject({ ok: true });
    const wrong = await page.call('session.signIn', {
      serviceUrl: demo.service.url,
      orgId: 'another-org',
      apiKey: demo.adminKey,
      remember: false,
    });
    expect(wrong).toMatchObject({ ok: false });
    page.close();
    expect(page.frames.join('\n')).not.toContain(demo.adminKey);
  });
});
