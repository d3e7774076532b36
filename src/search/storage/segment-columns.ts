import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Doctype } from '../indexed-document.js';
import { lazyStatements } from './lazy-statements.js';
import { addTableWhereMissing } from './missing-table.js';

/**
 * What every search reads of each document of a segment, by ordinal, kept beside the segment so
 * that opening an index reads one value per segment instead of a row per document
 * (docs/design/search-engine.md, Segments): the date a sort by date compares and the type
 * the doctype filter tests. The URL and title of a document are read by its id when a result
 * shows it.
 */
export interface SegmentColumns {
  lastModified: Float64Array;
  /** DOCTYPE_BITS of each document (search-index-types.ts). */
  doctypeBits: Uint8Array;
}

/** One bit per doctype, so a filter of several types is one mask. */
export const DOCTYPE_BITS: Readonly<Record<Doctype, number>> = { html: 1, pdf: 2, doc: 4, xls: 8, ppt: 16 };

/**
 * A derived table: a row is computed from the documents' rows the first time a segment is loaded
 * (by the writer, right after it wrote the segment) and goes with the segment's row (the trigger).
 * Added where missing when a file is opened: a version without the table never reads it.
 */
const SEGMENT_COLUMNS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS segment_columns (segment_id INTEGER PRIMARY KEY, data BLOB NOT NULL);
  CREATE TRIGGER IF NOT EXISTS segments_drop_columns AFTER DELETE ON segments BEGIN
    DELETE FROM segment_columns WHERE segment_id = old.id;
  END;
