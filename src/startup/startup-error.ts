import { ServerTakenError } from '../store/index.js';

/**
 * A reason `kumo serve` cannot start that the operator fixes by a setting or by stopping another
 * process; its message names the setting and is printed as one line, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Which setting a failed listen points at (docs/operations.md, First start). */
export function listenFailure(error: unknown, host: string, port: number): StartupError | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `port ${port} on ${host} is in use (KUMO_PORT, KUMO_HOST); stop the other process or choose another port`,
      );
    case 'EACCES':
      return new StartupError(
        `port ${port} on ${host} may not be opened by this user (KUMO_PORT); choose a port above 1023`,
      );
    case 'EADDRNOTAVAIL':
      return new StartupError(
        `${host} is not an address of this machine (KUMO_HOST); use 127.0.0.1, 0.0.0.0 or one of its addresses`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`the host name ${host} cannot be resolved (KUMO_HOST)`);
    default:
      return undefined;
  }
}

/** PostgreSQL error codes a wrong KUMO_DATABASE_URL gives, and what to fix. */
const DATABASE_REFUSALS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist',
};

/**
 * Why the PostgreSQL database of KUMO_DATABASE_URL cannot be opened, naming the setting and the
 * server but never the URL's password; undefined for another failure.
 */
export function databaseFailure(error: unknown, databaseUrl: string): StartupError | undefined {
  if (error instanceof StartupError) return error;
  if (error instanceof ServerTakenError) return new StartupError(`KUMO_DATABASE_URL: ${error.message}`);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  const url = new URL(databaseUrl);
  const server = `${url.hostname}:${url.port || '5432'}`;
  const refusal = DATABASE_REFUSALS[code];
  if (refusal !== undefined)
    return new StartupError(`KUMO_DATABASE_URL: the PostgreSQL server ${server} answered: ${refusal}`);
  if (
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'CONNECT_TIMEOUT'].includes(code)
  )
    return new StartupError(`KUMO_DATABASE_URL: the PostgreSQL server ${server} cannot be reached (${code})`);
  return undefined;
}
