import { createHash, randomBytes } from 'node:crypto';

/**
 * An API key is `pvk_` + 43 base64url characters (32 random bytes). The prefix lets secret
 * scanners and people recognise it.
 *
 * Stored as SHA-256, not with a slow password hash: the key carries 256 bits of entropy, so a
 * leaked hash cannot be brute-forced, and a fast hash keeps the per-request lookup one indexed query.
 */
export const API_KEY_PREFIX = 'pvk_';
const VISIBLE_SUFFIX = 4;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeySuffix(key: string): string {
  return key.slice(-VISIBLE_SUFFIX);
}

/** The masked form listed with KeyFormat=Masked: only the last characters ('••••••••3f9a'). */
export function maskApiKey(suffix: string): string {
  return `${'\u2022'.repeat(8)}${suffix}`;
}
