import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { allowedValuesReason, unknownFieldReason, type FieldError } from '../domain/index.js';

/** Fastify's names of request parts, as the field paths of error bodies write them. */
const PART_NAMES: Record<string, string> = {
  querystring: 'query',
  params: 'path',
  headers: 'header',
  body: 'body',
};

/**
 * Turns Ajv errors into `{field, reason}` pairs with the field written as a path
 * (`setting.seed_urls[0]`, `query.instant_crawl_request_ids`).
 */
export function toFieldErrors(
  errors: readonly FastifySchemaValidationError[],
  context: string,
): FieldError[] {
  const part = PART_NAMES[context] ?? context;
  const prefix = part === 'body' ? '' : `${part}.`;
  const result: FieldError[] = [];
  const seen = new Set<string>();
  const choices = literalChoices(errors);
  for (const error of errors) {
    // A failed branch of a `type | null` union repeats the real error; keep the informative one.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const params = error.params as Record<string, unknown>;
    let field = `${prefix}${pathOf(error.instancePath)}`;
    let reason = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const name = String(params.additionalProperty);
      field = joinField(field, name);
      reason = unknownFieldReason(name, knownFields(error));
    } else if (error.keyword === 'required') {
      field = joinField(field, String(params.missingProperty));
      reason = 'is required';
    } else if (error.keyword === 'type' && String(params.type) === 'null') {
      continue;
    } else if (error.keyword === 'const') {
      reason = allowedValuesReason(choices.get(choiceKey(error)) ?? [params.allowedValue]);
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      reason = allowedValuesReason(params.allowedValues);
    }
    const key = `${field}\u0000${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ field: field.replace(/\.$/, '') || part, reason });
  }
  return result;
}

/**
 * The fields the object of an `additionalProperties` error has: the validators are verbose
 * (validator-compiler.ts), so each error carries the schema it failed.
 */
function knownFields(error: FastifySchemaValidationError): string[] {
  const parent = (error as { parentSchema?: { properties?: Record<string, unknown> } }).parentSchema;
  return Object.keys(parent?.properties ?? {});
}

/**
 * A union of literals (`Type.Union([Type.Literal('a'), Type.Literal('b')])`) fails with one
 * `const` error per literal, each saying only "must be equal to constant"; gathered by value and
 * union, they make one reason naming every allowed value.
 */
function literalChoices(errors: readonly FastifySchemaValidationError[]): Map<string, unknown[]> {
  const choices = new Map<string, unknown[]>();
  for (const error of errors) {
    if (error.keyword !== 'const') continue;
    const key = choiceKey(error);
    const values = choices.get(key) ?? [];
    values.push((error.params as { allowedValue?: unknown }).allowedValue);
    choices.set(key, values);
  }
  return choices;
}

/** The value and the union a `const` error belongs to: `/file` and `#/properties/file/anyOf`. */
function choiceKey(error: FastifySchemaValidationError): string {
  return `${error.instancePath}\u0000${error.schemaPath.replace(/\/\d+\/const$|\/const$/, '')}`;
}

function pathOf(instancePath: string): string {
  return instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

function joinField(base: string, name: string): string {
  if (base === '' || base.endsWith('.')) return `${base}${name}`;
  return `${base}.${name}`;
}
