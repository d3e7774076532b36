import type Database from 'better-sqlite3';
import { SegmentTermRows } from './segment-term-rows.js';

/** A document's stored text, as it is analyzed again. */
export interface ReanalysisDocument {
  id: number;
  /** '' for a staged version of a page removed since (marked deleted when its run is applied). */
  url: string;
  title: string;
  description: string;
  headings: string;
  body: string;
  template: string;
}

/** The columns of a document to analyze again, of `documents` or `staged_documents` aliased `table`. */
const columnsOf = (table: string): string =>
  `${table}.title, ${table}.description, ${table}.headings, ${table}.body, ${table}.template`;

/**
 * The statements that index a file written by an older analyzer again from its stored text
 * (docs/operations.md, Upgrading), inside the transaction that upgrades it: its documents read
 * in id order a batch at a time, the new segments written and the documents placed in them, the
 * old segments and the stored phrases dropped. A staged run's documents (its new pages, placed in
 * its segments, and the new versions of pages it changed, in `staged_documents`) are read apart,
 * by run key, so that they go into staged segments of the same run.
 */
export class ReanalysisRows {
  private readonly statements;
  /** Where the new segments' terms are written. */
  readonly termRows: SegmentTermRows;

  /**
   * `templateBlocks`: the template lines of every host as the counts stand, which the documents
   * are split by as a batch's are.
   */
  constructor(
    db: Database.Database,
    readonly templateBlocks: ReadonlyMap<string, ReadonlySet<number>>,
  ) {
    this.termRows = new SegmentTermRows(db);
    this.statements = {
      documentCount: db
        .prepare('SELECT (SELECT count(*) FROM documents) + (SELECT count(*) FROM staged_documents)')
        .pluck(),
      lastSegmentId: db.prepare('SELECT coalesce(max(id), 0) FROM segments').pluck(),
      runKeys: db
        .prepare(
          `SELECT staged_run FROM segments WHERE staged_run IS NOT NULL
           UNION SELECT run_key FROM staged_documents ORDER BY 1`,
        )
        .pluck(),
      // Searchable documents: those not placed in a staged run's segment.
      searchable: db.prepare(
        `SELECT d.id, d.url, ${columnsOf('d')} FROM documents d JOIN document_state p ON p.id = d.id
         WHERE d.id > ? AND NOT EXISTS
           (SELECT 1 FROM segments s WHERE s.id = p.segment_id AND s.staged_run IS NOT NULL)
         ORDER BY d.id LIMIT ?`,
      ),
      runNew: db.prepare(
        `SELECT d.id, d.url, ${columnsOf('d')} FROM document_state p JOIN documents d ON d.id = p.id
         WHERE p.id > ? AND p.segment_id IN (SELECT id FROM segments WHERE staged_run = ?)
         ORDER BY p.id LIMIT ?`,
      ),
      // A page removed since the run staged it has no URL any more: its staged version is marked
      // deleted when the run is applied (IndexWriter.applyStaged), as before.
      runChanged: db.prepare(
        `SELECT s.id, coalesce((SELECT d.url FROM documents d WHERE d.id = s.id), '') AS url,
           ${columnsOf('s')}
         FROM staged_documents s WHERE s.id > ? AND s.run_key = ? ORDER BY s.id LIMIT ?`,
      ),
      insertSegment: db.prepare('INSERT INTO segments (id, data, deleted, staged_run) VALUES (?, ?, ?, ?)'),
      place: db.prepare('UPDATE document_state SET segment_id = ?, ordinal = ? WHERE id = ?'),
      placeStaged: db.prepare(
        'UPDATE staged_documents SET segment_id = ?, ordinal = ? WHERE run_key = ? AND id = ?',
      ),
      dropPhrases: db.prepare('DELETE FROM document_phrases'),
      dropStagedPhrases: db.prepare('DELETE FROM staged_phrases'),
      dropSegments: db.prepare('DELETE FROM segments WHERE id <= ?'),
    };
  }

  /** Documents to analyze: the searchable ones, a staged run's new pages and its new versions. */
  documentCount(): number {
    return this.statements.documentCount.get() as number;
  }

  /** The highest segment id in use: the new segments are numbered above it. */
  lastSegmentId(): number {
    return this.statements.lastSegmentId.get() as number;
  }

  /** Keys of the runs with staged segments or staged documents. */
  runKeys(): string[] {
    return this.statements.runKeys.all() as string[];
  }

  /** Up to `limit` searchable documents with ids above `after`, in id order. */
  searchable(after: number, limit: number): ReanalysisDocument[] {
    return this.statements.searchable.all(after, limit) as ReanalysisDocument[];
  }

  /** Up to `limit` pages new in staged run `runKey` (rows of `documents`) with ids above `after`. */
  runNew(runKey: string, after: number, limit: number): ReanalysisDocument[] {
    return this.statements.runNew.all(after, runKey, limit) as ReanalysisDocument[];
  }

  /** Up to `limit` new versions of pages staged run `runKey` changed, with ids above `after`. */
  runChanged(runKey: string, after: number, limit: number): ReanalysisDocument[] {
    return this.statements.runChanged.all(after, runKey, limit) as ReanalysisDocument[];
  }

  /** A new segment, searchable, or of the staged run `runKey`. */
  insertSegment(id: number, data: Buffer, deleted: Uint8Array, runKey: string | null): void {
    this.statements.insertSegment.run(id, data, Buffer.from(deleted), runKey);
  }

  placeDocument(id: number, segmentId: number, ordinal: number): void {
    this.statements.place.run(segmentId, ordinal, id);
  }

  placeStaged(runKey: string, id: number, segmentId: number, ordinal: number): void {
    this.statements.placeStaged.run(segmentId, ordinal, runKey, id);
  }

  /**
   * Forgets the stored phrases of every document and staged version: the documents are left to
   * be cut again, as those of a file of format 7 are (document-phrase-rows.ts).
   */
  dropPhrases(): void {
    this.statements.dropPhrases.run();
    this.statements.dropStagedPhrases.run();
  }

  /** Drops the segments numbered up to `lastId`: those written by the older analyzer. */
  dropSegmentsUpTo(lastId: number): void {
    this.statements.dropSegments.run(lastId);
  }
}
