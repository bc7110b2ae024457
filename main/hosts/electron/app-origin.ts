/**
 * Where the renderer lives. It is served from a privileged custom scheme rather than file://:
 * a file:// page shares its origin with every file on disk, while app://provisioner is an origin
 * of its own that CSP 'self', the IPC sender check and the navigation guard can all name exactly.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'provisioner';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True only for a URL on our own origin (scheme and host both exact; no user info, no port). */
export function isAppUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === ''
  );
}
