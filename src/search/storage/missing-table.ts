import type Database from 'better-sqlite3';

/**
 * Creates `table` by `schema` (its table, indexes and triggers) in a file that lacks it, in one
 * transaction. A derived table added this way needs no new index format: a version without it
 * never reads it, and the triggers in `schema` keep it right under that version's writes too.
 */
export function addTableWhereMissing(db: Database.Database, table: string, schema: string): void {
  const present = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (present === undefined) db.transaction(() => db.exec(schema)).immediate();
}
