import { extname } from 'node:path';
import { contentTypeFor, resolveInsideRoot } from '../renderer-files';
import { APP_HOST, APP_SCHEME } from './app-origin';

export { contentTypeFor };

export type RendererFileRequest =
  | {
      ok: true;
      filePath: string;
      /** A path without an extension may fall back to index.html (client-side routes). */ spaFallback: boolean;
    }
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
  const inside = resolveInsideRoot(rootDir, parsed.pathname);
  if (!inside.ok) return inside;
  const { filePath } = inside;
  return { ok: true, filePath, spaFallback: extname(filePath) === '' };
}
