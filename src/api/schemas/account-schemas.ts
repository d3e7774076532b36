import { type TSchema, Type } from '@sinclair/typebox';
import { ACCOUNT_ROLES, AUDIT_PAGE, EMAIL_MAX_CHARS, PASSWORD_CHARS } from '../../usecases/index.js';
import { FAILURE_RESPONSES, IdParam } from './common-schemas.js';

/**
 * Schemas of the console's accounts, sessions and audit log under /admin/v1 (docs/api.md,
 * Accounts and sessions). The routes take the admin token or a session cookie; sign-in and
 * accepting an invitation take neither.
 */

const TAGS = ['accounts'];
export type Security = { [name: string]: string[] }[];
export const SECURED: Security = [{ adminToken: [] }, { sessionCookie: [] }, { operatorCookie: [] }];
export const SESSION_ONLY: Security = [{ sessionCookie: [] }];
export const PUBLIC: Security = [];

export const datetime = (description: string) =>
  Type.String({ description: `${description}; yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN in the service time zone` });

export const ok = <T extends Record<string, TSchema>>(members: T) =>
  Type.Object({ status: Type.Literal('OK'), message: Type.String(), ...members });
export const responses = <T extends TSchema>(success: T) => ({ 200: success, ...FAILURE_RESPONSES });

export const route = (summary: string, security: Security, description?: string) => ({
  summary,
  ...(description === undefined ? {} : { description }),
  tags: TAGS,
  security,
});

export const Role = Type.Union(
  ACCOUNT_ROLES.map((role) => Type.Literal(role)),
  { description: 'owner: everything in the contract; editor: settings, runs, search; viewer: read only' },
);
const Email = Type.String({ minLength: 1, maxLength: EMAIL_MAX_CHARS, description: 'email address' });
const Password = (description: string) =>
  Type.String({
    description:
      `${description}; ${PASSWORD_CHARS.min} to ${PASSWORD_CHARS.max} characters, ` +
      'not a commonly used or breached password',
  });

export const AccountView = Type.Object({
  id: Type.Integer(),
  contract_id: Type.Integer(),
  email: Type.String(),
  role: Role,
  created_datetime: datetime('created'),
});
export const SessionView = Type.Object({
  id: Type.Integer({ description: 'the session number (not its secret id)' }),
  created_datetime: datetime('signed in'),
  last_seen_datetime: datetime('last request'),
  expires_datetime: datetime('when it ends unless used again (idle limit or absolute end)'),
  user_agent: Type.String(),
  address: Type.String(),
  current: Type.Boolean({ description: 'the session of this request' }),
});
const CurrentSession = Type.Object({
  account: AccountView,
  session: SessionView,
  csrf_token: Type.String({ description: 'send it in x-kumo-csrf-token with every change' }),
  timezone: Type.String({ description: 'the service time zone (KUMO_TIMEZONE) every timestamp is in' }),
  search_url: Type.Union([Type.String(), Type.Null()], {
    description:
      'where site search, the widget and the hosted search pages are reached (KUMO_SEARCH_PUBLIC_URL); null when this API process knows no such address',
  }),
});

export const ContractParams = Type.Object({ contract_id: IdParam('contract id') });
export const UserParams = Type.Object({ ...ContractParams.properties, account_id: IdParam('account id') });
const SessionParams = Type.Object({ session_id: IdParam('session number') });

export const SignInSchema = {
  ...route(
    'Sign in to the console',
    PUBLIC,
    'Sets the HttpOnly session cookie kumo_session; answers the CSRF token. Unknown address and ' +
      'wrong password get the same 401; failed sign-ins are limited per address and per client (429).',
  ),
  body: Type.Object(
    { email: Email, password: Type.String({ maxLength: 4096 }) },
    { additionalProperties: false },
  ),
  response: responses(ok(CurrentSession.properties)),
};

export const GetSessionSchema = {
  ...route(
    'Who is signed in: the account (or the operator), the session and its CSRF token',
    [...SESSION_ONLY, { operatorCookie: [] }],
    'An operator session answers account null and operator true, so the console learns who is signed in with one request.',
  ),
  response: responses(
    ok({
      ...CurrentSession.properties,
      account: Type.Union([AccountView, Type.Null()], { description: 'null for the operator' }),
      operator: Type.Boolean({ description: "true for the operator's console session" }),
    }),
  ),
};

