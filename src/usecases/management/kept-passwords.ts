import { credentialDestinationChange } from '../../crawler/index.js';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import { type FieldError, REDACTED } from '../../domain/index.js';

/**
 * A setting given back by a client that read it redacted (GET, edit, PUT): a password of
 * `********` keeps the password stored at the same position of `authorizations`, provided that
 * entry keeps its user and the password would go to the same hosts as before
 * (docs/security.md, Stored passwords): an update that could send it elsewhere must carry the
 * password again, so only whoever knows it can send it to a new host. Without a stored setting
 * (a new one) `********` is always an error, so a copied answer cannot create a setting whose
 * password is eight asterisks.
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
    const outcome = keptPassword(setting, stored, index);
    if ('password' in outcome) return { ...entry, password: outcome.password };
    errors.push({ field: `${field}.authorizations[${index}].password`, reason: outcome.refusal });
    return entry;
  });
  return { setting: { ...setting, authorizations }, errors };
}

/** The stored password `********` keeps at `authorizations[index]`, or why it keeps none. */
function keptPassword(
  setting: InstantCrawlerSetting,
  stored: InstantCrawlerSetting | undefined,
  index: number,
): { password: string } | { refusal: string } {
  const kept = stored?.authorizations?.[index];
  if (stored === undefined || typeof kept?.password !== 'string') {
    return {
      refusal: `"${REDACTED}" stands for a stored password and there is none here; give the password`,
    };
  }
  if ((kept.user ?? null) !== (setting.authorizations?.[index]?.user ?? null)) {
    return {
      refusal: `"${REDACTED}" keeps the stored password only for the same user; the user changed; enter the password again`,
    };
  }
  const change = credentialDestinationChange(stored, setting, index);
  if (change !== undefined) {
    return {
      refusal: `the hosts this password may be sent to changed (${change}); enter the password again`,
    };
  }
  return { password: kept.password };
}
