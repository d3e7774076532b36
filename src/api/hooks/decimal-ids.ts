import type { FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../api-error.js';

/** Decimal digits, no leading zero: no sign, exponent, fraction, hex, spaces or `+`. */
const DECIMAL_ID = /^[1-9]\d{0,15}$/;

/**
 * Ids in a path or a query string are decimal integers (docs/reference/README.md, Tenants and path
 * parameters; docs/reference/conventions.md, Requests): the schema's number coercion would also
 * take `0x2`, `2.0`, ` 2`, `+2` or `1e3` (as 1000) as an id, so the raw text is checked first, and
 * a bad one is a 400 naming the parameter. Runs after the route's own hooks (the key and token
 * checks), so a caller without credentials still learns nothing.
 */
export async function checkDecimalIds(request: FastifyRequest): Promise<void> {
  const errors = [
    ...badIds('path', request.params as Record<string, unknown>),
    ...badIds('query', request.query as Record<string, unknown>),
  ];
  if (errors.length > 0)
    throw new ApiError('invalid_input', `${errors[0]!.field}: ${errors[0]!.reason}`, errors);
}

function badIds(part: 'path' | 'query', values: Record<string, unknown> | undefined) {
  return Object.entries(values ?? {})
    .filter(([name]) => name.endsWith('_id'))
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => [name, one] as const))
    .filter(([, value]) => value !== undefined && !(typeof value === 'string' && DECIMAL_ID.test(value)))
    .map(([name, value]) => ({
      field: `${part}.${name}`,
      reason: `"${String(value)}" is not a decimal integer id`,
    }));
}

/** Appends the check to every route with id parameters in its path or query (onRoute hook). */
export function addDecimalIdCheck(route: RouteOptions): void {
  const query = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  const queryIds = Object.keys(query ?? {}).some((name) => name.endsWith('_id'));
  if (!/:[a-z_]*_id\b/.test(route.url) && !queryIds) return;
  const existing = route.preValidation;
  route.preValidation = [
    ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
    checkDecimalIds,
  ];
}
