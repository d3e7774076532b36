import { ConfigError } from './config-error.js';

/**
 * What one `kumo serve` process does (docs/operations.md, Roles): `api` the crawl, scheduled
 * crawler, management and download APIs and the console; `worker` executes runs and feeds search
 * services; `scheduler` starts scheduled runs and sends webhooks; `search` answers the site
 * search API and serves the widget.
 */
export const SERVICE_ROLES = ['api', 'worker', 'scheduler', 'search'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

/** The role sets a process may take: every role (the default), or a search node. */
const AVAILABLE = ['api,scheduler,search,worker', 'search'];

/** `all`, or roles separated by commas, in any order; `name` names the setting in errors. */
export function parseRoles(raw: string, name: string): ServiceRole[] {
  const words = raw
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 1 && words[0] === 'all') return [...SERVICE_ROLES];
  const unknown = words.filter((word) => !(SERVICE_ROLES as readonly string[]).includes(word));
  if (words.length === 0 || unknown.length > 0)
    throw new ConfigError(
      `${name}: expected all, or roles among ${SERVICE_ROLES.join(', ')} separated by commas, got "${raw}"`,
    );
  const roles = SERVICE_ROLES.filter((role) => words.includes(role));
  if (!AVAILABLE.includes([...roles].sort().join(',')))
    throw new ConfigError(
      `${name}: a process takes every role (all) or search alone; "${raw}" is not a set this version runs`,
    );
  return roles;
}

/** Whether the roles are those of a search node only. */
export function isSearchNode(roles: readonly ServiceRole[]): boolean {
  return roles.length === 1 && roles[0] === 'search';
}
