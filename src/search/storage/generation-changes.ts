import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * What a publishing writer changed in its index file since its last publication
 * (docs/design/scale-out.md, Generations as objects). Triggers of the file record the primary key
 * of every row inserted, updated or removed, in the transaction of the change itself, so a process
 * that dies between a run and its publication loses no change: the next publication carries it.
 * A segment's postings are written once when it is made and removed with it, so for the tables of
 * its body the triggers record the segment, not each of its rows.
 */

/** The table of recorded changes: a key per changed row, or per changed segment body. */
export const CHANGES_TABLE = 'generation_changes';
const TRIGGER_PREFIX = 'generation_change_';
/** The tables whose rows travel with their segment (`segment_id`), never one at a time. */
export const SEGMENT_BODY_TABLES: readonly string[] = [
  'segment_terms',
  'segment_term_positions',
  'segment_columns',
];
/** The name changes of a segment's body are recorded under. */
export const SEGMENT_BODY = '#segment';
/** The widest primary key of an index table (three columns); shorter keys are padded with 0. */
const KEY_WIDTH = 3;

/** A table of the index as a change names it: its columns and its primary key's, in key order. */
export interface IndexTable {
  name: string;
  columns: string[];
  key: string[];
}

export const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const quoteText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** Every table of the file but the changes table, with its columns and primary key. */
export function indexTables(db: Database.Database): IndexTable[] {
  const names = db
    .prepare(
      `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name <> ? ORDER BY name`,
    )
    .pluck()
    .all(CHANGES_TABLE) as string[];
  return names.map((name) => {
    const columns = db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as {
      name: string;
      pk: number;
    }[];
    const key = columns
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => column.name);
    if (key.length === 0 || key.length > KEY_WIDTH)
      throw new Error(
        `index table ${name} has a primary key of ${key.length} columns: changes cannot name its rows`,
      );
    return { name, columns: columns.map((column) => column.name), key };
  });
}

/**
 * A digest of the file's schema (tables, indexes, triggers; the changes' own left out): a change
 * recorded against one schema applies only to a copy of that schema.
 */
export function schemaDigest(db: Database.Database): string {
  const rows = db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM sqlite_schema
        WHERE name NOT LIKE ? AND name <> ? ORDER BY type, name`,
    )
    .all(`${TRIGGER_PREFIX}%`, CHANGES_TABLE);
  const version = db.pragma('user_version', { simple: true });
  return createHash('sha256')
    .update(JSON.stringify([version, rows]))
    .digest('hex');
}

/**
 * Makes the file record its changes from now on: the changes table, and a trigger per table and
 * kind of change (existing ones kept, so it is also how a table made later gets its triggers).
 * A key recorded again is marked unpublished again, for a row that changes once more while it
 * is being published (see `markPublishing`). An upsert, not `INSERT OR REPLACE`: the conflict
 * clause of the statement that fires a trigger overrides its trigger's own.
 */
export function recordChanges(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS ${CHANGES_TABLE} (
      tbl TEXT NOT NULL, k1 NOT NULL, k2 NOT NULL, k3 NOT NULL, publishing INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tbl, k1, k2, k3)) WITHOUT ROWID`);
    for (const table of indexTables(db)) db.exec(triggersOf(table));
  })();
}

/** Stops recording: the triggers and the changes table go (a published base snapshot holds neither). */
export function stopRecordingChanges(db: Database.Database): void {
  db.transaction(() => {
    for (const trigger of recordingTriggers(db)) db.exec(`DROP TRIGGER ${quoteName(trigger)}`);
    db.exec(`DROP TABLE IF EXISTS ${CHANGES_TABLE}`);
  })();
}

/**
 * Whether the file records every change: its changes table is there and every table has its
 * triggers (none the first time, and a table made after recording began has none).
 */
export function recordsEveryChange(db: Database.Database): boolean {
  if (db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(CHANGES_TABLE) === undefined) return false;
  const triggers = new Set(recordingTriggers(db));
  return indexTables(db).every((table) =>
    ['insert', 'update', 'delete'].every((kind) => triggers.has(triggerName(table.name, kind))),
  );
}

/** Marks every recorded change as the one being published. */
export function markPublishing(db: Database.Database): void {
  db.prepare(`UPDATE ${CHANGES_TABLE} SET publishing = 1`).run();
}

/** Forgets the published changes (those marked and not changed again since). */
export function forgetPublished(db: Database.Database): void {
  db.prepare(`DELETE FROM ${CHANGES_TABLE} WHERE publishing = 1`).run();
}

const triggerName = (table: string, kind: string): string => `${TRIGGER_PREFIX}${table}_${kind}`;

function recordingTriggers(db: Database.Database): string[] {
  return db
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE ?`)
    .pluck()
    .all(`${TRIGGER_PREFIX}%`) as string[];
}

function triggersOf(table: IndexTable): string {
  const isBody = SEGMENT_BODY_TABLES.includes(table.name);
  const keyOf = (row: 'NEW' | 'OLD'): string => {
    const values = isBody
      ? [quoteText(SEGMENT_BODY), `${row}.segment_id`]
      : [quoteText(table.name), ...table.key.map((column) => `${row}.${quoteName(column)}`)];
    while (values.length < KEY_WIDTH + 1) values.push('0');
    return `INSERT INTO ${CHANGES_TABLE} (tbl, k1, k2, k3) VALUES (${values.join(', ')})
      ON CONFLICT DO UPDATE SET publishing = 0;`;
  };
  const unchanged = table.columns.map((column) => `OLD.${quoteName(column)} IS NEW.${quoteName(column)}`);
  const on = quoteName(table.name);
  return `
    CREATE TRIGGER IF NOT EXISTS ${quoteName(triggerName(table.name, 'insert'))} AFTER INSERT ON ${on}
      BEGIN ${keyOf('NEW')} END;
    CREATE TRIGGER IF NOT EXISTS ${quoteName(triggerName(table.name, 'update'))} AFTER UPDATE ON ${on}
      WHEN NOT (${unchanged.join(' AND ')})
      BEGIN ${keyOf('OLD')} ${keyOf('NEW')} END;
    CREATE TRIGGER IF NOT EXISTS ${quoteName(triggerName(table.name, 'delete'))} AFTER DELETE ON ${on}
      BEGIN ${keyOf('OLD')} END;`;
}
