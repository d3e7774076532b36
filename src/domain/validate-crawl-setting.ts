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
  for (const outer of compiled.Errors(input)) {
    const error = innermost(outer);
    const field = `${fieldPrefix}${error.path.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
    errors.push({ field, reason: error.message });
    if (errors.length >= 20) break;
  }
  if (errors.length > 0) return errors;
  return checkCrawlSetting(input as InstantCrawlerSetting, fieldPrefix);
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
