import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import { type InstantCrawlerSetting, InstantCrawlerSettingSchema } from './crawl-setting-schema.js';
import { checkCrawlSetting } from './crawl-settings.js';
import type { FieldError } from './field-error.js';

const compiled = TypeCompiler.Compile(InstantCrawlerSettingSchema);

/**
 * Validates a setting outside the HTTP layer (CLI, admin): the same schema the API uses, then
 * the rules the schema cannot express.
 */
export function validateCrawlSetting(input: unknown, fieldPrefix = 'setting'): FieldError[] {
  const errors: FieldError[] = [];
  for (const error of compiled.Errors(input)) {
    const field = `${fieldPrefix}${error.path.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
    errors.push({ field, reason: reasonOf(error) });
    if (errors.length >= 20) break;
  }
  if (errors.length > 0) return errors;
  return checkCrawlSetting(input as InstantCrawlerSetting, fieldPrefix);
}

/**
 * Every optional field is `T | null`, whose own message is "Expected union value"; the useful
 * reason is the failure inside the non-null branch (e.g. "Expected integer to be less or equal to 64").
 */
function reasonOf(error: ValueError): string {
  for (const branch of error.errors) {
    for (const inner of branch) {
      if (inner.message !== 'Expected null') return reasonOf(inner);
    }
  }
  return error.message;
}
