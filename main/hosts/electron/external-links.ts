/**
 * Links the app may hand to the system browser. The renderer never navigates away and never opens
 * windows; a link to one of these https origins is opened externally instead, anything else is
 * dropped. Empty until the UI links somewhere (say, the service's documentation): add the origin
 * here, deliberately, rather than opening whatever a page asks for.
 */
export const EXTERNAL_LINK_ORIGINS: readonly string[] = [];

export function isAllowedExternalUrl(url: string, allowedOrigins: readonly string[] = EXTERNAL_LINK_ORIGINS): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return false;
  return allowedOrigins.includes(parsed.origin);
}