`;

export function addSegmentColumnsTable(db: Database.Database): void {
  addTableWhereMissing(db, 'segment_columns', SEGMENT_COLUMNS_SCHEMA);
}

const COLUMNS_VERSION = 1;
/** Version (4 bytes), document count (4), digest of the document ids (16). */
const HEADER_BYTES = 24;
const DIGEST_BYTES = 16;

/**
 * Names a segment's documents: a row derived from them (these columns, its facets) is read only
 * for the same ids in the same order, so it stays right whatever happened to the segment's id (an
 * id may be given again once its segment is gone) while a row for the old segment was written.
 */
export function docIdsDigest(docIds: Uint32Array): Buffer {
  const bytes = Buffer.from(docIds.buffer, docIds.byteOffset, docIds.byteLength);
  return createHash('sha256').update(bytes).digest().subarray(0, DIGEST_BYTES);
}

export function encodeSegmentColumns(docIds: Uint32Array, columns: SegmentColumns): Buffer {
  const count = docIds.length;
  const data = Buffer.alloc(HEADER_BYTES + count * 9);
  data.writeUInt32LE(COLUMNS_VERSION, 0);
  data.writeUInt32LE(count, 4);
  docIdsDigest(docIds).copy(data, 8);
  const dates = columns.lastModified;
  Buffer.from(dates.buffer, dates.byteOffset, dates.byteLength).copy(data, HEADER_BYTES);
  Buffer.from(columns.doctypeBits.buffer, columns.doctypeBits.byteOffset, count).copy(
    data,
    HEADER_BYTES + count * 8,
  );
  return data;
}

/** The columns a row holds for exactly these documents; undefined for any other row. */
export function decodeSegmentColumns(data: Buffer, docIds: Uint32Array): SegmentColumns | undefined {
  const count = docIds.length;
  if (data.length !== HEADER_BYTES + count * 9) return undefined;
  if (data.readUInt32LE(0) !== COLUMNS_VERSION || data.readUInt32LE(4) !== count) return undefined;
  if (!data.subarray(8, 8 + DIGEST_BYTES).equals(docIdsDigest(docIds))) return undefined;
  // Copied out: SQLite's bytes need not be 8-byte aligned for a Float64Array view.
  const lastModified = new Float64Array(count);
  data.copy(Buffer.from(lastModified.buffer), 0, HEADER_BYTES, HEADER_BYTES + count * 8);
  const doctypeBits = Uint8Array.from(data.subarray(HEADER_BYTES + count * 8));
  return { lastModified, doctypeBits };
}

/** The documents placed in a segment (the parameter), with their heads. */
const BY_PLACEMENT = `FROM document_state s INDEXED BY document_state_segment
  CROSS JOIN documents d INDEXED BY documents_heads ON d.id = s.id WHERE s.segment_id = ?`;

/** Each segment's columns: read when a segment is loaded, computed and kept when missing. */
export class SegmentColumnRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      read: () => db.prepare('SELECT data FROM segment_columns WHERE segment_id = ?').pluck(),
      // The documents' state by placement, then their heads by id, from indexes alone: the
      // documents' rows hold the bodies (document-state.ts). CROSS JOIN keeps that order.
      documents: () =>
        db
          .prepare(`SELECT s.ordinal, s.id, d.last_modified, d.doctype ${BY_PLACEMENT} ORDER BY s.ordinal`)
          .raw(),
      urls: () =>
        db
          .prepare(`SELECT s.ordinal, s.id, d.url ${BY_PLACEMENT} AND s.ordinal >= ? AND s.ordinal < ?`)
          .raw(),
      titles: () => db.prepare(`SELECT s.ordinal, s.id, d.title ${BY_PLACEMENT}`).raw(),
      // A segment merged away meanwhile keeps no row (its trigger already ran).
      write: () =>
        db.prepare(
          `INSERT OR REPLACE INTO segment_columns (segment_id, data)
           SELECT @id, @data WHERE EXISTS (SELECT 1 FROM segments WHERE id = @id)`,
        ),
    });
  }

  read(segmentId: number, docIds: Uint32Array): SegmentColumns | undefined {
    const data = this.statements.read.get(segmentId) as Buffer | undefined;
    return data === undefined ? undefined : decodeSegmentColumns(data, docIds);
  }

  /**
   * The columns of a segment's documents from their rows. An ordinal whose document no longer
   * points at the segment (replaced or removed since) is deleted there and keeps zeros.
   */
  compute(segmentId: number, docIds: Uint32Array): SegmentColumns {
    const lastModified = new Float64Array(docIds.length);
    const doctypeBits = new Uint8Array(docIds.length);
    // Row by row: a merged segment of half a million documents read as one array of rows held
    // tens of MB of the writing thread's heap at once.
    const rows = this.statements.documents.iterate(segmentId) as IterableIterator<
      [number, number, number, Doctype]
    >;
    for (const [ordinal, id, date, doctype] of rows) {
      if (docIds[ordinal] !== id) continue;
      lastModified[ordinal] = date;
      doctypeBits[ordinal] = DOCTYPE_BITS[doctype];
    }
    return { lastModified, doctypeBits };
  }

  write(segmentId: number, docIds: Uint32Array, columns: SegmentColumns): void {
    this.statements.write.run({ id: segmentId, data: encodeSegmentColumns(docIds, columns) });
  }

  /**
   * The URL of each ordinal in `[start, end)` whose document still points at the segment, null for
   * the others: a range at a time, since a merged segment's URLs are tens of MB.
   */
  urls(segmentId: number, docIds: Uint32Array, start: number, end: number): (string | null)[] {
    const values = new Array<string | null>(end - start).fill(null);
    const rows = this.statements.urls.iterate(segmentId, start, end) as IterableIterator<
      [number, number, string]
    >;
    for (const [ordinal, id, url] of rows) if (docIds[ordinal] === id) values[ordinal - start] = url;
    return values;
  }

  /** The title of each ordinal whose document still points at the segment, null for the others. */
  titles(segmentId: number, docIds: Uint32Array): (string | null)[] {
    const values = new Array<string | null>(docIds.length).fill(null);
    // Row by row, as compute() reads.
    const rows = this.statements.titles.iterate(segmentId) as IterableIterator<[number, number, string]>;
    for (const [ordinal, id, title] of rows) if (docIds[ordinal] === id) values[ordinal] = title;
    return values;
  }
}
