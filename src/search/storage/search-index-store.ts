import Database from 'better-sqlite3';
import { InboundLinkCounts } from './inbound-link-counts.js';
import { SearchAnalyticsStore } from './search-analytics-store.js';
import type { ActivityBatch, QueryLogEntry } from '../../store/index.js';
import { DocumentClaims } from './document-claims.js';
import { DisplayHeadRows } from './display-head-rows.js';
import { DocumentPhraseRows } from './document-phrase-rows.js';
import {
  BODY_HEAD_SQL,
  type BodyHead,
  bodyHeadOf,
  HIT_DOCUMENT_SQL,
  type HitDocument,
  hitDocumentOf,
  WHOLE_BODY_SQL,
  LINK_TEXT_SQL,
} from './hit-documents.js';
import { type AnalyzerUpgrade, prepareIndexSchema } from './search-index-schema.js';
import { FreePages } from './free-pages.js';
import { lazyStatements } from './lazy-statements.js';
import { SegmentFacetRows } from './segment-facet-rows.js';
import { registerTemplateFunctions, TemplateBlockStore } from './template-block-schema.js';
import type { TemplateCountChanges } from './template-count-changes.js';
import { preparePrivateDatabaseFile } from '../../util/index.js';
import type { StoredDocument } from './stored-document.js';
import { SegmentTermRows } from './segment-term-rows.js';
import { SegmentColumnRows, type SegmentColumns } from './segment-columns.js';
import {
  forgetPublished,
  markPublishing,
  recordChanges,
  recordsEveryChange,
  schemaDigest,
} from './generation-changes.js';

/** What a hit shows before its page is cut: read by the document's id. */
export interface DocumentHeading {
  url: string;
  title: string;
}

export interface StoredSegment {
  id: number;
  data: Buffer;
  deleted: Buffer;
}

export interface DocumentLocation {
  id: number;
  segmentId: number;
  ordinal: number;
  contentHash: Buffer;
}

/** The size the write-ahead log is cut back to after a large transaction. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Every SQL statement of a search service's index file: documents, the segments of the inverted
 * index (see src/search/engine), the query log and click counts. WAL mode lets searches read
 * while a batch is written, by this process or another (`kumo index` while `kumo serve` runs).
 */
export class SearchIndexStore {
  private readonly db: Database.Database;
  private readonly statements;
  /** The template count changes of the transaction under way (template-count-changes.ts). */
  private readonly templateCounts: TemplateCountChanges;
  /** Which feeds claim which documents (docs/api.md, Search feeding). */
  readonly claims: DocumentClaims;
  /** Counts of repeated lines per host (docs/reference/site-search.md, Page templates). */
  readonly templates: TemplateBlockStore;
  /** Phrases of titles and headings per document, for suggest (docs/design/search-engine.md,
   * Suggest).
   */
  readonly phrases: DocumentPhraseRows;
  /** The start of each document's main text as result pages show it (docs/design/search-engine.md,
   * Stored display heads).
   */
  readonly displayHeads: DisplayHeadRows;
  /** Searches and clicks per day (docs/design/search-engine.md, Search activity). */
  readonly analytics: SearchAnalyticsStore;
  readonly inboundLinks: InboundLinkCounts;
  /** The term rows of the segments (format 12). */
  readonly termRows: SegmentTermRows;
  /** Each segment's facets under the rules they were computed with. */
  readonly facets: SegmentFacetRows;
  /** What every search reads of each segment's documents (segment-columns.ts). */
  readonly columns: SegmentColumnRows;
  /** The pages merges and removals left free. */
  readonly freePages: FreePages;

