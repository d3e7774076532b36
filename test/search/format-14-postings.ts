import type Database from 'better-sqlite3';
import { FIELD_COUNT } from '../../src/search/engine/fields.js';
import { decodePostingsHead } from '../../src/search/engine/segment-codec.js';
import { VarintWriter } from '../../src/search/engine/varint.js';
import { undoFormat16 } from './format-15-documents.js';

/** Where the version sits in a segment's documents' arrays: after the magic's five bytes. */
const DOC_ARRAYS_VERSION_BYTE = 5;

/**
 * Takes a current index file back to format 14, for tests that make an older file from a
 * current one: each segment's terms in postings format 1 (documents as gaps, each document's
 * count of positions, then every position), as formats 12 to 14 wrote them, and its documents'
 * arrays marked version 1; no table of position blocks, no positions column; its documents'
 * state in their rows (undoFormat16).
 */
export function undoFormat15(db: Database.Database): void {
  undoFormat16(db);
  db.transaction(() => {
    for (const { id, data } of db.prepare('SELECT id, data FROM segments').all() as {
      id: number;
      data: Buffer;
    }[]) {
      if (data[DOC_ARRAYS_VERSION_BYTE] !== 2) throw new Error(`segment ${id} is not of postings format 2`);
      data[DOC_ARRAYS_VERSION_BYTE] = 1;
      db.prepare('UPDATE segments SET data = ? WHERE id = ?').run(data, id);
    }
    const rows = db
      .prepare(
        'SELECT segment_id AS segmentId, term, doc_count AS docCount, postings, positions FROM segment_terms',
      )
      .all() as {
      segmentId: number;
      term: string;
      docCount: number;
      postings: Buffer;
      positions: Buffer | null;
    }[];
    const blocks = db
      .prepare(
        'SELECT positions FROM segment_term_positions WHERE segment_id = ? AND term = ? ORDER BY block',
      )
      .pluck();
    const update = db.prepare('UPDATE segment_terms SET postings = ? WHERE segment_id = ? AND term = ?');
    const writer = new VarintWriter(1 << 12);
    for (const { segmentId, term, docCount, postings, positions } of rows) {
      const { docs, fieldCounts } = decodePostingsHead(postings, docCount);
      writer.reset();
      writer.gaps(docs, 0, docs.length);
      for (let posting = 0; posting < docCount; posting += 1) {
        let total = 0;
        for (let field = 0; field < FIELD_COUNT; field += 1)
          total += fieldCounts[posting * FIELD_COUNT + field]!;
        writer.write(total);
      }
      // Each block holds its documents' positions as format 1 held every document's: one after the other.
      const positionBytes = positions ?? Buffer.concat(blocks.all(segmentId, term) as Buffer[]);
      update.run(Buffer.concat([writer.bytes(), positionBytes]), segmentId, term);
    }
    db.exec(`
      DROP TRIGGER segments_drop_terms;
      DROP TABLE segment_term_positions;
      ALTER TABLE segment_terms DROP COLUMN positions;
      CREATE TRIGGER segments_drop_terms AFTER DELETE ON segments BEGIN
        DELETE FROM segment_terms WHERE segment_id = old.id;
      END;
      UPDATE index_meta SET value = '14' WHERE key = 'schema';
    `);
  })();
}
