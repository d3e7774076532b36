import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AccountActor,
  type AccountView,
  invitationUrl,
  PasswordChecksBusyError,
  SignInLimitedError,
  type SessionContext,
  sessionEndMicros,
} from '../../../usecases/index.js';
import type { AuditEntry, SessionRecord } from '../../../store/index.js';
import { ApiError } from '../../api-error.js';
import {
  AcceptInvitationSchema,
  AuditLogSchema,
  ChangePasswordSchema,
  GetSessionSchema,
  InviteSchema,
  ListSessionsSchema,
  ListUsersSchema,
  RevokeSessionSchema,
  RevokeUserSessionsSchema,
  SignInSchema,
  SignOutSchema,
} from '../../schemas/account-schemas.js';
import { type AdminRoutesOptions, datetimeOf, methodRecorder, searchUrlFor } from './admin-support.js';
import { actorOf, operatorSessionOf, sameOrigin, sessionOf } from './management-auth.js';
import { clearedSessionCookie, secureCookies, sessionCookie } from './session-cookie.js';

/** The signed-in account's own resources: its session, password and sessions. */
export const SESSION_PATH = '/session';

/** Views of accounts, sessions and audit entries, in the API's names and time zone. */
export function views(timezone: string) {
  const account = (view: AccountView) => ({
    id: view.id,
    contract_id: view.contractId,
    email: view.email,
    role: view.role,
    created_datetime: datetimeOf(view.createdMicros, timezone),
  });
  const session = (record: Omit<SessionRecord, 'accountId'>, currentId: number | undefined) => ({
    id: record.id,
    created_datetime: datetimeOf(record.createdMicros, timezone),
    last_seen_datetime: datetimeOf(record.lastSeenMicros, timezone),
    expires_datetime: datetimeOf(sessionEndMicros(record), timezone),
    user_agent: record.userAgent,
    address: record.address,
    current: record.id === currentId,
  });
  const current = (context: SessionContext) => ({
    account: account(context.account),
    session: session(context.session, context.session.id),
    csrf_token: context.csrfToken,
    timezone,
  });
  const audit = (entry: AuditEntry) => ({
    id: entry.id,
    datetime: datetimeOf(entry.atMicros, timezone),
    actor: {
      kind: entry.actorKind,
      via: entry.actorVia,
      account_id: entry.actorAccountId,
      email: entry.actorEmail,
    },
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    servicegroup_id: entry.servicegroupId,
  });
  return { account, session, current, audit };
}

/**
 * Signing in and accepting an invitation: no credentials yet. A browser's Origin, when sent, must
 * be this service's, so another site cannot sign a visitor in to an account of its choosing.
 */
export const publicAccountRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone, publicUrl } = options;
  const record = methodRecorder(options);
  const view = views(timezone);
  const allowedOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (request.headers.origin !== undefined && !sameOrigin(request, allowedOrigin)) {
      throw new ApiError('csrf_rejected', 'the Origin header is not this service');
    }
  });

  const clientOf = (request: FastifyRequest) => {
    const userAgent = request.headers['user-agent'];
    return { address: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : '' };
  };
  const signIn = async (request: FastifyRequest, reply: FastifyReply, email: string, password: string) => {
    const signedIn = await management.sessions.signIn({ email, password }, clientOf(request));
    const maxAgeSeconds = Math.floor((signedIn.session.expiresMicros - signedIn.session.createdMicros) / 1e6);
    reply.header(
      'set-cookie',
      sessionCookie(signedIn.secret, maxAgeSeconds, secureCookies(request, publicUrl)),
    );
    reply.header('cache-control', 'no-store');
    return signedIn;
  };

  record('POST', SESSION_PATH);
  app.post(SESSION_PATH, { schema: SignInSchema }, async (request, reply) => {
    const signedIn = await signIn(request, reply, request.body.email, request.body.password);
    return {
      status: 'OK' as const,
      message: `signed in as ${signedIn.account.email}`,
      ...view.current(signedIn),
      search_url: searchUrlFor(request, options),
    };
  });

  record('POST', '/invitations/accept');
  app.post('/invitations/accept', { schema: AcceptInvitationSchema }, async (request, reply) => {
    const account = await management.accounts.acceptInvitation(request.body);
    // The new user is signed in at once, by the sign-in itself, so its limits still hold
    // (docs/api.md, Accounts and sessions); when they refuse now, the account stays made and
    // the user signs in later.
    try {
      const signedIn = await signIn(request, reply, account.email, request.body.password);
      return {
        status: 'OK' as const,
        message: `account ${account.id} created for ${account.email}; signed in`,
        signed_in: true,
        ...view.current(signedIn),
        search_url: searchUrlFor(request, options),
      };
    } catch (error) {
      if (!(error instanceof SignInLimitedError) && !(error instanceof PasswordChecksBusyError)) throw error;
      return {
        status: 'OK' as const,
        message: `account ${account.id} created for ${account.email}; sign in with its password (${error.message})`,
        signed_in: false,
        account: view.account(account),
      };
    }
  });
};

