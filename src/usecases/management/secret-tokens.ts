import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * The random secrets of the console (invitation tokens, session ids): 32 random bytes in
 * base64url, stored only as their SHA-256, so a copy of the database opens no session and accepts
 * no invitation (docs/design/management.md, Accounts and sessions).
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * The CSRF token of a session: derived from the session id, so it needs no storage, and a page
 * of another site, which cannot read the HttpOnly cookie, cannot compute it.
 */
export function csrfTokenOf(sessionSecret: string): string {
  return createHash('sha256').update(`kumo-csrf\u0000${sessionSecret}`, 'utf8').digest('base64url');
}

/** Compares two tokens in a time that does not depend on where they differ. */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

let lastFingerprint: { token: string; fingerprint: Buffer } | undefined;

/**
 * What an operator session keeps of the admin token that made it (docs/security.md, Operator
 * sessions): a slow, salted hash, so a copy of the database tells nothing usable about the token
 * even when it is short, and a session of a rotated token is told apart from the current one's.
 * The token of a process does not change, so its fingerprint is computed once.
 */
export function adminTokenFingerprint(adminToken: string): Buffer {
  if (lastFingerprint?.token !== adminToken) {
    lastFingerprint = {
      token: adminToken,
      fingerprint: scryptSync(adminToken, 'kumo-operator-session-token', 32),
    };
  }
  return lastFingerprint.fingerprint;
}
