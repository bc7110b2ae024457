import { readFile, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { contentTypeFor, resolveInsideRoot } from '../renderer-files';

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
  const inside = resolveInsideRoot(root, urlPath.split('?')[0] ?? '/');
  if (!inside.ok) return null;
  const { relative } = inside;
  let path = inside.filePath;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
  } catch {
    // Not a file: the page's own routes and unknown paths get index.html.
    if (extname(relative) !== '') return null;
    path = join(root, 'index.html');
  }
  try {
    const body = await readFile(path);
    return { body, contentType: contentTypeFor(path), immutable: path.includes(`${sep}assets${sep}`) };
  } catch {
    return null;
  }
}