/** The request's account, or 403 for the admin token, which has no session. */
function accountOf(request: FastifyRequest): SessionContext & { actor: AccountActor } {
  const context = sessionOf(request);
  if (context === undefined) throw new ApiError('forbidden', 'the admin token has no session: sign in');
  return context;
}

/**
 * The signed-in account's session, password and sessions, and per contract its users,
 * invitations and audit log (owners and the operator; every role lists the users).
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management, timezone, publicUrl } = options;
  const record = methodRecorder(options);
  const view = views(timezone);
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  record('GET', SESSION_PATH);
  app.get(SESSION_PATH, { schema: GetSessionSchema }, async (request, reply) => {
    noStore(reply);
    // The operator's console session answers too: the console asks one question on every load
    // and never meets a refusal (docs/api.md, Operator sessions).
    const operator = operatorSessionOf(request);
    if (sessionOf(request) === undefined && operator !== undefined) {
      return {
        status: 'OK' as const,
        message: 'signed in as the operator',
        account: null,
        operator: true,
        session: view.session(operator.session, operator.session.id),
        csrf_token: operator.csrfToken,
        timezone,
        search_url: searchUrlFor(request, options),
      };
    }
    const context = accountOf(request);
    return {
      status: 'OK' as const,
      message: `signed in as ${context.account.email}`,
      operator: false,
      ...view.current(context),
      search_url: searchUrlFor(request, options),
    };
  });

  record('DELETE', SESSION_PATH);
  app.delete(SESSION_PATH, { schema: SignOutSchema }, async (request, reply) => {
    await management.sessions.signOut(accountOf(request).actor);
    reply.header('set-cookie', clearedSessionCookie(secureCookies(request, publicUrl)));
    return { status: 'OK' as const, message: 'signed out' };
  });

  record('PUT', `${SESSION_PATH}/password`);
  app.put(`${SESSION_PATH}/password`, { schema: ChangePasswordSchema }, async (request) => {
    const revoked = await management.accounts.changePassword(accountOf(request).actor, {
      currentPassword: request.body.current_password,
      newPassword: request.body.new_password,
    });
    return {
      status: 'OK' as const,
      message: `password changed; ${revoked} other session(s) ended`,
      revoked_sessions: revoked,
    };
  });

  record('GET', `${SESSION_PATH}/sessions`);
  app.get(`${SESSION_PATH}/sessions`, { schema: ListSessionsSchema }, async (request) => {
    const context = accountOf(request);
    const listed = await management.sessions.list(context.actor);
    return {
      status: 'OK' as const,
      message: `${listed.length} session(s)`,
      sessions: listed.map((one) => view.session(one, context.session.id)),
    };
  });

  record('DELETE', `${SESSION_PATH}/sessions/:session_id`);
  app.delete(`${SESSION_PATH}/sessions/:session_id`, { schema: RevokeSessionSchema }, async (request) => {
    const { session_id: id } = request.params;
    await management.sessions.revoke(accountOf(request).actor, id);
    return { status: 'OK' as const, message: `session ${id} ended` };
  });

  record('GET', '/contracts/:contract_id/users');
  app.get('/contracts/:contract_id/users', { schema: ListUsersSchema }, async (request) => {
    const users = await management.accounts.listUsers({ contractId: request.params.contract_id });
    return { status: 'OK' as const, message: `${users.length} user(s)`, users: users.map(view.account) };
  });

  record('POST', '/contracts/:contract_id/invitations');
  app.post('/contracts/:contract_id/invitations', { schema: InviteSchema }, async (request, reply) => {
    const { contract_id: contractId } = request.params;
    const { invitation, token } = await management.accounts.invite(
      actorOf(request),
      contractId,
      request.body,
    );
    noStore(reply);
    return {
      status: 'OK' as const,
      message: 'invitation created; its token is shown only in this response',
      invitation_id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      token,
      accept_url: invitationUrl(publicUrl, token),
      expires_datetime: datetimeOf(invitation.expiresMicros, timezone),
    };
  });

  record('DELETE', '/contracts/:contract_id/users/:account_id/sessions');
  app.delete(
    '/contracts/:contract_id/users/:account_id/sessions',
    { schema: RevokeUserSessionsSchema },
    async (request) => {
      const { contract_id: contractId, account_id: accountId } = request.params;
      const revoked = await management.accounts.revokeSessions(actorOf(request), contractId, accountId);
      return {
        status: 'OK' as const,
        message: `${revoked} session(s) of account ${accountId} ended`,
        revoked_sessions: revoked,
      };
    },
  );

  record('GET', '/contracts/:contract_id/audit_log');
  app.get('/contracts/:contract_id/audit_log', { schema: AuditLogSchema }, async (request) => {
    const page = await management.auditLog.list(actorOf(request), request.params.contract_id, {
      limit: request.query.limit,
      beforeId: request.query.before_id,
    });
    return {
      status: 'OK' as const,
      message: `${page.entries.length} entr(ies)`,
      entries: page.entries.map(view.audit),
      next_before_id: page.nextBeforeId,
    };
  });
};
