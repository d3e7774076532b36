import type Database from 'better-sqlite3';

/**
 * Format 17 (docs/design/scheduling-feeding-webhooks.md, Pages with the same text are one result,
 * grouped per generation, collapsed per search): how many display heads hold each main text key,
 * counted by triggers as heads are written, changed and removed, with a partial index of the keys
 * more than one head holds. Each new generation reads its groups of pages with the same text
 * (display-head-rows.ts, sameTextRows) from that index, where counting every head's key read the
 * whole index of keys: 225 ms at each generation of a million pages, however few of them had
 * copies. A head is written by an upsert, never INSERT OR REPLACE, whose deletes fire no trigger.
 */
export const SAME_TEXT_KEYS_SCHEMA = `
  CREATE TABLE same_text_keys (main_key BLOB PRIMARY KEY, pages INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX same_text_keys_shared ON same_text_keys (main_key, pages) WHERE pages > 1;
  CREATE TRIGGER display_heads_count_key AFTER INSERT ON display_heads
    WHEN new.main_key IS NOT NULL BEGIN
    INSERT INTO same_text_keys (main_key, pages) VALUES (new.main_key, 1)
      ON CONFLICT (main_key) DO UPDATE SET pages = pages + 1;
  END;
  CREATE TRIGGER display_heads_uncount_key AFTER DELETE ON display_heads
    WHEN old.main_key IS NOT NULL BEGIN
    UPDATE same_text_keys SET pages = pages - 1 WHERE main_key = old.main_key;
    DELETE FROM same_text_keys WHERE main_key = old.main_key AND pages <= 0;
  END;
  CREATE TRIGGER display_heads_recount_key AFTER UPDATE OF main_key ON display_heads
    WHEN old.main_key IS NOT new.main_key BEGIN
    UPDATE same_text_keys SET pages = pages - 1 WHERE main_key = old.main_key;
    DELETE FROM same_text_keys WHERE main_key = old.main_key AND pages <= 0;
    INSERT INTO same_text_keys (main_key, pages) SELECT new.main_key, 1 WHERE new.main_key IS NOT NULL
      ON CONFLICT (main_key) DO UPDATE SET pages = pages + 1;
  END;
`;

/**
 * Adds the counts to a file without them, counting the heads it holds: a new file, or one of an
 * older format inside its upgrade's transaction, once its heads are format 16's.
 */
export function addSameTextKeys(db: Database.Database): void {
  const present = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'same_text_keys'")
    .get();
  if (present !== undefined) return;
  db.exec(`
    ${SAME_TEXT_KEYS_SCHEMA}
    INSERT INTO same_text_keys (main_key, pages)
      SELECT main_key, count(*) FROM display_heads WHERE main_key IS NOT NULL GROUP BY main_key;
  `);
}
