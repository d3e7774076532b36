import { ConfigError } from './config-error.js';

/**
 * KUMO_DATABASE_URL: `postgres://user:password@host:port/database` selects PostgreSQL for the
 * service records (docs/operations.md, PostgreSQL); unset or empty, SQLite in the data directory.
 * Errors never repeat the value: it may hold a password.
 */
export function parseDatabaseUrl(raw: string, name: string): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: expected postgres://user:password@host:port/database`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `${name}: expected a postgres:// or postgresql:// URL, got the scheme "${url.protocol.slice(0, -1)}"`,
    );
  }
  if (url.hostname === '') throw new ConfigError(`${name}: the host is missing (postgres://host/database)`);
  if (url.pathname === '' || url.pathname === '/')
    throw new ConfigError(`${name}: the database name is missing (postgres://host/database)`);
  return value;
}
