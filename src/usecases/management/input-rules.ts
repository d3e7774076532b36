import { InvalidInputError, httpUrlProblem } from '../../domain/index.js';

/**
 * The input rules of the management operations that are not the shape of a setting or of a
 * search service configuration (those are the TypeBox schemas of src/domain). The management
 * API's schemas take their bounds from here, so the API, `kumo admin` and the console refuse
 * the same input (docs/api.md, Management API).
 */

/** Names and labels of contracts, service groups, search services, settings and keys. */
export const NAME_MAX_CHARS = 200;
export const WEBHOOK_URL_MAX_CHARS = 2048;
export const WEBHOOK_SECRET_CHARS = { min: 16, max: 256 } as const;
/** Deliveries listed at once: the default and the bounds. */
/** Webhooks a service group may have (docs/reference/webhooks.md, Limits). */
export const MAX_WEBHOOKS_PER_GROUP = 10;
export const DELIVERIES_LIMIT = { fallback: 50, min: 1, max: 200 } as const;

/** `raw` trimmed, or InvalidInputError naming `field` when blank or too long. */
export function requiredName(raw: string, field = 'name'): string {
  const name = raw.trim();
  if (name === '') throw new InvalidInputError([{ field, reason: 'must not be blank' }]);
  return checkedLength(name, field);
}

/** `text`, or InvalidInputError naming `field` when longer than NAME_MAX_CHARS. */
export function checkedLength(text: string, field: string): string {
  if (text.length > NAME_MAX_CHARS) {
    throw new InvalidInputError([{ field, reason: `at most ${NAME_MAX_CHARS} characters` }]);
  }
  return text;
}

/** Why `raw` cannot be a webhook URL: absolute http(s), without credentials, not too long. */
export function webhookUrlProblem(raw: string): string | undefined {
  const problem = httpUrlProblem(raw);
  if (problem === undefined && raw.length > WEBHOOK_URL_MAX_CHARS)
    return `at most ${WEBHOOK_URL_MAX_CHARS} characters`;
  return problem;
}

/** Why `secret` cannot sign webhook deliveries: too short to resist guessing, or too long. */
export function webhookSecretProblem(secret: string): string | undefined {
  const { min, max } = WEBHOOK_SECRET_CHARS;
  if (secret.length < min || secret.length > max)
    return `must be ${min} to ${max} characters, got ${secret.length}`;
  return undefined;
}

/** How many deliveries to list, or InvalidInputError naming `limit`. */
export function deliveriesLimit(limit: number | undefined): number {
  if (limit === undefined) return DELIVERIES_LIMIT.fallback;
  const { min, max } = DELIVERIES_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < min || limit > max) {
    throw new InvalidInputError([
      { field: 'limit', reason: `expected an integer from ${min} to ${max}, got ${limit}` },
    ]);
  }
  return limit;
}
