import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

/**
 * Format 15's table of position blocks (docs/design/search-engine.md, Segments): the positions of
 * a term of more than one block (segment-codec.ts, POSITION_BLOCK), a row a block, so a phrase or
 * proximity reads the blocks of the documents it looks at; a term of one block keeps it in its row.
 * The trigger takes a segment's rows of both tables with it, however it goes.
 */
const POSITION_BLOCKS_SCHEMA = `
  CREATE TABLE segment_term_positions (
    segment_id INTEGER NOT NULL,
    term TEXT NOT NULL,
    block INTEGER NOT NULL,
    positions BLOB NOT NULL,
    PRIMARY KEY (segment_id, term, block)
  ) WITHOUT ROWID;
  DROP TRIGGER IF EXISTS segments_drop_terms;
  CREATE TRIGGER segments_drop_terms AFTER DELETE ON segments BEGIN
    DELETE FROM segment_terms WHERE segment_id = old.id;
    DELETE FROM segment_term_positions WHERE segment_id = old.id;
  END;
`;

/**
 * Format 12 (docs/design/search-engine.md, Segments): a segment's terms are rows of their own,
 * keyed by segment and term in the binary order of their UTF-8, each with its document count and
 * postings, so a search reads the terms it looks for and nothing else; `segments.data` keeps the
 * documents' arrays. From format 15 a row's postings are its documents and counts per field, and
 * `positions` (last, so that reading a row's postings never reads them) its positions when they
 * are one block.
 */
export const SEGMENT_TERMS_SCHEMA = `
  CREATE TABLE segment_terms (
    segment_id INTEGER NOT NULL,
    term TEXT NOT NULL,
    doc_count INTEGER NOT NULL,
    postings BLOB NOT NULL,
    positions BLOB,
    PRIMARY KEY (segment_id, term)
  ) WITHOUT ROWID;
  ${POSITION_BLOCKS_SCHEMA}
`;

/** Brings a file of formats 12 to 14 to format 15: its segments stay in postings format 1. */
export const POSITION_BLOCKS_MIGRATION = `
  ALTER TABLE segment_terms ADD COLUMN positions BLOB;
  ${POSITION_BLOCKS_SCHEMA}
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

/** A term's row with the positions it holds (null where they are blocks of their own). */
export interface TermRowWithPositionBytes extends TermRowBytes {
  positions: Buffer | null;
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
          `SELECT term, doc_count AS docCount, postings, positions FROM segment_terms
         WHERE segment_id = ? AND term >= ? ORDER BY term LIMIT ?`,
        ),
      rowSizes: () =>
        db
          .prepare(
            `SELECT length(postings) + coalesce(length(positions), 0) FROM segment_terms
           WHERE segment_id = ? AND term >= ? ORDER BY term LIMIT ?`,
          )
          .pluck(),
      inlinePositions: () =>
        db.prepare('SELECT positions FROM segment_terms WHERE segment_id = ? AND term = ?').pluck(),
      positionBlock: () =>
        db
          .prepare(
            'SELECT positions FROM segment_term_positions WHERE segment_id = ? AND term = ? AND block = ?',
          )
          .pluck(),
      positionBlocksFrom: () =>
        db
          .prepare(
            `SELECT positions FROM segment_term_positions WHERE segment_id = ? AND term = ? AND block >= ?
           ORDER BY block LIMIT ?`,
          )
          .pluck(),
      insert: () =>
        db.prepare(
          'INSERT INTO segment_terms (segment_id, term, doc_count, postings, positions) VALUES (?, ?, ?, ?, ?)',
        ),
      insertBlock: () =>
        db.prepare(
          'INSERT INTO segment_term_positions (segment_id, term, block, positions) VALUES (?, ?, ?, ?)',
        ),
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

  /**
   * The bytes of postings and positions of up to `limit` term rows of the segment from `from` on,
   * in order: SQLite reads a blob's length from its row's header, not its pages.
   */
  termRowSizes(segmentId: number, from: string, limit: number): number[] {
    return this.statements.rowSizes.all(segmentId, from, limit) as number[];
  }

  /** As `termsFrom`, with each term's postings and the positions its row holds. */
  termRowsFrom(segmentId: number, from: string, limit: number): TermRowWithPositionBytes[] {
    return this.statements.rowsFrom.all(segmentId, from, limit) as TermRowWithPositionBytes[];
  }

  /** The positions a term's row holds; undefined without the row or without positions in it. */
  inlinePositions(segmentId: number, term: string): Buffer | undefined {
    return (this.statements.inlinePositions.get(segmentId, term) as Buffer | null | undefined) ?? undefined;
  }

  /** A block of positions of a term of several blocks. */
  positionBlock(segmentId: number, term: string, block: number): Buffer | undefined {
    return this.statements.positionBlock.get(segmentId, term, block) as Buffer | undefined;
  }

  /**
   * Up to `limit` blocks of positions of a term from block `from` on, in order: one statement
   * stepping through the table, where a lookup a block costs a seek each.
   */
  positionBlocksFrom(segmentId: number, term: string, from: number, limit: number): Buffer[] {
    return this.statements.positionBlocksFrom.all(segmentId, term, from, limit) as Buffer[];
  }

  /** A term's row; `positions` its single block of positions, or null when `insertBlock` writes them. */
  insert(
    segmentId: number,
    term: string,
    docCount: number,
    postings: Uint8Array,
    positions: Uint8Array | null,
  ): void {
    this.statements.insert.run(segmentId, term, docCount, postings, positions);
  }

  insertBlock(segmentId: number, term: string, block: number, positions: Uint8Array): void {
    this.statements.insertBlock.run(segmentId, term, block, positions);
  }
}
