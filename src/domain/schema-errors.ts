import type { TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import type { TSchema } from '@sinclair/typebox';
import { allowedValuesReason } from './allowed-values.js';
import { unknownFieldReason } from './closest-name.js';
import type { FieldError } from './field-error.js';

const MAX_ERRORS = 20;

/**
 * The schema violations of `input` as field errors (`setting.seed_urls[0]`), for validation
 * outside the HTTP layer (CLI, admin) with the same schemas the API uses.
 */
export function schemaFieldErrors<T extends TSchema>(
  compiled: TypeCheck<T>,
  input: unknown,
  fieldPrefix: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const outer of compiled.Errors(input)) {
    const choices = literalReason(outer);
    const error = choices === undefined ? innermost(outer) : outer;
    const path = error.path.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
    const field = fieldPrefix === '' ? path.replace(/^\./, '') || '(document)' : `${fieldPrefix}${path}`;
    errors.push({
      field,
      reason: choices ?? literalReason(error) ?? unknownReason(error) ?? error.message,
    });
    if (errors.length >= MAX_ERRORS) break;
  }
  return errors;
}

/**
 * Every optional field is `T | null`, whose own message is "Expected union value"; the useful
 * error is the failure inside the non-null branch (e.g. "Expected integer to be less or equal to
 * 64"), with its own path (`/screenshot/viewport_width`, not `/screenshot`).
 */
function innermost(error: ValueError): ValueError {
  for (const branch of error.errors) {
    for (const inner of branch) {
      if (inner.message !== 'Expected null') return innermost(inner);
    }
  }
  return error;
}

/** An unknown field's reason, naming the closest field its object has (docs/api.md, Common rules).
 */
function unknownReason(error: ValueError): string | undefined {
  if (error.type !== ValueErrorType.ObjectAdditionalProperties) return undefined;
  const name = error.path
    .slice(error.path.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  const properties = (error.schema as { properties?: Record<string, unknown> }).properties;
  return unknownFieldReason(name, Object.keys(properties ?? {}));
}

/**
 * A value outside a literal or a union of literals (optionally `| null`) names every allowed
 * value, where TypeBox would name only the first literal ("Expected 'a'").
 */
function literalReason(error: ValueError): string | undefined {
  const schema = error.schema as { const?: unknown; anyOf?: unknown };
  if ('const' in schema) return allowedValuesReason([schema.const]);
  if (!Array.isArray(schema.anyOf)) return undefined;
  const members = schema.anyOf as Record<string, unknown>[];
  const literals = members.filter((member) => 'const' in member);
  const onlyLiterals = members.every((member) => 'const' in member || member.type === 'null');
  if (literals.length === 0 || !onlyLiterals) return undefined;
  return allowedValuesReason(literals.map((member) => member.const));
}
