import type { InstantCrawlerSetting } from '../domain/schemas.js';
import { SecretBox } from './secret-box.js';

/**
 * The Basic passwords of a crawler setting (`authorizations[].password`) are needed to crawl, so
 * they are encrypted rather than hashed: the stores seal them on write and open them on read, and
 * everything above the store sees the setting as the operator gave it.
 */

const PURPOSE = 'setting-password';

/**
 * The setting as stored: every password sealed (null and absent passwords stay as they are). A
 * given password that looks sealed is sealed too: only the store's own values are ever opened.
 */
export function sealSettingPasswords(setting: InstantCrawlerSetting, box: SecretBox): InstantCrawlerSetting {
  return mapPasswords(setting, (password) => box.seal(password, PURPOSE));
}

/** A stored setting with its legacy plain passwords sealed and its sealed ones kept (migration). */
export function sealPlainPasswords(setting: InstantCrawlerSetting, box: SecretBox): InstantCrawlerSetting {
  return mapPasswords(setting, (password) =>
    SecretBox.isSealed(password) ? password : box.seal(password, PURPOSE),
  );
}

/** The setting as given: sealed passwords opened, legacy plain ones kept. */
export function openSettingPasswords(setting: InstantCrawlerSetting, box: SecretBox): InstantCrawlerSetting {
  return mapPasswords(setting, (password) => box.openOrPlain(password, PURPOSE));
}

/** Whether any password of the setting is stored in plain text (written before encryption). */
export function hasPlainPassword(setting: InstantCrawlerSetting): boolean {
  return (setting.authorizations ?? []).some(
    (entry) => typeof entry.password === 'string' && !SecretBox.isSealed(entry.password),
  );
}

/** Opens each sealed password of the setting, to prove the key is the one that sealed them. */
export function checkSettingPasswords(setting: InstantCrawlerSetting, box: SecretBox): void {
  for (const entry of setting.authorizations ?? []) {
    if (typeof entry.password === 'string' && SecretBox.isSealed(entry.password))
      box.open(entry.password, PURPOSE);
  }
}

/** The JSON of a setting with its passwords sealed, for a setting_json column. */
export function storedSettingJson(setting: InstantCrawlerSetting, box: SecretBox): string {
  return JSON.stringify(sealSettingPasswords(setting, box));
}

/** A setting_json column back to the setting with its passwords opened. */
export function settingFromStoredJson(json: string, box: SecretBox): InstantCrawlerSetting {
  return openSettingPasswords(JSON.parse(json) as InstantCrawlerSetting, box);
}

/**
 * SQL condition (on a `setting_json` column) of rows that may hold a plain password: a cheap text
 * test first, then the exact test on each authorization with the `kumo_is_sealed` function.
 */
export function plainPasswordCondition(column: string): string {
  return `instr(${column}, '"password":"') > 0 AND EXISTS (
    SELECT 1 FROM json_each(${column}, '$.authorizations') AS auth
    WHERE json_type(auth.value, '$.password') = 'text'
      AND NOT kumo_is_sealed(json_extract(auth.value, '$.password')))`;
}

/** SQL condition of rows holding at least one sealed password. */
export function sealedPasswordCondition(column: string): string {
  return `instr(${column}, '"password":"v1:') > 0`;
}

function mapPasswords(
  setting: InstantCrawlerSetting,
  map: (password: string) => string,
): InstantCrawlerSetting {
  if (!setting.authorizations?.some((entry) => typeof entry.password === 'string')) return setting;
  return {
    ...setting,
    authorizations: setting.authorizations.map((entry) =>
      typeof entry.password === 'string' ? { ...entry, password: map(entry.password) } : entry,
    ),
  };
}
