import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAdminAuth } from './admin-auth.js';
import { type AdminRoutesOptions, handleAdminError } from './admin-support.js';
import { searchServiceRoutes } from './search-services-routes.js';
import { serviceSettingRoutes } from './service-settings-routes.js';
import { tenantRoutes } from './tenants-and-keys-routes.js';
import { webhookRoutes } from './webhooks-routes.js';

export type { AdminRoutesOptions } from './admin-support.js';

/**
 * The management API under /admin/v1: contracts, service groups and API keys, crawl service
 * settings, search services and webhooks. Every route requires the admin bearer token, checked
 * on request before anything else about the request is looked at.
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  app.addHook('onRequest', createAdminAuth(options.adminToken));
  app.setErrorHandler(handleAdminError);
  await app.register(tenantRoutes, options);
  await app.register(serviceSettingRoutes, options);
  await app.register(searchServiceRoutes, options);
  await app.register(webhookRoutes, options);
};
