import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../api-error.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The management API's check: `Authorization: Bearer <KUMO_ADMIN_TOKEN>`, else 401
 * invalid_admin_token. Both sides are hashed first so the comparison takes the same time whatever
 * the length or content of the guess. Runs on request, before the body is read or validated, so
 * nothing about the request is revealed to a caller without the token. An empty configured token
 * refuses every request.
 */
export function createAdminAuth(adminToken: string) {
  const expected = sha256(adminToken);
  const enabled = adminToken !== '';
  return async function authenticateAdmin(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    const matches = given !== undefined && timingSafeEqual(sha256(given), expected);
    if (!matches || !enabled) {
      throw new ApiError('invalid_admin_token', undefined, undefined, {
        'www-authenticate': 'Bearer realm="kumo-admin"',
      });
    }
  };
}
