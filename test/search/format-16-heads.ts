import type Database from 'better-sqlite3';

/**
 * Takes a current index file back to format 16, for tests that make an older file from a current
 * one: no counts of main text keys, and the heads index without the language and hash.
 */
export function undoFormat17(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`
      DROP TRIGGER display_heads_count_key;
      DROP TRIGGER display_heads_uncount_key;
      DROP TRIGGER display_heads_recount_key;
      DROP TABLE same_text_keys;
      DROP INDEX documents_heads;
      CREATE INDEX documents_heads ON documents (id, url, title, last_modified, doctype);
      UPDATE index_meta SET value = '16' WHERE key = 'schema';
    `);
  })();
}
