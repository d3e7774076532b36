/**
 * Reading and changing an index file's rows from outside Kumo, as another process or an older
 * version would: for tests of what the file holds and of how an open copes with it.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/** The rows `sql` selects from `file`, on a read-only connection of their own. */
export function fileRows<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Runs `sql` on `file` in a connection of its own, closed before this returns. */
export function changeFile(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/**
 * A digest of each table's rows in key order (those `where` keeps, per table), by table name: two
 * files hold the same rows when their digests are equal, whatever their pages.
 */
export function tableDigests(file: string, where: Record<string, string> = {}): Map<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
      )
      .pluck()
      .all() as string[];
    const digests = new Map<string, string>();
    for (const table of tables.sort()) {
      const hash = createHash('sha256');
      const key = db
        .prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk')
        .pluck()
        .all(table) as string[];
      const order = key.length > 0 ? key.map((column) => `"${column}"`).join(', ') : 'rowid';
      const only = where[table] === undefined ? '' : `WHERE ${where[table]}`;
      for (const row of db
        .prepare(`SELECT * FROM "${table}" ${only} ORDER BY ${order}`)
        .raw()
        .iterate() as Iterable<unknown[]>)
        hash.update(
          JSON.stringify(row.map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : value))),
        );
      digests.set(table, hash.digest('hex'));
    }
    return digests;
  } finally {
    db.close();
  }
}

/** Which generation a file was published as is the file's own; every other row a node's copy shares. */
const SHARED_ROWS = { index_meta: "key <> 'published_generation'" };

/** The rows of a node's copy of a published generation (tableDigests). */
export function generationCopyDigests(file: string): Map<string, string> {
  return tableDigests(file, SHARED_ROWS);
}

/** The rows of a writer's index file, its record of changes left out (a published copy holds none). */
export function writerFileDigests(file: string): Map<string, string> {
  const digests = tableDigests(file, SHARED_ROWS);
  digests.delete('generation_changes');
  return digests;
}
