import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sessionEndMicros } from '../../../usecases/index.js';
import { ApiError } from '../../api-error.js';
import {
  ContractUsageSchema,
  GetOperatorSessionSchema,
  ListOperatorSessionsSchema,
  OperatorSignInSchema,
  OperatorSignOutSchema,
  RevokeOperatorSessionSchema,
} from '../../schemas/operator-schemas.js';
import { views } from './account-routes.js';
import { type AdminRoutesOptions, datetimeOf, methodRecorder, searchUrlFor } from './admin-support.js';
import { actorOf, operatorSessionOf, sameOrigin } from './management-auth.js';
import { clearedSessionCookie, OPERATOR_COOKIE, secureCookies, sessionCookie } from './session-cookie.js';

export const OPERATOR_SESSION_PATH = '/operator_session';

/**
 * Signing in to the console with the admin token (docs/api.md, Operator sessions): no credential
 * yet. A browser's Origin, when sent, must be this service's.
 */
export const publicOperatorRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone, publicUrl, adminToken } = options;
  const allowedOrigin = new URL(publicUrl).origin;
  const record = methodRecorder(options);
  app.addHook('onRequest', async (request) => {
    if (request.headers.origin !== undefined && !sameOrigin(request, allowedOrigin)) {
      throw new ApiError('csrf_rejected', 'the Origin header is not this service');
    }
  });

  record('POST', OPERATOR_SESSION_PATH);
  app.post(OPERATOR_SESSION_PATH, { schema: OperatorSignInSchema }, async (request, reply) => {
    const userAgent = request.headers['user-agent'];
    const signedIn = await management.operatorSessions.signIn(request.body.admin_token, adminToken, {
      address: request.ip,
      userAgent: typeof userAgent === 'string' ? userAgent : '',
    });
    const { session } = signedIn;
    const maxAgeSeconds = Math.floor((session.expiresMicros - session.createdMicros) / 1e6);
    reply.header(
      'set-cookie',
      sessionCookie(signedIn.secret, maxAgeSeconds, secureCookies(request, publicUrl), OPERATOR_COOKIE),
    );
    reply.header('cache-control', 'no-store');
    return {
      status: 'OK' as const,
      message: 'signed in as the operator',
      operator: true as const,
      expires_datetime: datetimeOf(sessionEndMicros(session), timezone),
      csrf_token: signedIn.csrfToken,
      timezone,
      search_url: searchUrlFor(request, options),
    };
  });
};

/**
 * The operator's session, signing out, the operator's sessions (listed and ended with the admin
 * token or an operator session), and every contract with its usage.
 */
export const operatorRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone, publicUrl, adminToken } = options;
  const view = views(timezone);
  const record = methodRecorder(options);
  const current = (request: Parameters<typeof operatorSessionOf>[0]) => {
    const context = operatorSessionOf(request);
    if (context === undefined) throw new ApiError('forbidden', 'this request has no operator session');
    return context;
  };

  record('GET', OPERATOR_SESSION_PATH);
  app.get(OPERATOR_SESSION_PATH, { schema: GetOperatorSessionSchema }, async (request, reply) => {
    const context = current(request);
    reply.header('cache-control', 'no-store');
    return {
      status: 'OK' as const,
      message: 'the operator',
      operator: true as const,
      expires_datetime: datetimeOf(sessionEndMicros(context.session), timezone),
      csrf_token: context.csrfToken,
      timezone,
      search_url: searchUrlFor(request, options),
    };
  });

  record('DELETE', OPERATOR_SESSION_PATH);
  app.delete(OPERATOR_SESSION_PATH, { schema: OperatorSignOutSchema }, async (request, reply) => {
    await management.operatorSessions.signOut(current(request).session.id);
    reply.header('set-cookie', clearedSessionCookie(secureCookies(request, publicUrl), OPERATOR_COOKIE));
    return { status: 'OK' as const, message: 'signed out' };
  });

  record('GET', `${OPERATOR_SESSION_PATH}/sessions`);
  app.get(
    `${OPERATOR_SESSION_PATH}/sessions`,
    { schema: ListOperatorSessionsSchema },
    async (request, reply) => {
      const listed = await management.operatorSessions.list(adminToken);
      const currentId = operatorSessionOf(request)?.session.id;
      reply.header('cache-control', 'no-store');
      return {
        status: 'OK' as const,
        message: `${listed.length} operator session(s)`,
        sessions: listed.map((one) => view.session(one, currentId)),
      };
    },
  );

  record('DELETE', `${OPERATOR_SESSION_PATH}/sessions/:session_id`);
  app.delete(
    `${OPERATOR_SESSION_PATH}/sessions/:session_id`,
    { schema: RevokeOperatorSessionSchema },
    async (request) => {
      const { session_id: id } = request.params;
      await management.operatorSessions.revoke(id, adminToken);
      return { status: 'OK' as const, message: `operator session ${id} ended` };
    },
  );

  record('GET', '/contracts/usage');
  app.get('/contracts/usage', { schema: ContractUsageSchema }, async (request) => {
    const usage = await management.usage.list(actorOf(request));
    return {
      status: 'OK' as const,
      message: `${usage.length} contract(s)`,
      contracts: usage.map((one) => ({
        id: one.contract.id,
        name: one.contract.name,
        created_datetime: datetimeOf(one.contract.createdMicros, timezone),
        servicegroups: one.serviceGroups,
        users: one.users,
        runs: one.runs,
        pages_fetched: one.pagesFetched,
        artifact_bytes: one.artifactBytes,
        search_services: one.searchServices,
        index_bytes: one.indexBytes,
      })),
    };
  });
};
