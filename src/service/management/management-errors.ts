/**
 * The failures of the management operations, grouped by what the caller should do
 * (docs/architecture.md, Management layer): name another resource (NotFoundError), fix the input
 * (InvalidInputError of src/domain, naming each field), or wait (ConflictError). The HTTP API
 * maps them to 404, 400 and 409; `kumo admin` to a usage error (exit 2).
 */

/** What the management layer manages; also the noun its messages use. */
export type ManagedResource =
  | 'contract'
  | 'service group'
  | 'API key'
  | 'search service'
  | 'crawl service setting'
  | 'crawl run'
  | 'webhook'
  | 'delivery'
  | 'account'
  | 'invitation'
  | 'session'
  | 'operator session'
  | 'audit log';

/** The resource is not there, or not within the scope the caller may reach. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';

  constructor(
    readonly resource: ManagedResource,
    readonly id: number,
    message: string,
  ) {
    super(message);
  }
}

/** The resource is busy: a crawl service setting's run is still pending or running. */
export class ConflictError extends Error {
  override name = 'ConflictError';

  constructor(
    readonly resource: ManagedResource,
    readonly id: number,
    message: string,
  ) {
    super(message);
  }
}

/** An operation over its rate (webhook pings): wait `retryAfterSeconds` before the next. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';

  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

/** The caller is known but its role does not allow the operation (docs/api.md, Roles). */
export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
}

/**
 * A sign-in refused: the same error, message and (about) the same time for an unknown address
 * and a wrong password, so an answer never tells whether an account exists.
 */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';

  constructor() {
    super('the email address or the password is not right');
  }
}

/** Too many failed sign-ins of the account or from the address: wait `retryAfterSeconds`. */
export class SignInLimitedError extends Error {
  override name = 'SignInLimitedError';

  constructor(readonly retryAfterSeconds: number) {
    super(`too many failed sign-ins; try again in ${retryAfterSeconds} s`);
  }
}
