import type { FastifyRequest } from 'fastify';

/** The console's session cookie (docs/api.md, Accounts and sessions). */
export const SESSION_COOKIE = 'kumo_session';

/** The value of a cookie of the request, or undefined. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Whether the cookie gets `Secure`: when the request came over TLS to this process, or when
 * KUMO_PUBLIC_URL is https (the service is reached through a TLS proxy). X-Forwarded-Proto is
 * never trusted: any client can send it (docs/operations.md, Console security).
 */
export function secureCookies(request: FastifyRequest, publicUrl: string): boolean {
  // The parsed scheme: `HTTPS://` is https too.
  return request.protocol === 'https' || new URL(publicUrl).protocol === 'https:';
}

/** The operator's console session cookie (docs/api.md, Operator sessions). */
export const OPERATOR_COOKIE = 'kumo_operator';

/** `Set-Cookie` of a new session: HttpOnly, SameSite=Lax, Path=/, for its absolute lifetime. */
export function sessionCookie(
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
  name = SESSION_COOKIE,
): string {
  const flags = ['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (secure) flags.push('Secure');
  return `${name}=${value}; ${flags.join('; ')}`;
}

/** `Set-Cookie` that removes the session cookie (or the operator's). */
export function clearedSessionCookie(secure: boolean, name = SESSION_COOKIE): string {
  return sessionCookie('', 0, secure, name);
}
