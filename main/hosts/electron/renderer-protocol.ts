import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_SCHEME } from './app-origin';
import { CONTENT_SECURITY_POLICY } from './csp';
import { contentTypeFor, resolveRendererFile } from './renderer-files';

/**
 * app:// is a standard, secure scheme: standard gives it real origins (so 'self', relative URLs
 * and storage work), secure makes it a secure context like https. It gets no CORS bypass and no
 * service workers. Must run before the app is ready.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: {
        standard: true,
        secure: true,
        supportFetchAPI: true,
        corsEnabled: false,
        bypassCSP: false,
        allowServiceWorkers: false,
      },
    },
  ]);
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
} as const;

/** Serves the renderer's build folder on app://provisioner, read-only, with the CSP on every response. */
export function serveRenderer(rootDir: string): void {
  protocol.handle(APP_SCHEME, (request) => respondWithRendererFile(rootDir, request.method, request.url));
}

export async function respondWithRendererFile(rootDir: string, method: string, url: string): Promise<Response> {
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed');
  const target = resolveRendererFile(rootDir, url);
  if (!target.ok) return plain(target.status, target.reason);
  for (const filePath of target.spaFallback ? [target.filePath, join(rootDir, 'index.html')] : [target.filePath]) {
    try {
      const body = await readFile(filePath);
      return new Response(method === 'HEAD' ? null : body, {
        status: 200,
        headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeFor(filePath) },
      });
    } catch {
      // try the fallback, then 404
    }
  }
  return plain(404, 'Not found');
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}
