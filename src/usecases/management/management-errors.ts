/**
 * The failures of the management operations, grouped by what the caller should do
 * (docs/design/management.md, Management layer): name another resource (NotFoundError), fix the
 * input (InvalidInputError of src/domain, naming each field), or wait (ConflictError). The HTTP API
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

/**
 * Too many failed password attempts of the account or from the address (a sign-in, a wrong
 * current password, a wrong admin token), counting those still being checked: wait
 * `retryAfterSeconds`.
 */
export class SignInLimitedError extends Error {
  override name = 'SignInLimitedError';

  constructor(
    readonly retryAfterSeconds: number,
    what = 'failed sign-ins',
  ) {
    super(`too many ${what}; try again in ${retryAfterSeconds} s`);
  }
}

/**
 * Too many passwords are being hashed at once (password-hash-gate.ts): the queue is full, so the
 * password was not looked at; wait `retryAfterSeconds`.
 */
export class PasswordChecksBusyError extends Error {
  override name = 'PasswordChecksBusyError';

  constructor(readonly retryAfterSeconds: number) {
    super(`too many password checks at once; try again in ${retryAfterSeconds} s`);
  }
}
