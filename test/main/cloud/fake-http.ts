import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny scripted HTTP server for transport tests only (retries, timeouts, envelopes, broken
 * connections). Operation behaviour is tested against the real service in the contract tests.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export class FakeHttp {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers: Handler[] = [];
  private fallback: Handler = (_req, res) =>
    json(res, 500, { data: null, success: false, errors: [{ code: 'UNSCRIPTED', message: 'no handler' }] });
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        (this.handlers.shift() ?? this.fallback)(req, res, body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Each request takes the next handler; when they run out, `always` (if set) answers. */
  next(...handlers: Handler[]): this {
    this.handlers.push(...handlers);
    return this;
  }

  always(handler: Handler): this {
    this.fallback = handler;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export const ok =
  (data: unknown): Handler =>
  (_req, res) =>
    json(res, 200, { data, success: true, errors: null });
export const fail =
  (status: number, errors: unknown[]): Handler =>
  (_req, res) =>
    json(res, status, { data: null, success: false, errors });
/** Answer headers, send part of the body, then drop the connection. */
export const breakMidBody = (): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
  res.write(Buffer.alloc(100, 1));
  setImmediate(() => res.socket?.destroy());
};
/** Never answer (the timeout test's server). */
export const hang = (): Handler => () => undefined;