  /**
   * Opens (or creates) the index file of `analyzerVersion`. A file of an older analyzer is
   * indexed again by `reanalyze` as it is upgraded; without it such a file is refused.
   */
  constructor(
    readonly file: string,
    analyzerVersion: number,
    reanalyze?: AnalyzerUpgrade,
  ) {
    preparePrivateDatabaseFile(file);
    this.db = new Database(file);
    // Documents rows are a few KB: on 16 KB pages several share a page instead of one per 4 KB
    // page with the rest empty. Only takes effect while the file is new.
    this.db.pragma('page_size = 16384');
    // A new file can give the pages its merges free back to the file system (free-pages.ts);
    // a file made before keeps its mode until it is rewritten.
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('journal_mode = WAL');
    // A merge of a large segment is one transaction of gigabytes of log, which SQLite would keep
    // on disk at that size; it cuts the log back to this once the log starts over after a
    // checkpoint (docs/operations.md, Data directory).
    this.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.templateCounts = registerTemplateFunctions(this.db);
    try {
      prepareIndexSchema(this.db, file, analyzerVersion, reanalyze);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.statements = this.prepare();
    this.claims = new DocumentClaims(this.db);
    this.templates = new TemplateBlockStore(this.db);
    this.phrases = new DocumentPhraseRows(this.db);
    this.displayHeads = new DisplayHeadRows(this.db);
    this.analytics = new SearchAnalyticsStore(this.db);
    this.inboundLinks = new InboundLinkCounts(this.db);
    this.termRows = new SegmentTermRows(this.db);
    this.facets = new SegmentFacetRows(this.db);
    this.columns = new SegmentColumnRows(this.db);
    this.freePages = new FreePages(this.db);
  }

  /**
   * Gives this connection's page cache, for the file and again for its TEMP database, at most
   * `megabytes` each instead of SQLite's default: for a connection that only indexes, whose
   * budget counts it (indexing-budget.ts). A connection that serves searches keeps the default.
   */
  limitPageCache(megabytes: number): void {
    const kibibytes = Math.round(megabytes * 1024);
    this.db.pragma(`cache_size = -${kibibytes}`);
    this.db.pragma(`temp.cache_size = -${kibibytes}`);
  }

  private prepare() {
    const db = this.db;
    return lazyStatements({
      locate: () =>
        db.prepare(
          `SELECT d.id, s.segment_id, s.ordinal, d.content_hash FROM documents d
           JOIN document_state s ON s.id = d.id WHERE d.url = ?`,
        ),
      // A new id is above every id a staged run still holds: a page removed while a run had it
      // staged must not lend its id to a new page, which the run's apply would then overwrite.
      insertDocument: () =>
        db.prepare(
          `INSERT INTO documents (id, url, title, description, headings, body, template, content_size, last_modified,
           doctype, language, content_hash)
         VALUES (max((SELECT coalesce(max(id), 0) FROM documents), (SELECT coalesce(max(id), 0) FROM staged_documents)) + 1,
           ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
      // Not placed yet (document-state.ts).
      insertState: () =>
        db.prepare('INSERT INTO document_state (id, segment_id, ordinal) VALUES (?, -1, -1)'),
      updateDocument: () =>
        db.prepare(
          `UPDATE documents SET title = ?, description = ?, headings = ?, body = ?, template = ?, content_size = ?,
           last_modified = ?, doctype = ?, language = ?, content_hash = ? WHERE id = ?`,
        ),
      place: () => db.prepare('UPDATE document_state SET segment_id = ?, ordinal = ? WHERE id = ?'),
      deleteDocument: () => db.prepare('DELETE FROM documents WHERE id = ?'),
      heading: () => db.prepare('SELECT url, title FROM documents WHERE id = ?'),
      document: () =>
        db.prepare(
          `SELECT id, url, title, description, headings, body, template, content_size AS contentSize,
           last_modified AS lastModified, doctype
         FROM documents WHERE id = ?`,
        ),
      hitDocument: () => db.prepare(HIT_DOCUMENT_SQL),
      bodyHead: () => db.prepare(BODY_HEAD_SQL),
      // Asked before every search (SearchIndex.refresh): prepared once, as pragma() prepares anew.
      dataVersion: () => db.prepare('PRAGMA data_version').pluck(),
      wholeBody: () => db.prepare(WHOLE_BODY_SQL).pluck(),
      linkText: () => db.prepare(LINK_TEXT_SQL).pluck(),
      documentByUrl: () => db.prepare('SELECT id FROM documents WHERE url = ?').pluck(),
      nextSegmentId: () => db.prepare('SELECT coalesce(max(id), 0) + 1 FROM segments').pluck(),
      insertSegment: () => db.prepare('INSERT INTO segments (id, data, deleted) VALUES (?, ?, ?)'),
      updateDeleted: () => db.prepare('UPDATE segments SET deleted = ? WHERE id = ?'),
      deleteSegment: () => db.prepare('DELETE FROM segments WHERE id = ?'),
      presentSegments: () =>
        db.prepare('SELECT count(*) FROM segments WHERE id IN (SELECT value FROM json_each(?))').pluck(),
      segmentIds: () => db.prepare('SELECT id FROM segments WHERE staged_run IS NULL ORDER BY id').pluck(),
      insertStagedSegment: () =>
        db.prepare('INSERT INTO segments (id, data, deleted, staged_run) VALUES (?, ?, ?, ?)'),
      stageDocument: () =>
        db.prepare(
          `INSERT OR REPLACE INTO staged_documents (run_key, id, title, description, headings, body, template,
           content_size, last_modified, doctype, language, content_hash, segment_id, ordinal)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, -1, -1)`,
        ),
      placeStaged: () =>
        db.prepare('UPDATE staged_documents SET segment_id = ?, ordinal = ? WHERE run_key = ? AND id = ?'),
      stagedReplacements: () =>
        db.prepare(
          `SELECT s.id, p.segment_id AS oldSegmentId, p.ordinal AS oldOrdinal FROM staged_documents s
         JOIN document_state p ON p.id = s.id WHERE s.run_key = ?`,
        ),
      applyStagedDocuments: () =>
        db.prepare(
          `UPDATE documents SET (title, description, headings, body, template, content_size, last_modified, doctype,
           language, content_hash) = (SELECT title, description, headings, body, template,
           content_size, last_modified, doctype, language, content_hash FROM staged_documents s
           WHERE s.run_key = ? AND s.id = documents.id)
         WHERE id IN (SELECT id FROM staged_documents WHERE run_key = ?)`,
        ),
      applyStagedPlaces: () =>
        db.prepare(
          `UPDATE document_state SET (segment_id, ordinal) = (SELECT segment_id, ordinal FROM staged_documents s
           WHERE s.run_key = ? AND s.id = document_state.id)
         WHERE id IN (SELECT id FROM staged_documents WHERE run_key = ?)`,
        ),
      isStagedSegment: () =>
        db.prepare('SELECT 1 FROM segments WHERE id = ? AND staged_run IS NOT NULL').pluck(),
      stagedRunKeys: () =>
        db.prepare('SELECT DISTINCT staged_run FROM segments WHERE staged_run IS NOT NULL').pluck(),
      orphanedStaged: () =>
        db.prepare(
          `SELECT s.segment_id AS segmentId, s.ordinal FROM staged_documents s
         WHERE s.run_key = ? AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = s.id)`,
        ),
      publishSegments: () => db.prepare('UPDATE segments SET staged_run = NULL WHERE staged_run = ?'),
      dropStagedDocuments: () => db.prepare('DELETE FROM staged_documents WHERE run_key = ?'),
      dropStagedNewDocuments: () =>
        db.prepare(
          `DELETE FROM documents WHERE id IN (SELECT s.id FROM document_state s
           WHERE s.segment_id IN (SELECT id FROM segments WHERE staged_run = ?))`,
        ),
      dropStagedSegments: () => db.prepare('DELETE FROM segments WHERE staged_run = ?'),
      segment: () => db.prepare('SELECT id, data, deleted FROM segments WHERE id = ?'),
      deletedOf: () => db.prepare('SELECT deleted FROM segments WHERE id = ?').pluck(),
      logQuery: () =>
        db.prepare(
          `INSERT INTO query_log (query, count, hits, last_us) VALUES (?, ?, ?, ?)
         ON CONFLICT (query) DO UPDATE SET count = count + excluded.count, hits = excluded.hits,
           last_us = excluded.last_us`,
        ),
      queryLog: () =>
        db.prepare('SELECT query, count, hits FROM query_log WHERE hits > 0 ORDER BY count DESC LIMIT ?'),
      pruneQueryLog: () => db.prepare('DELETE FROM query_log WHERE count <= 1 AND last_us < ?'),
      logClick: () =>
        db.prepare(
          `INSERT INTO clicks (url, count, last_us) VALUES (?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET count = count + excluded.count, last_us = excluded.last_us`,
        ),
      clicks: () => db.prepare('SELECT url, count FROM clicks'),
      logQueryClick: () =>
        db.prepare(
          `INSERT INTO query_clicks (query, count, last_us) VALUES (?, ?, ?)
         ON CONFLICT (query) DO UPDATE SET count = count + excluded.count, last_us = excluded.last_us`,
        ),
      queryClicks: () => db.prepare('SELECT query, count FROM query_clicks ORDER BY count DESC LIMIT ?'),
      pruneQueryClicks: () => db.prepare('DELETE FROM query_clicks WHERE count <= 1 AND last_us < ?'),
      phraseReadings: () => db.prepare('SELECT phrase, reading FROM phrase_readings'),
      phraseReading: () => db.prepare('SELECT reading FROM phrase_readings WHERE phrase = ?').pluck(),
      saveReading: () => db.prepare('INSERT OR REPLACE INTO phrase_readings (phrase, reading) VALUES (?, ?)'),
    });
  }

  /**
   * Runs `work` in one write transaction, taking the write lock at its start. The template
   * counts its documents changed are written before it commits, and forgotten when it fails
   * (template-count-changes.ts); in a nested one, what the outer gathered is written first, so
   * that a failed inner one forgets only its own.
   */
  writeTransaction<T>(work: () => T): T {
    this.templateCounts.flush();
    try {
      return this.db
        .transaction(() => {
          const result = work();
          this.templateCounts.flush();
          return result;
        })
        .immediate();
    } catch (error) {
      this.templateCounts.discard();
      throw error;
    }
  }

  /** Changes whenever another connection commits (SQLite's data_version): time to reload. */
  dataVersion(): number {
    return this.statements.dataVersion.get() as number;
  }

  locate(url: string): DocumentLocation | undefined {
    const row = this.statements.locate.get(url) as
      { id: number; segment_id: number; ordinal: number; content_hash: Buffer } | undefined;
    return (
      row && { id: row.id, segmentId: row.segment_id, ordinal: row.ordinal, contentHash: row.content_hash }
    );
  }

  insertDocument(document: Omit<StoredDocument, 'id'>, contentHash: Buffer): number {
    const result = this.statements.insertDocument.run(...documentValues(document), contentHash);
    const id = Number(result.lastInsertRowid);
    this.statements.insertState.run(id);
    return id;
  }

  updateDocument(id: number, document: Omit<StoredDocument, 'id'>, contentHash: Buffer): void {
    const [, ...values] = documentValues(document);
    this.statements.updateDocument.run(...values, contentHash, id);
  }

  placeDocument(id: number, segmentId: number, ordinal: number): void {
    this.statements.place.run(segmentId, ordinal, id);
  }

  deleteDocument(id: number): void {
    this.statements.deleteDocument.run(id);
  }

  /** The URLs of the indexed documents, at most `limit`, in id order (the console's facet preview). */
  documentUrls(limit: number): string[] {
    return this.db
      .prepare<[number], string>('SELECT url FROM documents ORDER BY id LIMIT ?')
      .pluck()
      .all(limit);
  }

  documentIdOf(url: string): number | undefined {
    return this.statements.documentByUrl.get(url) as number | undefined;
  }

  document(id: number): StoredDocument | undefined {
    return this.statements.document.get(id) as StoredDocument | undefined;
  }

  /** A hit as a result page shows it, with the body's first `bodyChars` code points. */
  hitDocument(id: number, bodyChars: number): HitDocument | undefined {
    return hitDocumentOf(this.statements.hitDocument.get({ chars: bodyChars, id }));
  }

  /** The body's first `bodyChars` code points, and whether they are all of it. */
  bodyHead(id: number, bodyChars: number): BodyHead | undefined {
    return bodyHeadOf(this.statements.bodyHead.get({ chars: bodyChars, id }));
  }

  linkText(id: number, chars: number): string | undefined {
    return this.statements.linkText.get({ id, chars }) as string | undefined;
  }

  wholeBody(id: number): string | undefined {
    return this.statements.wholeBody.get(id) as string | undefined;
  }

  /** A document's URL and title, if it is still in the index. */
  heading(id: number): DocumentHeading | undefined {
    return this.statements.heading.get(id) as DocumentHeading | undefined;
  }

  /**
   * The columns of a segment's documents (segment-columns.ts): as kept, or computed from their
   * rows and kept for the next open. Outside a write transaction keeping them is only a saving:
   * it never waits for another process's write lock, and a failure to write is let be.
   */
  segmentColumns(segmentId: number, docIds: Uint32Array): SegmentColumns {
    const kept = this.columns.read(segmentId, docIds);
    if (kept !== undefined) return kept;
    const computed = this.columns.compute(segmentId, docIds);
    // In the writer's own transaction the row is part of its batch: a failure fails the batch.
    if (this.db.inTransaction) this.columns.write(segmentId, docIds, computed);
    else {
      try {
        this.withoutWaiting(() => this.columns.write(segmentId, docIds, computed));
      } catch {
        // Another process holds the write lock, or the file cannot be written: the next open
        // computes them again.
      }
    }
    return computed;
  }

  nextSegmentId(): number {
    return this.statements.nextSegmentId.get() as number;
  }

  insertSegment(id: number, data: Buffer, deleted: Uint8Array): void {
    this.statements.insertSegment.run(id, data, Buffer.from(deleted));
  }

  updateDeleted(segmentId: number, deleted: Uint8Array): void {
    this.statements.updateDeleted.run(Buffer.from(deleted), segmentId);
  }

  deleteSegment(id: number): void {
    this.statements.deleteSegment.run(id);
  }

  /** Whether every segment of `ids` is still in the file (none merged away or dropped since). */
  segmentsPresent(ids: readonly number[]): boolean {
    return this.statements.presentSegments.get(JSON.stringify(ids)) === ids.length;
  }

  /** A segment of a run being staged: stored, but not loaded by searches until the run is applied. */
  insertStagedSegment(id: number, data: Buffer, deleted: Uint8Array, runKey: string): void {
    this.statements.insertStagedSegment.run(id, data, Buffer.from(deleted), runKey);
  }

  /** The new text of an indexed document, kept aside until the run is applied. */
  stageDocument(runKey: string, id: number, document: Omit<StoredDocument, 'id'>, contentHash: Buffer): void {
    const [, ...values] = documentValues(document);
    this.statements.stageDocument.run(runKey, id, ...values, contentHash);
  }

  placeStagedDocument(runKey: string, id: number, segmentId: number, ordinal: number): void {
    this.statements.placeStaged.run(segmentId, ordinal, runKey, id);
  }

  /** The documents a staged run replaces, with where their current version is indexed. */
  stagedReplacements(runKey: string): { id: number; oldSegmentId: number; oldOrdinal: number }[] {
    return this.statements.stagedReplacements.all(runKey) as {
      id: number;
      oldSegmentId: number;
      oldOrdinal: number;
    }[];
  }

  /** Staged new versions of documents that were removed meanwhile (by another run or kumo index). */
  orphanedStaged(runKey: string): { segmentId: number; ordinal: number }[] {
    return this.statements.orphanedStaged.all(runKey) as { segmentId: number; ordinal: number }[];
  }

  /** Makes a staged run visible: replaced texts copied in, its segments loaded by searches. */
  publishStaged(runKey: string): void {
    this.statements.applyStagedDocuments.run(runKey, runKey);
    this.statements.applyStagedPlaces.run(runKey, runKey);
    this.phrases.publish(runKey);
    this.displayHeads.publish(runKey);
    this.statements.publishSegments.run(runKey);
    this.statements.dropStagedDocuments.run(runKey);
    this.claims.dropStaged(runKey);
  }

  /** Forgets a staged run: its segments, the new documents placed in them, the replaced texts, its claims. */
  dropStaged(runKey: string): void {
    this.statements.dropStagedNewDocuments.run(runKey);
    this.statements.dropStagedSegments.run(runKey);
    this.statements.dropStagedDocuments.run(runKey);
    this.phrases.dropStaged(runKey);
    this.displayHeads.dropStaged(runKey);
    this.claims.dropStaged(runKey);
  }

  isStagedSegment(segmentId: number): boolean {
    return this.statements.isStagedSegment.get(segmentId) === 1;
  }

  /** Keys of the runs that have staged segments (in progress, or abandoned by a run that never ended). */
  stagedRunKeys(): string[] {
    return this.statements.stagedRunKeys.all() as string[];
  }

  segmentIds(): number[] {
    return this.statements.segmentIds.all() as number[];
  }

  segment(id: number): StoredSegment | undefined {
    return this.statements.segment.get(id) as StoredSegment | undefined;
  }

  deletedOf(segmentId: number): Buffer | undefined {
    return this.statements.deletedOf.get(segmentId) as Buffer | undefined;
  }

  /**
   * Adds what a process counted (docs/design/search-engine.md, Search activity) in one transaction:
   * query counts (successful searches), clicks per URL and per query (the normalized query the
   * click came from), and the per-day analytics.
   */
  logActivity(batch: ActivityBatch, nowMicros: number): void {
    this.db.transaction(() => {
      for (const entry of batch.queries)
        this.statements.logQuery.run(entry.query, entry.count, entry.hits, nowMicros);
      for (const [url, count] of batch.clicks) this.statements.logClick.run(url, count, nowMicros);
      for (const [query, count] of batch.queryClicks)
        this.statements.logQueryClick.run(query, count, nowMicros);
      this.analytics.add(batch.searchDays, batch.clickDays);
    })();
  }

  /** Clicks per normalized query, the `limit` most clicked. */
  queryClickCounts(limit: number): Map<string, number> {
    const rows = this.statements.queryClicks.all(limit) as { query: string; count: number }[];
    return new Map(rows.map((row) => [row.query, row.count]));
  }

  /** Readings of phrases analysed before ('' where none is known). */
  phraseReadings(): Map<string, string> {
    const rows = this.statements.phraseReadings.all() as { phrase: string; reading: string }[];
    return new Map(rows.map((row) => [row.phrase, row.reading]));
  }

  /** The reading kept for a phrase ('' where none is known); undefined for a phrase never read. */
  phraseReading(phrase: string): string | undefined {
    return this.statements.phraseReading.get(phrase) as string | undefined;
  }

  /** Keeps readings of phrases for the life of the file, in one transaction. */
  saveReadings(readings: ReadonlyMap<string, string>): void {
    this.db.transaction(() => {
      for (const [phrase, reading] of readings) this.statements.saveReading.run(phrase, reading);
    })();
  }

  /** The `limit` most asked past queries that found something. */
  queryLog(limit: number): QueryLogEntry[] {
    return this.statements.queryLog.all(limit) as QueryLogEntry[];
  }

  /** Forgets queries asked (and queries clicked from) only once and not since `beforeMicros`. */
  pruneQueryLog(beforeMicros: number): void {
    this.statements.pruneQueryLog.run(beforeMicros);
    this.statements.pruneQueryClicks.run(beforeMicros);
  }

  clickCounts(): Map<string, number> {
    const rows = this.statements.clicks.all() as { url: string; count: number }[];
    return new Map(rows.map((row) => [row.url, row.count]));
  }

  /** Makes writes of this connection give up at once instead of waiting for another writer. */
  withoutWaiting<T>(work: () => T): T {
    this.db.pragma('busy_timeout = 0');
    try {
      return work();
    } finally {
      this.db.pragma('busy_timeout = 5000');
    }
  }

  /** Whether the file is still open (work in the background stops once it is closed). */
  get open(): boolean {
    return this.db.open;
  }

  /**
   * The generation this file was last published as, or installed from (docs/design/scale-out.md,
   * Search nodes); 0 when never.
   */
  publishedGeneration(): number {
    const value = this.db
      .prepare("SELECT value FROM index_meta WHERE key = 'published_generation'")
      .pluck()
      .get();
    return value === undefined ? 0 : Number(value);
  }

  /**
   * Records this file's changes from now on, for publications as deltas (docs/design/scale-out.md,
   * Generations as objects); answers whether every change since an earlier call was recorded
   * (false the first time, or when a table was made since: the next publication is then whole).
   */
  recordChanges(): boolean {
    const complete = recordsEveryChange(this.db);
    if (!complete) recordChanges(this.db);
    return complete;
  }

  /** The digest of the file's schema, which a delta applies to. */
  schemaDigest(): string {
    return schemaDigest(this.db);
  }

  /** Marks every recorded change as being published (by a whole snapshot of the file). */
  markChangesPublishing(): void {
    markPublishing(this.db);
  }

  /** Forgets the changes marked, once their publication is recorded. */
  forgetPublishedChanges(): void {
    forgetPublished(this.db);
  }

  setPublishedGeneration(generation: number): void {
    this.db
      .prepare("INSERT OR REPLACE INTO index_meta (key, value) VALUES ('published_generation', ?)")
      .run(String(generation));
  }

  /** Copies the file as it stands to `file`, a consistent snapshot whatever is written meanwhile. */
  async backupTo(file: string): Promise<void> {
    await this.db.backup(file);
  }

  ping(): boolean {
    return this.db.prepare('SELECT 1').pluck().get() === 1;
  }

  close(): void {
    this.db.close();
  }
}

function documentValues(document: Omit<StoredDocument, 'id'>) {
  return [
    document.url,
    document.title,
    document.description,
    document.headings,
    document.body,
    document.template,
    document.contentSize,
    document.lastModified,
    document.doctype,
    document.language ?? '',
  ] as const;
}
