import { extname, join, normalize, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-origin';

/** Content types of what a Vite build emits; anything else is served as opaque bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export type RendererFileRequest =
  | { ok: true; filePath: string; /** A path without an extension may fall back to index.html (client-side routes). */ spaFallback: boolean }
  | { ok: false; status: 400 | 404; reason: string };

/**
 * Maps an app:// URL onto a file inside the renderer's build folder, and nothing outside it:
 * percent-encoded dots and separators are decoded before the containment check, so
 * `app://provisioner/%2e%2e/%2e%2e/etc/passwd` is refused rather than served.
 */
export function resolveRendererFile(rootDir: string, url: string): RendererFileRequest {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, status: 400, reason: 'not a URL' };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) {
    return { ok: false, status: 404, reason: `not on ${APP_SCHEME}://${APP_HOST}` };
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return { ok: false, status: 400, reason: 'bad percent-encoding' };
  }
  if (pathname.includes('\0')) return { ok: false, status: 400, reason: 'NUL in path' };
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = normalize(rootDir);
  const filePath = normalize(join(root, relative));
  if (filePath !== root && !filePath.startsWith(root.endsWith(sep) ? root : root + sep)) {
    return { ok: false, status: 404, reason: 'outside the renderer folder' };
  }
  return { ok: true, filePath, spaFallback: extname(filePath) === '' };
}
