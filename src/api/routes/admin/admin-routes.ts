import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountRoutes, publicAccountRoutes, SESSION_PATH } from './account-routes.js';
import { type AdminRoutesOptions, handleAdminError } from './admin-support.js';
import { checkSessionReach, createManagementAuth } from './management-auth.js';
import { operatorRoutes, publicOperatorRoutes } from './operator-routes.js';
import { runRoutes } from './runs-routes.js';
import { searchAnalyticsRoutes } from './search-analytics-routes.js';
import { searchServiceRoutes } from './search-services-routes.js';
import { serviceSettingRoutes } from './service-settings-routes.js';
import { tenantRoutes } from './tenants-and-keys-routes.js';
import { userRoutes } from './user-routes.js';
import { webhookRoutes } from './webhooks-routes.js';

export type { AdminRoutesOptions } from './admin-support.js';

/**
 * The management API under /admin/v1: contracts, service groups and API keys, crawl service
 * settings, search services, webhooks, and the console's accounts, sessions and audit log. Every
 * route but signing in and accepting an invitation requires the admin bearer token or a console
 * session, checked on request before anything else about the request is looked at; a session
 * reaches its own contract only, and the management operations check its role
 * (docs/api.md, Accounts and sessions).
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  app.setErrorHandler(handleAdminError);
  await app.register(publicAccountRoutes, options);
  await app.register(publicOperatorRoutes, options);
  const authenticate = createManagementAuth(options);
  const sessionPath = `${options.basePath}${SESSION_PATH}`;
  await app.register(async (secured) => {
    secured.addHook('onRequest', async (request) => {
      await authenticate(request);
      checkSessionReach(request, sessionPath);
    });
    await secured.register(tenantRoutes, options);
    await secured.register(serviceSettingRoutes, options);
    await secured.register(runRoutes, options);
    await secured.register(searchServiceRoutes, options);
    await secured.register(searchAnalyticsRoutes, options);
    await secured.register(webhookRoutes, options);
    await secured.register(accountRoutes, options);
    await secured.register(userRoutes, options);
    await secured.register(operatorRoutes, options);
  });
};
