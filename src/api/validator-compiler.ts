import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifySchema } from 'fastify';

/**
 * Two Ajv instances: bodies are JSON and must carry the right types (a string "3" where an integer
 * belongs is a 400), while query strings and path parameters only exist as text and are coerced.
 * Neither removes unknown fields: an unknown field is a 400 naming it
 * (docs/reference/conventions.md, Requests).
 */
const bodyAjv = new Ajv({
  allErrors: true,
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: false,
  strict: false,
});
const textAjv = new Ajv({
  allErrors: true,
  removeAdditional: false,
  coerceTypes: 'array',
  useDefaults: true,
  strict: false,
});

export function compileValidator({
  schema,
  httpPart,
}: {
  schema: FastifySchema;
  httpPart?: string;
}): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
}
