import type Database from 'better-sqlite3';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import {
  type SecretBox,
  checkSettingPasswords,
  plainPasswordCondition,
  sealedPasswordCondition,
  sealPlainPasswords,
} from '../../security/index.js';

/** The tables holding a crawler setting (with its passwords) in a `setting_json` column. */
export type SettingTable = 'crawl_requests' | 'service_settings';

/**
 * Encrypts the passwords older versions stored in plain text in `table` (deleted rows too).
 * Returns how many rows changed; run inside the caller's transaction.
 */
export function sealPlainPasswordRows(db: Database.Database, table: SettingTable, box: SecretBox): number {
  const rows = db
    .prepare<[], { id: number; setting_json: string }>(
      `SELECT id, setting_json FROM ${table} WHERE ${plainPasswordCondition('setting_json')}`,
    )
    .all();
  const update = db.prepare(`UPDATE ${table} SET setting_json = ? WHERE id = ?`);
  for (const row of rows) {
    const setting = JSON.parse(row.setting_json) as InstantCrawlerSetting;
    update.run(JSON.stringify(sealPlainPasswords(setting, box)), row.id);
  }
  return rows.length;
}

/**
 * Opens the encrypted passwords of the newest row of `table` that has any, among its latest
 * `window` rows (the check needs one value, not a scan of a long history):
 * SecretKeyMismatchError when the key is not theirs.
 */
export function checkPasswordKey(
  db: Database.Database,
  table: SettingTable,
  box: SecretBox,
  window: number,
): void {
  const json = db
    .prepare<[number], string>(
      `SELECT setting_json FROM (SELECT id, setting_json FROM ${table} ORDER BY id DESC LIMIT ?)
       WHERE ${sealedPasswordCondition('setting_json')} ORDER BY id DESC LIMIT 1`,
    )
    .pluck()
    .get(window);
  if (json !== undefined) checkSettingPasswords(JSON.parse(json) as InstantCrawlerSetting, box);
}
