import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type InstantCrawlerSetting, InstantCrawlerSettingSchema } from './crawl-setting-schema.js';
import { checkCrawlSetting } from './crawl-settings.js';
import type { FieldError } from './field-error.js';
import { schemaFieldErrors } from './schema-errors.js';

const compiled = TypeCompiler.Compile(InstantCrawlerSettingSchema);

/**
 * Validates a setting outside the HTTP layer (CLI, admin): the same schema the API uses, then
 * the rules the schema cannot express.
 */
export function validateCrawlSetting(input: unknown, fieldPrefix = 'setting'): FieldError[] {
  const errors = schemaFieldErrors(compiled, input, fieldPrefix);
  if (errors.length > 0) return errors;
  return checkCrawlSetting(input as InstantCrawlerSetting, fieldPrefix);
}
