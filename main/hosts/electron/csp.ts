/**
 * The renderer's Content-Security-Policy. The renderer is a Vite build of React: its scripts and
 * styles are files under app://provisioner, it talks to main only over IPC, and device images
 * arrive as data: URLs (the contract's `deviceImage`) or blob: URLs made from picked files.
 * Nothing else is allowed: no inline or eval'd script, no inline <style>, no plugins, no frames,
 * no form posts, no <base> rewriting.
 */
export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'data:', 'blob:']],
  ['font-src', ["'self'"]],
  ['connect-src', ["'self'"]],
  ['worker-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['frame-src', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'none'"]],
];

export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.map(([name, sources]) => `${name} ${sources.join(' ')}`).join(
  '; ',
);

type HeaderMap = Record<string, string | string[]>;

/**
 * Response headers with our policy in force: any CSP the response carried is replaced, not added
 * to, so a looser policy from elsewhere can never be the one that counts (header names are
 * case-insensitive, hence the filter).
 */
export function withContentSecurityPolicy(headers: HeaderMap | undefined): HeaderMap {
  const kept = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy');
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}
