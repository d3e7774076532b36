import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

/** A document of a segment as a suggester build reads it: its stored phrases, or the text to cut them from. */
export interface PhraseRow {
  id: number;
  ordinal: number;
  url: string;
  title: string;
  headings: string;
  /** The stored phrases (document-phrases.ts); null for a document indexed before format 8. */
  data: Buffer | null;
}

/**
 * The phrases of each document's title and headings (index format 8, docs/design/search-engine.md,
 * Suggest), by document id; a staged run's new versions are kept aside until it is applied.
 */
export class DocumentPhraseRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      put: () => db.prepare('INSERT OR REPLACE INTO document_phrases (id, data) VALUES (?, ?)'),
      putMissing: () =>
        db.prepare(
          `INSERT OR IGNORE INTO document_phrases (id, data)
         SELECT id, ? FROM document_state WHERE id = ? AND segment_id = ?`,
        ),
      stage: () => db.prepare('INSERT OR REPLACE INTO staged_phrases (run_key, id, data) VALUES (?, ?, ?)'),
      publishDrop: () =>
        db.prepare(
          'DELETE FROM document_phrases WHERE id IN (SELECT id FROM staged_documents WHERE run_key = ?)',
        ),
      publishCopy: () =>
        db.prepare(
          `INSERT OR REPLACE INTO document_phrases (id, data)
         SELECT p.id, p.data FROM staged_phrases p JOIN documents d ON d.id = p.id WHERE p.run_key = ?`,
        ),
      dropStaged: () => db.prepare('DELETE FROM staged_phrases WHERE run_key = ?'),
      rows: () =>
        db.prepare(
          `SELECT d.id, s.ordinal, d.url, d.title, d.headings, p.data
         FROM document_state s INDEXED BY document_state_segment CROSS JOIN documents d ON d.id = s.id
         LEFT JOIN document_phrases p ON p.id = d.id
         WHERE s.segment_id = ? AND s.ordinal >= ? AND s.ordinal < ? ORDER BY s.ordinal`,
        ),
    });
  }

  /** The phrases of the searchable (or newly placed) version of a document. */
  put(id: number, data: Uint8Array): void {
    this.statements.put.run(id, data);
  }

  /** The phrases of a staged run's new version of a document. */
  stage(runKey: string, id: number, data: Uint8Array): void {
    this.statements.stage.run(runKey, id, data);
  }

  /**
   * Inside the transaction that applies a staged run, after its texts are copied in: the
   * phrases of the versions it replaced go, those it staged come in. Before a staged row's
   * `document_phrases` entry is dropped, a new version staged without phrases (by a version of
   * Kumo before format 8) leaves its document to be cut again.
   */
  publish(runKey: string): void {
    this.statements.publishDrop.run(runKey);
    this.statements.publishCopy.run(runKey);
    this.statements.dropStaged.run(runKey);
  }

  dropStaged(runKey: string): void {
    this.statements.dropStaged.run(runKey);
  }

  /** Documents of a segment with ordinals in [from, to), in order. */
  rowsOf(segmentId: number, from: number, to: number): PhraseRow[] {
    return this.statements.rows.all(segmentId, from, to) as PhraseRow[];
  }

  /**
   * Keeps phrases cut for documents that had none (indexed before format 8), in one transaction;
   * a document that moved (merged into another segment) or went meanwhile is left alone.
   */
  putMissing(rows: readonly { id: number; segmentId: number; data: Uint8Array }[]): void {
    for (const row of rows) this.statements.putMissing.run(row.data, row.id, row.segmentId);
  }
}
