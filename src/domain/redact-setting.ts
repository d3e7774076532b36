import type { InstantCrawlerSetting } from './crawl-setting-schema.js';

/** What a redacted password reads as. */
export const REDACTED = '********';

/**
 * The setting with the passwords of its authorizations replaced, for every answer that shows a
 * stored setting (the keyless scheduled crawler API, the management API): the rest of the
 * setting stays as stored.
 */
export function redactSetting(setting: InstantCrawlerSetting): InstantCrawlerSetting {
  if (!setting.authorizations) return setting;
  return {
    ...setting,
    authorizations: setting.authorizations.map((entry) =>
      entry.password === null || entry.password === undefined ? entry : { ...entry, password: REDACTED },
    ),
  };
}
