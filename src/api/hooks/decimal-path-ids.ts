import type { FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../api-error.js';

const DECIMAL_ID = /^[1-9]\d{0,15}$/;

/**
 * Path ids are decimal integers (docs/reference/README.md, Tenants and path parameters): the
 * schema's number coercion would also take `0x2`, `2.0` or `1e3` as an id, so the raw text is
 * checked first. Runs after the route's own hooks (the key and token checks), so a caller without
 * credentials still learns nothing.
 */
export async function checkDecimalPathIds(request: FastifyRequest): Promise<void> {
  const params = request.params as Record<string, string | undefined>;
  const errors = Object.entries(params)
    .filter(([name, value]) => name.endsWith('_id') && value !== undefined && !DECIMAL_ID.test(value))
    .map(([name, value]) => ({ field: `path.${name}`, reason: `"${value}" is not a decimal integer id` }));
  if (errors.length > 0)
    throw new ApiError('invalid_input', `${errors[0]!.field}: ${errors[0]!.reason}`, errors);
}

/** Appends the check to every route that has id parameters (use with the onRoute hook). */
export function addDecimalPathIdCheck(route: RouteOptions): void {
  if (!/:[a-z_]*_id\b/.test(route.url)) return;
  const existing = route.preValidation;
  route.preValidation = [
    ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
    checkDecimalPathIds,
  ];
}
