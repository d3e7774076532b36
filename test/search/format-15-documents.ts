import type Database from 'better-sqlite3';
import { editDocumentsDefinition } from '../../src/search/storage/document-state.js';
import { undoFormat17 } from './format-16-heads.js';

/**
 * Takes a current index file back to format 15, for tests that make an older file from a
 * current one: each document's segment, ordinal and inbound links in its `documents` row, with
 * the indexes by placement, and no `document_state`. The added columns come last, where format
 * 15 had its own order (what reads them names them); as in format 15, the segment and ordinal
 * have no default, so that an insert leaving them out fails.
 * The connection must have the template functions registered (its triggers name them).
 */
export function undoFormat16(db: Database.Database): void {
  undoFormat17(db);
  db.transaction(() => {
    db.exec(`
      ALTER TABLE documents ADD COLUMN segment_id INTEGER NOT NULL DEFAULT -1;
      ALTER TABLE documents ADD COLUMN ordinal INTEGER NOT NULL DEFAULT -1;
      ALTER TABLE documents ADD COLUMN inbound_links INTEGER NOT NULL DEFAULT 0;
      UPDATE documents SET (segment_id, ordinal, inbound_links) =
        (SELECT segment_id, ordinal, inbound_links FROM document_state s WHERE s.id = documents.id);
      DROP TRIGGER documents_drop_state;
      DROP TABLE document_state;
      DROP INDEX documents_heads;
      CREATE INDEX documents_segment ON documents (segment_id, ordinal);
      CREATE INDEX documents_summary ON documents (segment_id, ordinal, id, url, title, last_modified, doctype);
      UPDATE index_meta SET value = '15' WHERE key = 'schema';
    `);
    withoutPlacementDefaults(db);
  })();
}

/** Takes the placement columns' defaults away, as SQLite allows for a change of defaults. */
function withoutPlacementDefaults(db: Database.Database): void {
  editDocumentsDefinition(db, (definition) =>
    definition.replace(/\b(segment_id|ordinal) INTEGER NOT NULL DEFAULT -1/g, '$1 INTEGER NOT NULL'),
  );
}
