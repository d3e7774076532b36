import { ConfigError } from './config-error.js';

/**
 * What one `kumo serve` process does (docs/operations.md, Roles): `api` the crawl, scheduled
 * crawler, management and download APIs and the console; `worker` executes runs and publishes
 * the search indexes they feed; `scheduler` starts scheduled runs, sends webhooks and sweeps
 * expired artifacts; `search` answers the site search API and serves the widget.
 */
export const SERVICE_ROLES = ['api', 'worker', 'scheduler', 'search'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

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
  return SERVICE_ROLES.filter((role) => words.includes(role));
}

/**
 * Whether the process takes every role: the embedded service, and on a shared database the one
 * crawling process, which serves the indexes it writes in place (docs/operations.md, Roles).
 */
export function takesEveryRole(roles: readonly ServiceRole[]): boolean {
  return SERVICE_ROLES.every((role) => roles.includes(role));
}

/** How the roles read in messages: `all`, or the list. */
export function rolesText(roles: readonly ServiceRole[]): string {
  return takesEveryRole(roles) ? 'all' : roles.join(',');
}
