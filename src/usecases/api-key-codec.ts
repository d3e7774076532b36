import { createHash, randomBytes } from 'node:crypto';

/** API keys: 32 random bytes, shown once, stored only as a SHA-256 hash. */
export function generateApiKey(): string {
  return `kumo_${randomBytes(32).toString('base64url')}`;
}

/** A high-entropy key needs no slow hash: SHA-256 makes the stored value useless to a reader. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Characters of a key kept to recognise it in listings, at most. */
export const API_KEY_PREFIX_MAX_CHARS = 8;

/**
 * The first characters of a key, shown in key listings: at most 8, and at most half of the key,
 * so a short pinned key (KUMO_BOOTSTRAP_API_KEY) is never stored or shown whole.
 */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, Math.min(API_KEY_PREFIX_MAX_CHARS, Math.floor(key.length / 2)));
}
