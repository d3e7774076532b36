/**
 * What an index file holds: its size with the WAL, the free pages left by merges (SQLite does not
 * shrink a file), and the pages of each table and index (dbstat), read over a read-only
 * connection of its own.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface IndexFileSize {
  fileBytes: number;
  walBytes: number;
  freeBytes: number;
  /** Bytes of each table / index by name, largest first; empty when dbstat is missing. */
  objects: { name: string; bytes: number }[];
}

export function indexFileSize(file: string): IndexFileSize {
  const fileBytes = statSync(file).size;
  const walBytes = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const freeBytes = (db.pragma('freelist_count', { simple: true }) as number) * pageSize;
    let objects: { name: string; bytes: number }[] = [];
    try {
      objects = db
        .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
        .all() as { name: string; bytes: number }[];
    } catch {
      // dbstat is a compile-time option of SQLite.
    }
    return { fileBytes, walBytes, freeBytes, objects };
  } finally {
    db.close();
  }
}
