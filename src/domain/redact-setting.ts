import type { InstantCrawlerSetting } from './crawl-setting-schema.js';
import type { FieldError } from './field-error.js';

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

/**
 * A setting given back by a client that read it redacted (GET, edit, PUT): a password of
 * `********` keeps the password stored at the same position of `authorizations`, provided that
 * entry keeps its user; anything else there is an error (the password must be given). Without a
 * stored setting (a new one) `********` is always an error, so a copied answer cannot create a
 * setting whose password is eight asterisks.
 */
export function restoreRedactedPasswords(
  setting: InstantCrawlerSetting,
  stored: InstantCrawlerSetting | undefined,
  field: string,
): { setting: InstantCrawlerSetting; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!setting.authorizations?.some((entry) => entry.password === REDACTED)) return { setting, errors };
  const authorizations = setting.authorizations.map((entry, index) => {
    if (entry.password !== REDACTED) return entry;
    const kept = stored?.authorizations?.[index];
    // Only for the same user and the same URLs: a stored password never goes to another host.
    if (
      typeof kept?.password === 'string' &&
      (kept.user ?? null) === (entry.user ?? null) &&
      (kept.url_pattern ?? null) === (entry.url_pattern ?? null)
    ) {
      return { ...entry, password: kept.password };
    }
    errors.push({
      field: `${field}.authorizations[${index}].password`,
      reason:
        stored === undefined
          ? `"${REDACTED}" stands for a stored password and there is none here; give the password`
          : `"${REDACTED}" keeps the stored password only for an entry whose user and url_pattern are unchanged; give the password`,
    });
    return entry;
  });
  return { setting: { ...setting, authorizations }, errors };
}
