import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

/**
 * Format 12 (docs/design/search-engine.md, Segments): a segment's terms are rows of their own,
 * keyed by segment and term in the binary order of their UTF-8, each with its document count and
 * postings, so a search reads the terms it looks for and nothing else; `segments.data` keeps the
 * documents' arrays. A segment's term rows go with its row (the trigger), however it goes.
 */
export const SEGMENT_TERMS_SCHEMA = `
  CREATE TABLE segment_terms (
    segment_id INTEGER NOT NULL,
    term TEXT NOT NULL,
    doc_count INTEGER NOT NULL,
    postings BLOB NOT NULL,
    PRIMARY KEY (segment_id, term)
  ) WITHOUT ROWID;
  CREATE TRIGGER segments_drop_terms AFTER DELETE ON segments BEGIN
    DELETE FROM segment_terms WHERE segment_id = old.id;
  END;
`;

/** A term of a segment with the number of documents holding it. */
export interface TermCount {
  term: string;
  docCount: number;
}

/** A term's row: its document count and its postings' bytes. */
export interface TermRowBytes extends TermCount {
  postings: Buffer;
}

/** The term rows of an index file's segments: read by searches and merges, written with segments. */
export class SegmentTermRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      row: () =>
        db.prepare(
          'SELECT term, doc_count AS docCount, postings FROM segment_terms WHERE segment_id = ? AND term = ?',
        ),
      docCount: () =>
        db.prepare('SELECT doc_count FROM segment_terms WHERE segment_id = ? AND term = ?').pluck(),
      termsFrom: () =>
        db.prepare(
          `SELECT term, doc_count AS docCount FROM segment_terms
         WHERE segment_id = ? AND term >= ? ORDER BY term LIMIT ?`,
        ),
      termsBetween: () =>
        db
          .prepare(
            `SELECT term, doc_count FROM segment_terms
           WHERE segment_id = ? AND term >= ? AND term < ? ORDER BY term LIMIT ?`,
          )
          .raw(),
      rowsFrom: () =>
        db.prepare(
          `SELECT term, doc_count AS docCount, postings FROM segment_terms
         WHERE segment_id = ? AND term >= ? ORDER BY term LIMIT ?`,
        ),
      insert: () =>
        db.prepare('INSERT INTO segment_terms (segment_id, term, doc_count, postings) VALUES (?, ?, ?, ?)'),
    });
  }

  termRow(segmentId: number, term: string): TermRowBytes | undefined {
    return this.statements.row.get(segmentId, term) as TermRowBytes | undefined;
  }

  documentFrequency(segmentId: number, term: string): number {
    return (this.statements.docCount.get(segmentId, term) as number | undefined) ?? 0;
  }

  /** Up to `limit` terms of the segment from `from` on (itself included), in order. */
  termsFrom(segmentId: number, from: string, limit: number): TermCount[] {
    return this.statements.termsFrom.all(segmentId, from, limit) as TermCount[];
  }

  /** Up to `limit` terms of the segment from `from` on (itself included) and before `below`, in order. */
  termsBetween(segmentId: number, from: string, below: string, limit: number): TermCount[] {
    const rows = this.statements.termsBetween.all(segmentId, from, below, limit) as [string, number][];
    return rows.map(([term, docCount]) => ({ term, docCount }));
  }

  /** As `termsFrom`, with each term's postings. */
  termRowsFrom(segmentId: number, from: string, limit: number): TermRowBytes[] {
    return this.statements.rowsFrom.all(segmentId, from, limit) as TermRowBytes[];
  }

  insert(segmentId: number, term: string, docCount: number, postings: Uint8Array): void {
    this.statements.insert.run(segmentId, term, docCount, postings);
  }
}
