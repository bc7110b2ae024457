import { extname, join, normalize, sep } from 'node:path';

/**
 * The built renderer's files as both hosts serve them: the Electron shell on app:// and web mode
 * over HTTP. One place decides which file a URL path names and that it stays inside the build.
 */

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

export type FileInsideRoot =
  | {
      ok: true;
      filePath: string;
      /** The path as asked, relative to the root ('' for the root itself). */ relative: string;
    }
  | { ok: false; status: 400 | 404; reason: string };

/**
 * Maps a URL path onto a file inside `rootDir`, and nothing outside it: percent-encoded dots and
 * separators are decoded before the containment check, so `/%2e%2e/%2e%2e/etc/passwd` is refused
 * rather than served. The root itself ('/' or '') names its index.html.
 */
export function resolveInsideRoot(rootDir: string, urlPathname: string): FileInsideRoot {
  let pathname: string;
  try {
    pathname = decodeURIComponent(urlPathname);
  } catch {
    return { ok: false, status: 400, reason: 'bad percent-encoding' };
  }
  if (pathname.includes('\0')) return { ok: false, status: 400, reason: 'NUL in path' };
  // Dot segments are resolved against the root, not clamped at '/' first, so a path that climbs
  // out is refused rather than quietly mapped to another file inside.
  const relative = pathname.replace(/^[/\\]+/, '');
  const root = normalize(rootDir);
  const joined = normalize(join(root, relative));
  const filePath = joined === root || joined === root + sep ? join(root, 'index.html') : joined;
  if (filePath !== root && !filePath.startsWith(root.endsWith(sep) ? root : root + sep)) {
    return { ok: false, status: 404, reason: 'outside the renderer folder' };
  }
  return { ok: true, filePath, relative };
}
