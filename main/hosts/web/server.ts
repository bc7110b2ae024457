import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  EVENT_STREAMS,
  WEB_SOCKET_PATH,
  WEB_TOKEN_PARAM,
  invokeForWire,
  webClientMessageSchema,
  type CoreHost,
  type WebServerMessage,
} from '../../../contract/index';
import { KnownSecrets } from '../known-secrets';
import { readStaticFile } from './static-files';

/** The page's policy, also sent as a header (frame-ancestors only works there); the WebSocket is named explicitly. */
export function webCsp(port: number): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'`;
}

/** Device images travel as data URLs inside JSON: allow them, refuse anything larger. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface WebServerOptions {
  core: CoreHost;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** Loopback only; 0 picks a free port. */
  port?: number;
  /** The per-run token; random when absent. */
  token?: string;
  /**
   * Secrets cut out of everything sent to the page (the API key: the one typed at sign-in is added
   * as it passes); the host adds the ones it holds itself (a remembered key, the local workspace's).
   */
  secrets?: KnownSecrets;
  log?: (message: string) => void;
}

export interface WebServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  token: string;
  /** The address to open: the token rides in the fragment, which the browser never sends to a server. */
  openUrl: string;
  /** Connected pages right now. */
  connections(): number;
  close(): Promise<void>;
}

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * Web mode's server: the built renderer and the contract over a WebSocket, on 127.0.0.1 only.
 * - Host must name this loopback origin (a DNS-rebinding page cannot talk to it).
 * - The WebSocket needs this run's token and an Origin of this server (other sites' pages cannot).
 * - Every call goes through invokeForWire: channel checked, input parsed with the contract's schema.
 * - What goes back, like every event, is scrubbed of the API key, as Electron's IPC does.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const log = options.log ?? (() => undefined);
  const secrets = options.secrets ?? new KnownSecrets();
  let port = options.port ?? 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  const http = createServer((req, res) => void serveFile(req, res));
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  async function serveFile(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().includes(req.headers.host ?? '') || !isLoopback(req.socket.remoteAddress)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await readStaticFile(options.rendererDir, req.url ?? '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': file.body.length,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      'content-security-policy': webCsp(port),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== WEB_SOCKET_PATH) return refuse(404, 'Not Found');
    if (!isLoopback(req.socket.remoteAddress) || !allowedHosts().includes(req.headers.host ?? ''))
      return refuse(421, 'Misdirected Request');
    if (!allowedOrigins().includes(req.headers.origin ?? '')) {
      log(`Refused a WebSocket from origin ${JSON.stringify(req.headers.origin ?? null)}.`);
      return refuse(403, 'Forbidden');
    }
    const tokenOk = sameToken(url.searchParams.get(WEB_TOKEN_PARAM), token);
    wss.handleUpgrade(req, socket, head, (ws) => {
      // An old page (a token of an earlier run) learns that retrying cannot help: 4401.
      if (!tokenOk) {
        ws.close(4401, 'token refused');
        return;
      }
      attach(ws);
    });
  });

  function attach(ws: WebSocket): void {
    sockets.add(ws);
    const send = (message: WebServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const offs = EVENT_STREAMS.map((stream) =>
      options.core.subscribe(stream, (payload) => send({ type: 'event', stream, payload: secrets.scrub(payload) })),
    );
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let parsed;
      try {
        parsed = webClientMessageSchema.safeParse(JSON.parse(String(data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const { id, channel, input } = parsed.data;
      secrets.noteInvocation(channel, input);
      void invokeForWire(options.core, channel, input).then((outcome) =>
        send({ type: 'result', id, outcome: secrets.scrub(outcome) }),
      );
    });
    ws.on('close', () => {
      sockets.delete(ws);
      offs.forEach((off) => off());
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    token,
    openUrl: `${origin}/#${WEB_TOKEN_PARAM}=${token}`,
    connections: () => sockets.size,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
