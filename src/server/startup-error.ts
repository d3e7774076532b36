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
