import type Database from 'better-sqlite3';

/**
 * Format 16 (docs/design/search-engine.md, Documents and their state): what changes about an
 * indexed document while its text does not, in a narrow table of its own. Where it is indexed
 * (segment and ordinal) changes at every merge of its segment, and how many pages of the last
 * pass link to it at the end of every pass. In `documents` these sat beside the text, and a row
 * of a few KB fills most of a 16 KB page: changing them rewrote a page a document, so a merge of
 * 500,000 documents wrote 8 GB of write-ahead log for its placements alone. Here a page holds
 * hundreds of them.
 *
 * Every document has its row from the moment it is inserted (segment and ordinal -1 until it is
 * placed); removing the document removes the row.
 */
export const DOCUMENT_STATE_SCHEMA = `
  CREATE TABLE document_state (
    id INTEGER PRIMARY KEY,
    segment_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    inbound_links INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX document_state_segment ON document_state (segment_id, ordinal);
  CREATE TRIGGER documents_drop_state AFTER DELETE ON documents BEGIN
    DELETE FROM document_state WHERE id = old.id;
  END;
`;

/**
 * What opening an index and computing a segment's columns read of each document (segment-columns.ts),
 * and what a new generation reads of the pages with the same text (display-head-rows.ts): URL,
 * title, date, type, language and the hash of its text by id, from this index alone, as they lie
 * after the body in a document's row. Unlike the index it replaces (by segment and ordinal), a
 * merge does not move its entries. Format 16 had it without the language and hash.
 */
export const DOCUMENT_HEADS_INDEX =
  'CREATE INDEX documents_heads ON documents (id, url, title, last_modified, doctype, language, content_hash)';

/**
 * Gives a file of format 16 the heads index of format 17, inside its upgrade's transaction (a
 * file of an older format gets it from moveDocumentState). Building it reads every document's
 * row once.
 */
export function widenDocumentHeads(db: Database.Database): void {
  const definition = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'documents_heads'")
    .pluck()
    .get() as string | undefined;
  if (definition?.includes('content_hash') === true) return;
  db.exec(`DROP INDEX IF EXISTS documents_heads; ${DOCUMENT_HEADS_INDEX}`);
}

/**
 * Brings a file of format 15 or older to format 16, inside its upgrade's transaction, after its
 * other tables are format 15's: the state is copied out of `documents`, and the indexes by
 * placement go. The old columns stay in the rows, never read again: dropping them would have
 * SQLite write every row once per column, with as much again in its journals (a million-page
 * file of 22 GB wrote over 100 GB for it). They only get defaults, so that inserts may leave
 * them out (withPlacementDefaults). Nothing to do on a file that has the table.
 */
export function moveDocumentState(db: Database.Database): void {
  const present = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'document_state'")
    .get();
  if (present !== undefined) return;
  const columns = db.prepare("SELECT name FROM pragma_table_info('documents')").pluck().all();
  // A file older than format 11 has no link counts.
  const hasLinks = columns.includes('inbound_links');
  db.exec(DOCUMENT_STATE_SCHEMA);
  db.exec(`
    INSERT INTO document_state (id, segment_id, ordinal, inbound_links)
      SELECT id, segment_id, ordinal, ${hasLinks ? 'inbound_links' : '0'} FROM documents;
    DROP INDEX IF EXISTS documents_summary;
    DROP INDEX IF EXISTS documents_segment;
    ${DOCUMENT_HEADS_INDEX};
  `);
  withPlacementDefaults(db);
}

/** A column of the placement that `documents` kept until format 15, without a default. */
const PLACEMENT_WITHOUT_DEFAULT = /\b(segment_id|ordinal)(\s+INTEGER\s+NOT\s+NULL)(?=\s*[,)])/g;

/**
 * Gives the placement columns left in `documents` a default of -1, by the way SQLite documents
 * for schema changes that leave every stored row as it is (adding or changing a column's
 * default): the table's definition is edited in `sqlite_schema`, and the schema's version raised
 * so that every connection reads it again. Its rows all hold the columns, since the table was
 * created with them, so the default changes no value read.
 */
function withPlacementDefaults(db: Database.Database): void {
  const definition = editDocumentsDefinition(db, (sql) =>
    sql.replace(PLACEMENT_WITHOUT_DEFAULT, '$1$2 DEFAULT -1'),
  );
  // Refused rather than left to fail every insert: the upgrade's transaction leaves the file as it was.
  const undefaulted = db
    .prepare(
      "SELECT name FROM pragma_table_info('documents') WHERE name IN ('segment_id', 'ordinal') AND dflt_value IS NULL",
    )
    .pluck()
    .all();
  if (undefaulted.length > 0)
    throw new Error(`documents.${undefaulted.join(', ')} could not be given a default: ${definition}`);
}

/**
 * Edits `documents`' definition, for a change SQLite allows without rewriting any row (a
 * column's default or NOT NULL), when `edit` changes it; answers the definition before.
 */
export function editDocumentsDefinition(db: Database.Database, edit: (definition: string) => string): string {
  const definition = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'documents'")
    .pluck()
    .get() as string;
  const edited = edit(definition);
  if (edited === definition) return definition;
  const version = db.pragma('schema_version', { simple: true }) as number;
  // Writing sqlite_schema is refused in better-sqlite3's default (defensive) mode.
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'documents'").run(edited);
    db.pragma(`schema_version = ${version + 1}`);
  } finally {
    db.pragma('writable_schema = OFF');
    db.unsafeMode(false);
  }
  return definition;
}
