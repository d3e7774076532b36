import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';
import { addTableWhereMissing } from './missing-table.js';

/**
 * The facets of each segment under a search service's rules, as the facet threads computed them
 * from its URLs (docs/design/search-engine.md, Facets off the API thread), kept in the index file
 * so that an index opened again reads them instead of matching every URL again. A row is
 * named by its segment and a digest of the rules; a segment keeps the rows of one rule set, the
 * last written, and they go with the segment's row (the trigger). Added where missing when a file
 * is opened: a version without the table never reads it, and its merges still drop its rows.
 */
const SEGMENT_FACETS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS segment_facets (
    segment_id INTEGER NOT NULL,
    rules_digest BLOB NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (segment_id, rules_digest)
  ) WITHOUT ROWID;
  CREATE TRIGGER IF NOT EXISTS segments_drop_facets AFTER DELETE ON segments BEGIN
    DELETE FROM segment_facets WHERE segment_id = old.id;
  END;
`;

export function addSegmentFacetsTable(db: Database.Database): void {
  addTableWhereMissing(db, 'segment_facets', SEGMENT_FACETS_SCHEMA);
}

/**
 * Drops the facets stored for segments whose rows a generation's delta replaces or removes: a
 * search node keeps facets it computed in the copy it served, and a segment made later may take
 * the id of one merged away (docs/design/scale-out.md, Generations as objects).
 */
export function dropSegmentFacets(db: Database.Database, segmentIds: readonly number[]): void {
  const table = db
    .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'segment_facets'`)
    .pluck()
    .get();
  if (table === undefined) return;
  const drop = db.prepare('DELETE FROM segment_facets WHERE segment_id = ?');
  for (const id of segmentIds) drop.run(id);
}

/** The stored facets of segments: read when an index is opened, written once computed. */
export class SegmentFacetRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      read: () =>
        db.prepare('SELECT data FROM segment_facets WHERE segment_id = ? AND rules_digest = ?').pluck(),
      dropOthers: () => db.prepare('DELETE FROM segment_facets WHERE segment_id = ? AND rules_digest != ?'),
      write: () =>
        db.prepare('INSERT OR REPLACE INTO segment_facets (segment_id, rules_digest, data) VALUES (?, ?, ?)'),
      segmentExists: () => db.prepare('SELECT 1 FROM segments WHERE id = ?').pluck(),
      transaction: () =>
        db.transaction((segmentId: number, digest: Buffer, data: Buffer) => {
          // A segment merged away meanwhile keeps no row (its trigger already ran).
          if (this.statements.segmentExists.get(segmentId) === undefined) return;
          this.statements.dropOthers.run(segmentId, digest);
          this.statements.write.run(segmentId, digest, data);
        }),
    });
  }

  read(segmentId: number, rulesDigest: Buffer): Buffer | undefined {
    return this.statements.read.get(segmentId, rulesDigest) as Buffer | undefined;
  }

  /** Keeps a segment's facets under its rules, in place of those of any other rules. */
  write(segmentId: number, rulesDigest: Buffer, data: Buffer): void {
    this.statements.transaction(segmentId, rulesDigest, data);
  }
}
