/**
 * One 400 naming every bad field of a body (docs/api.md, Common rules): the fields its schema
 * refuses and the rules the schema cannot express (a seed that is not http(s), a pattern that does
 * not compile) alike. Without this, a schema error would hide every rule error: a bad `depth_limit`
 * would be answered alone, and the client would learn of its ftp:// seed only on the next try.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { type FieldError, InvalidInputError } from '../domain/index.js';
import { toFieldErrors } from './validation-errors.js';

/**
 * The option of a route whose body has rules beyond its schema: a schema failure is attached to
 * the request instead of answered at once, and the handler calls failOnBodyErrors first.
 */
export const ATTACH_VALIDATION = { attachValidation: true } as const;

/** The rule errors of what is left of a body once the fields its schema refused are taken out. */
export type BodyRules = (rest: unknown) => Promise<readonly FieldError[]>;

interface ValidationFailure extends Error {
  validation?: FastifySchemaValidationError[];
  validationContext?: string;
}

/**
 * On a route with ATTACH_VALIDATION, when the schema refused the request: throws one
 * InvalidInputError with the schema's errors, then those of `rules` over the rest of the body
 * (fields named as the schema's are: without `body.`). A failure of another part (path, query)
 * is thrown as it is. Does nothing when the request passed its schema.
 */
export async function failOnBodyErrors(request: FastifyRequest, rules: BodyRules): Promise<void> {
  const failure = request.validationError as ValidationFailure | undefined;
  if (failure === undefined) return;
  if (failure.validationContext !== 'body' || failure.validation === undefined) throw failure;
  const schemaErrors = toFieldErrors(failure.validation, 'body');
  let ruleErrors: readonly FieldError[] = [];
  try {
    ruleErrors = await rules(withoutRefusedFields(request.body, failure.validation));
  } catch (error) {
    // A rule that cannot read what is left (a required field was refused) adds nothing: the
    // schema's errors are answered, as before the rules ran at all.
    if (error instanceof InvalidInputError) ruleErrors = error.errors;
  }
  // A check that reads the schema again (a crawl setting's) finds the refused fields missing: an
  // error on a refused field, inside it or around it, says nothing the schema's did not.
  const added = ruleErrors.filter(
    (rule) =>
      !schemaErrors.some((schema) => within(rule.field, schema.field) || within(schema.field, rule.field)),
  );
  throw new InvalidInputError([...schemaErrors, ...added]);
}

/**
 * A copy of the body without the fields the schema refused: an unknown field, and a field with a
 * refused value (a whole list for a refused item, so what the rules read has the schema's types).
 */
function withoutRefusedFields(body: unknown, errors: readonly FastifySchemaValidationError[]): unknown {
  const rest: unknown = structuredClone(body);
  for (const error of errors) {
    if (error.keyword === 'required') continue;
    const path = error.instancePath.split('/').slice(1).map(unescapePointer);
    if (error.keyword === 'additionalProperties') {
      path.push(String((error.params as { additionalProperty?: unknown }).additionalProperty));
    }
    while (path.length > 0 && /^\d+$/.test(path[path.length - 1]!)) path.pop();
    const name = path.pop();
    if (name === undefined) continue;
    const parent = path.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), rest);
    if (isRecord(parent) && !Array.isArray(parent)) Reflect.deleteProperty(parent, name);
  }
  return rest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A JSON pointer segment as the key it names. */
function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Whether `field` is `outer` or a field inside it (`a.b[0]` is inside `a.b`). */
function within(field: string, outer: string): boolean {
  return field === outer || field.startsWith(`${outer}.`) || field.startsWith(`${outer}[`);
}