export const SignOutSchema = {
  ...route('Sign out: ends this session and clears the cookie', SESSION_ONLY),
  response: responses(ok({})),
};

export const ChangePasswordSchema = {
  ...route("Change the password; ends the account's other sessions", SESSION_ONLY),
  body: Type.Object(
    {
      current_password: Type.String({ maxLength: 4096, description: 'the password now' }),
      new_password: Password('the new password'),
    },
    { additionalProperties: false },
  ),
  response: responses(ok({ revoked_sessions: Type.Integer() })),
};

export const ListSessionsSchema = {
  ...route('The live sessions of the signed-in account', SESSION_ONLY),
  response: responses(ok({ sessions: Type.Array(SessionView) })),
};

export const RevokeSessionSchema = {
  ...route("End one of the signed-in account's sessions", SESSION_ONLY),
  params: SessionParams,
  response: responses(ok({})),
};

export const AcceptInvitationSchema = {
  ...route(
    'Accept an invitation: creates the account with its password and signs it in',
    PUBLIC,
    'Sets the session cookie kumo_session as sign-in does and answers its session and CSRF token ' +
      '(signed_in true); when the sign-in limits refuse at that moment the account is still made, ' +
      'signed_in is false and the user signs in later.',
  ),
  body: Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 256, description: 'the token of the invitation' }),
      password: Password('the password of the new account'),
    },
    { additionalProperties: false },
  ),
  response: responses(
    ok({
      account: AccountView,
      signed_in: Type.Boolean({ description: 'whether the answer set the session cookie' }),
      session: Type.Optional(SessionView),
      csrf_token: Type.Optional(Type.String()),
      timezone: Type.Optional(Type.String()),
      search_url: Type.Optional(CurrentSession.properties.search_url),
    }),
  ),
};

export const ListUsersSchema = {
  ...route('The accounts of a contract', SECURED),
  params: ContractParams,
  response: responses(ok({ users: Type.Array(AccountView) })),
};

export const InviteSchema = {
  ...route(
    'Invite a user to a contract (operator or owner)',
    SECURED,
    'The token is shown in this answer only; it can be accepted once, within 7 days.',
  ),
  params: ContractParams,
  body: Type.Object({ email: Email, role: Role }, { additionalProperties: false }),
  response: responses(
    ok({
      invitation_id: Type.Integer(),
      email: Type.String(),
      role: Role,
      token: Type.String(),
      accept_url: Type.String({ description: 'the console page that accepts it (token in the fragment)' }),
      expires_datetime: datetime('the end of its validity'),
    }),
  ),
};

export const RevokeUserSessionsSchema = {
  ...route('End every session of a user of the contract (operator or owner)', SECURED),
  params: UserParams,
  response: responses(ok({ revoked_sessions: Type.Integer() })),
};

const AuditEntryView = Type.Object({
  id: Type.Integer(),
  datetime: datetime('when'),
  actor: Type.Object({
    kind: Type.Union([Type.Literal('operator'), Type.Literal('account')]),
    via: Type.String({ description: 'admin-api, cli, first-start (the demo tenant) or session' }),
    account_id: Type.Union([Type.Integer(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  action: Type.String({
    description:
      'create, update, delete, revoke, run, replay, accept, pause, resume, cancel, sign_in, sign_out',
  }),
  resource: Type.String(),
  resource_id: Type.Integer(),
  servicegroup_id: Type.Union([Type.Integer(), Type.Null()]),
});

export const AuditLogSchema = {
  ...route('The audit log of a contract, newest first (operator or owner)', SECURED),
  params: ContractParams,
  querystring: Type.Object(
    {
      limit: Type.Optional(
        Type.Integer({
          minimum: AUDIT_PAGE.min,
          maximum: AUDIT_PAGE.max,
          description: 'entries per page (50)',
        }),
      ),
      before_id: Type.Optional(IdParam('entries older than this id (next_before_id of the page before)')),
    },
    { additionalProperties: false },
  ),
  response: responses(
    ok({
      entries: Type.Array(AuditEntryView),
      next_before_id: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
};
