import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Hashed assets never change; index.html must be fetched every time. */
  immutable: boolean;
}

/**
 * A file of the built renderer for a URL path, or null. Paths are resolved inside `root` only:
 * '..' and encoded separators cannot leave it. Unknown paths fall back to index.html (one page).
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  let path = join(root, relative);
  if (path !== root && !path.startsWith(rootWithSep)) return null;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
  } catch {
    // Not a file: the page's own routes and unknown paths get index.html.
    if (extname(relative) !== '') return null;
    path = join(root, 'index.html');
  }
  try {
    const body = await readFile(path);
    const ext = extname(path);
    return { body, contentType: TYPES[ext] ?? 'application/octet-stream', immutable: path.includes(`${sep}assets${sep}`) };
  } catch {
    return null;
  }
}
