import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChangeRoleSchema,
  EndUserSessionSchema,
  ListUserSessionsSchema,
  RemoveUserSchema,
} from '../../schemas/user-schemas.js';
import { views } from './account-routes.js';
import { type AdminRoutesOptions, methodRecorder } from './admin-support.js';
import { actorOf } from './management-auth.js';

const USER_PATH = '/contracts/:contract_id/users/:account_id';

/** An owner's changes to the users of a contract: role, removal, and one session of a user. */
export const userRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { management } = options;
  const view = views(options.timezone);
  const record = methodRecorder(options);

  record('PUT', `${USER_PATH}/role`);
  app.put(`${USER_PATH}/role`, { schema: ChangeRoleSchema }, async (request) => {
    const { contract_id: contractId, account_id: accountId } = request.params;
    const user = await management.users.changeRole(
      actorOf(request),
      contractId,
      accountId,
      request.body.role,
    );
    return {
      status: 'OK' as const,
      message: `account ${accountId} is now ${user.role}`,
      user: view.account(user),
    };
  });

  record('DELETE', USER_PATH);
  app.delete(USER_PATH, { schema: RemoveUserSchema }, async (request) => {
    const { contract_id: contractId, account_id: accountId } = request.params;
    await management.users.remove(actorOf(request), contractId, accountId);
    return { status: 'OK' as const, message: `account ${accountId} removed` };
  });

  record('GET', `${USER_PATH}/sessions`);
  app.get(`${USER_PATH}/sessions`, { schema: ListUserSessionsSchema }, async (request) => {
    const { contract_id: contractId, account_id: accountId } = request.params;
    const sessions = await management.users.sessions(actorOf(request), contractId, accountId);
    return {
      status: 'OK' as const,
      message: `${sessions.length} session(s)`,
      sessions: sessions.map((session) => view.session(session, 0)),
    };
  });

  record('DELETE', `${USER_PATH}/sessions/:session_id`);
  app.delete(`${USER_PATH}/sessions/:session_id`, { schema: EndUserSessionSchema }, async (request) => {
    const { contract_id: contractId, account_id: accountId, session_id: sessionId } = request.params;
    await management.users.endSession(actorOf(request), contractId, accountId, sessionId);
    return { status: 'OK' as const, message: `session ${sessionId} ended` };
  });
};
