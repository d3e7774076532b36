import { Type } from '@sinclair/typebox';
import {
  AccountView,
  ok,
  responses,
  Role,
  route,
  SECURED,
  SessionView,
  UserParams,
} from './account-schemas.js';
import { IdParam, NgBodySchema } from './common-schemas.js';

/** Schemas of an owner's changes to the users of a contract (docs/api.md, Accounts and sessions). */

export const ChangeRoleSchema = {
  ...route(
    "Change a user's role (operator or owner)",
    SECURED,
    "409 when it would leave the contract without an owner. The user's sessions keep going with the new role.",
  ),
  params: UserParams,
  body: Type.Object({ role: Role }, { additionalProperties: false }),
  response: { ...responses(ok({ user: AccountView })), 409: NgBodySchema },
};

export const RemoveUserSchema = {
  ...route(
    'Remove a user from the contract (operator or owner)',
    SECURED,
    'Deletes the account and ends its sessions; its entries in the audit log stay. 409 for the last owner.',
  ),
  params: UserParams,
  response: { ...responses(ok({})), 409: NgBodySchema },
};

export const ListUserSessionsSchema = {
  ...route("A user's live sessions (operator or owner)", SECURED),
  params: UserParams,
  response: responses(ok({ sessions: Type.Array(SessionView) })),
};

export const EndUserSessionSchema = {
  ...route("End one of a user's sessions (operator or owner)", SECURED),
  params: Type.Object({ ...UserParams.properties, session_id: IdParam('session number') }),
  response: responses(ok({})),
};
