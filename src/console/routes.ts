/**
 * Every page of the console, by area. An area lists its routes in its own folder; this file only
 * gathers them (docs/console.md, Addresses).
 */
import { accountRoutes } from './pages/account-routes.js';
import { analyticsRoutes } from './analytics/analytics-routes.js';
import { keysRoutes } from './keys/keys-routes.js';
import { operatorRoutes } from './operator/operator-routes.js';
import { runsRoutes } from './runs/runs-routes.js';
import { searchRoutes } from './search/search-routes.js';
import { settingsRoutes } from './settings/settings-routes.js';
import type { ConsoleRoute } from './shell/route-types.js';
import { usersRoutes } from './users/users-routes.js';
import { webhooksRoutes } from './webhooks/webhooks-routes.js';

export const ROUTES: readonly ConsoleRoute[] = [
  ...operatorRoutes,
  ...accountRoutes,
  ...settingsRoutes,
  ...runsRoutes,
  ...searchRoutes,
  ...analyticsRoutes,
  ...keysRoutes,
  ...webhooksRoutes,
  ...usersRoutes,
];
