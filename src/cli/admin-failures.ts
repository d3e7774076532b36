import type { FieldError } from '../domain/index.js';
import { ConflictError, InvalidInputError, NotFoundError, RateLimitedError } from '../usecases/index.js';
import { UsageError } from './usage-error.js';

/** The option of `kumo admin` that gives each input field of the management operations. */
const OPTION_OF_FIELD: Record<string, string> = {
  name: '--name',
  label: '--label',
  url: '--url',
  secret: '--secret',
  limit: '--limit',
  email: '--email',
  role: '--role',
};

/** What an input error of each resource of `kumo admin` is about. */
const SUBJECT_OF_RESOURCE: Record<string, string> = {
  contract: 'the contract',
  servicegroup: 'the service group',
  key: 'the API key',
  searchservice: 'the search service',
  setting: 'the crawl service setting',
  webhook: 'the webhook',
  user: 'the invitation',
};

/**
 * A failure of a management operation as `kumo admin` reports it: a usage error (exit 2) with
 * the operation's message, naming the option an input error comes from, or listing the fields
 * of a file one per line (docs/operations.md, Command line). Other errors pass unchanged.
 */
export function adminUsageError(error: unknown, resource: string): unknown {
  if (error instanceof NotFoundError) {
    // The only contract a command names is its --contract.
    return new UsageError(error.resource === 'contract' ? `--contract: ${error.message}` : error.message);
  }
  if (error instanceof ConflictError || error instanceof RateLimitedError)
    return new UsageError(error.message);
  if (error instanceof InvalidInputError) {
    const first = error.errors[0];
    const option = first && OPTION_OF_FIELD[first.field];
    if (first && option) return new UsageError(`${option}: ${first.reason}`);
    return fieldUsageError(SUBJECT_OF_RESOURCE[resource] ?? `the ${resource}`, error.errors);
  }
  return error;
}

/** `<what> is invalid:` and every field error on its own line. */
export function fieldUsageError(what: string, errors: readonly FieldError[]): UsageError {
  return new UsageError(
    `${what} is invalid:\n${errors.map((error) => `${error.field}: ${error.reason}`).join('\n')}`,
  );
}
