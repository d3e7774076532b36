import type { FastifyRequest } from 'fastify';
import { type Management, SignInLimitedError, SignInRefusedError } from '../../../usecases/index.js';
import { ApiError } from '../../api-error.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** Where admin tokens are checked and their failures counted: one count per process. */
export type AdminTokenChecks = Pick<Management['operatorSessions'], 'checkAdminToken'>;

/**
 * The management API's check: `Authorization: Bearer <KUMO_ADMIN_TOKEN>`, else 401
 * invalid_admin_token. Both sides are hashed first so the comparison takes the same time whatever
 * the length or content of the guess. A wrong bearer token counts against the client address's
 * limit of wrong admin tokens, shared with the console's operator sign-in: past it, 429 with
 * Retry-After, even for the right token, until the window frees an attempt (docs/operations.md,
 * Console security). A request without a bearer token is not a guess and is not counted. Runs on
 * request, before the body is read or validated, so nothing about the request is revealed to a
 * caller without the token. An empty configured token refuses every request.
 */
export function createAdminAuth(adminToken: string, checks: AdminTokenChecks) {
  const refused = () =>
    new ApiError('invalid_admin_token', undefined, undefined, {
      'www-authenticate': 'Bearer realm="kumo-admin"',
    });
  return async function authenticateAdmin(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (given === undefined) throw refused();
    try {
      checks.checkAdminToken(given, adminToken, request.ip);
    } catch (error) {
      if (error instanceof SignInLimitedError) {
        throw new ApiError('rate_limited', error.message, undefined, {
          'retry-after': String(error.retryAfterSeconds),
        });
      }
      if (error instanceof SignInRefusedError) throw refused();
      throw error;
    }
  };
}
