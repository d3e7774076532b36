import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifySchema } from 'fastify';

/**
 * Two Ajv instances: bodies are JSON and must carry the right types (a string "3" where an integer
 * belongs is a 400), while query strings and path parameters only exist as text and are coerced.
 * Neither removes unknown fields: an unknown field is a 400 naming it
 * (docs/reference/conventions.md, Requests). Both report every error, each with the schema it
 * failed (verbose), so an unknown field names the closest known field of its object (docs/api.md,
 * Common rules).
 */
const bodyAjv = new Ajv({
  allErrors: true,
  verbose: true,
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: false,
  strict: false,
});
const textAjv = new Ajv({
  allErrors: true,
  verbose: true,
  removeAdditional: false,
  coerceTypes: 'array',
  useDefaults: true,
  strict: false,
});

/**
 * The validator of one part of a route, compiled on the route's first request: Fastify asks for
 * every route's validators (HEAD routes included) at start, and compiled they hold a few MB that an
 * idle service never uses (docs/operations.md, Memory).
 */
export function compileValidator(route: { schema: FastifySchema; httpPart?: string }): ValidateFunction {
  return lazyValidator(() => (route.httpPart === 'body' ? bodyAjv : textAjv).compile(route.schema as object));
}

/**
 * Stands for the validator `compile` makes, compiling it on first use. Fastify reads `schemaEnv`
 * (to pass Ajv the parent of the value, so coercion can replace it) and `errors` after a failed
 * call: both are the compiled validator's.
 */
function lazyValidator(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validator = () => (compiled ??= compile());
  const validate = (...args: Parameters<ValidateFunction>) => validator()(...args);
  Object.defineProperties(validate, {
    errors: { get: () => validator().errors },
    schema: { get: () => validator().schema },
    schemaEnv: { get: () => validator().schemaEnv },
  });
  return validate as ValidateFunction;
}
