import type { FastifyRequest } from 'fastify';
import {
  type Actor,
  type Management,
  type OperatorSessionContext,
  sameToken,
  type SessionContext,
} from '../../../usecases/index.js';
import { ApiError } from '../../api-error.js';
import { createAdminAuth } from './admin-auth.js';
import {
  clearedSessionCookie,
  cookieOf,
  OPERATOR_COOKIE,
  SESSION_COOKIE,
  secureCookies,
} from './session-cookie.js';

/** The header a change made with a session carries its CSRF token in (docs/api.md, Accounts and
 * sessions).
 */
export const CSRF_HEADER = 'x-kumo-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session each request authenticated with; none for the admin token. */
const sessions = new WeakMap<FastifyRequest, SessionContext>();
/** The operator's console session of a request, when it came with one. */
const operatorSessions = new WeakMap<FastifyRequest, OperatorSessionContext>();

/** How a long response made with a session checks that the session still lives. */
const sessionChecks = new WeakMap<FastifyRequest, () => Promise<boolean>>();

const OPERATOR: Actor = { kind: 'operator', via: 'admin-api' };

/** Who makes the request: the operator (admin token) or the signed-in account. */
export function actorOf(request: FastifyRequest): Actor {
  return sessions.get(request)?.actor ?? operatorSessions.get(request)?.actor ?? OPERATOR;
}

/** The request's operator session, or undefined. */
export function operatorSessionOf(request: FastifyRequest): OperatorSessionContext | undefined {
  return operatorSessions.get(request);
}

/** The request's session, or undefined for the admin token. */
export function sessionOf(request: FastifyRequest): SessionContext | undefined {
  return sessions.get(request);
}

/**
 * Whether the session the request came with is still live (not signed out, revoked, expired or
 * of a rotated admin token); always true for a request without a session. A response that lasts
 * (a run's event stream, docs/api.md, Run events) asks it while it lasts.
 */
export async function stillSignedIn(request: FastifyRequest): Promise<boolean> {
  const check = sessionChecks.get(request);
  return check === undefined ? true : check();
}

export interface ManagementAuthOptions {
  adminToken: string;
  management: Management;
  publicUrl: string;
}

/**
 * The management API's credentials (docs/api.md, Management API): `Authorization: Bearer
 * <KUMO_ADMIN_TOKEN>` (the operator; unchanged), or the console's session cookie. A request with
 * a session that changes anything must carry the session's CSRF token in x-kumo-csrf-token and
 * an Origin of this service. Without either credential: 401 invalid_admin_token as before.
 */
export function createManagementAuth(options: ManagementAuthOptions) {
  const adminAuth = createAdminAuth(options.adminToken, options.management.operatorSessions);
  const allowedOrigin = new URL(options.publicUrl).origin;
  const checkCsrf = (request: FastifyRequest, csrfToken: string) => {
    if (SAFE_METHODS.has(request.method)) return;
    const token = request.headers[CSRF_HEADER];
    if (typeof token !== 'string' || !sameToken(token, csrfToken)) {
      throw new ApiError('csrf_rejected', `the ${CSRF_HEADER} header is missing or not this session's`);
    }
    if (!sameOrigin(request, allowedOrigin)) {
      throw new ApiError('csrf_rejected', 'the Origin header is missing or not this service');
    }
  };
  const expired = (request: FastifyRequest, cookie: string) => {
    const cleared = clearedSessionCookie(secureCookies(request, options.publicUrl), cookie);
    return new ApiError('session_expired', undefined, undefined, { 'set-cookie': cleared });
  };
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const secret = cookieOf(request, SESSION_COOKIE);
    const operatorSecret = cookieOf(request, OPERATOR_COOKIE);
    if (request.headers.authorization !== undefined) return adminAuth(request);
    if (secret !== undefined && secret !== '') {
      const context = await options.management.sessions.authenticate(secret);
      if (context === undefined) throw expired(request, SESSION_COOKIE);
      checkCsrf(request, context.csrfToken);
      sessions.set(request, context);
      sessionChecks.set(request, () => options.management.sessions.isSignedIn(secret));
      return;
    }
    if (operatorSecret !== undefined && operatorSecret !== '') {
      const { operatorSessions: operator } = options.management;
      const context = await operator.authenticate(operatorSecret, options.adminToken);
      if (context === undefined) throw expired(request, OPERATOR_COOKIE);
      checkCsrf(request, context.csrfToken);
      operatorSessions.set(request, context);
      sessionChecks.set(request, () => operator.isSignedIn(operatorSecret, options.adminToken));
      return;
    }
    return adminAuth(request);
  };
}

/**
 * Whether the Origin header names this service: the origin of KUMO_PUBLIC_URL, or the one the
 * request was addressed to (its Host).
 */
export function sameOrigin(request: FastifyRequest, allowedOrigin: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  const host = request.headers.host;
  return origin === allowedOrigin || (host !== undefined && origin === `${request.protocol}://${host}`);
}

/**
 * What a session may reach on top of its role (which the management operations check): only
 * paths of its own contract (another contract's are not found, as a missing resource) and its
 * own session; the paths without a contract (listing or creating contracts) are the operator's.
 */
export function checkSessionReach(request: FastifyRequest, sessionPath: string): void {
  const context = sessions.get(request);
  if (context === undefined) return;
  const params = request.params as { contract_id?: unknown } | undefined;
  const contractId = params?.contract_id;
  if (contractId !== undefined) {
    if (Number(contractId) !== context.actor.contractId) {
      throw new ApiError('not_found', `no contract ${String(contractId)}`);
    }
    return;
  }
  const route = request.routeOptions.url ?? '';
  if (route === sessionPath || route.startsWith(`${sessionPath}/`)) return;
  throw new ApiError('forbidden', 'only the operator (the admin token) may use this resource');
}
