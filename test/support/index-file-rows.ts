/**
 * Reading and changing an index file's rows from outside Kumo, as another process or an older
 * version would: for tests of what the file holds and of how an open copes with it.
 */
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
