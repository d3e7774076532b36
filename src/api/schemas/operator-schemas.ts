import { Type } from '@sinclair/typebox';
import {
  datetime,
  ok,
  PUBLIC,
  responses,
  route,
  SECURED,
  type Security,
  SessionView,
} from './account-schemas.js';
import { IdParam } from './common-schemas.js';

/** Schemas of the operator's console session and pages (docs/api.md, Operator sessions). */

const OperatorSession = {
  operator: Type.Literal(true),
  expires_datetime: datetime('when the session ends unless used again'),
  csrf_token: Type.String({ description: 'send it in x-kumo-csrf-token with every change' }),
  timezone: Type.String({ description: 'the service time zone (KUMO_TIMEZONE) every timestamp is in' }),
  search_url: Type.Union([Type.String(), Type.Null()], {
    description:
      'where site search, the widget and the hosted search pages are reached (KUMO_SEARCH_PUBLIC_URL); null when this API process knows no such address',
  }),
};

export const OperatorSignInSchema = {
  ...route(
    'Sign in to the console as the operator',
    PUBLIC,
    'Checks the admin token and sets the HttpOnly cookie kumo_operator; answers the CSRF token. A wrong ' +
      'token is a 401; failed attempts are limited per client address (429).',
  ),
  body: Type.Object({ admin_token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false }),
  response: responses(ok(OperatorSession)),
};

export const GetOperatorSessionSchema = {
  ...route("The operator's console session", [{ operatorCookie: [] }]),
  response: responses(ok(OperatorSession)),
};

export const OperatorSignOutSchema = {
  ...route("End the operator's console session", [{ operatorCookie: [] }]),
  response: responses(ok({})),
};

/** The admin token, or the operator's console session; not an account's. */
const OPERATOR_ONLY: Security = [{ adminToken: [] }, { operatorCookie: [] }];

export const ListOperatorSessionsSchema = {
  ...route(
    "The operator's live console sessions",
    OPERATOR_ONLY,
    'Only the sessions made with the current admin token: those of a rotated token are ended ' +
      '(docs/security.md, Operator sessions). `current` marks the session of this request.',
  ),
  response: responses(ok({ sessions: Type.Array(SessionView) })),
};

export const RevokeOperatorSessionSchema = {
  ...route(
    "End one of the operator's console sessions",
    OPERATOR_ONLY,
    'Its next request is signed out, and a run event stream it opened ends within a second. ' +
      'An unknown or ended session is a 404.',
  ),
  params: Type.Object({ session_id: IdParam('operator session number') }),
  response: responses(ok({})),
};

export const ContractUsageSchema = {
  ...route(
    'Every contract with its usage (operator)',
    SECURED,
    'Service groups, users, runs, pages fetched, bytes of kept artifacts, search services and bytes of their indexes.',
  ),
  response: responses(
    ok({
      contracts: Type.Array(
        Type.Object({
          id: Type.Integer(),
          name: Type.String(),
          created_datetime: datetime('created'),
          servicegroups: Type.Integer(),
          users: Type.Integer(),
          runs: Type.Integer(),
          pages_fetched: Type.Integer(),
          artifact_bytes: Type.Integer(),
          search_services: Type.Integer(),
          index_bytes: Type.Integer(),
        }),
      ),
    }),
  ),
};
