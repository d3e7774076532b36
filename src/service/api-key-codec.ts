import { createHash, randomBytes } from 'node:crypto';

/** API keys: 32 random bytes, shown once, stored only as a SHA-256 hash. */
export function generateApiKey(): string {
  return `kumo_${randomBytes(32).toString('base64url')}`;
}

/** A high-entropy key needs no slow hash: SHA-256 makes the stored value useless to a reader. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 10);
}
