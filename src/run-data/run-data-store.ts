import { renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { urlErrorKind } from '../domain/index.js';
import { REPORT_LINKS_PER_PAGE, REPORT_SCHEMA } from './run-report-schema.js';
import { preparePrivateDatabaseFile } from '../util/index.js';
import type {
  FrontierEntry,
  LinkRow,
  NewFrontierEntry,
  ObjectRef,
  PageCommit,
  RunDataStore,
  RunProgress,
  HostEventsRecord,
  SeedOutcomes,
  SitemapFileRecord,
  SitemapOutcomes,
  UrlRow,
} from './run-data.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS frontier (
  seq INTEGER PRIMARY KEY,
  fingerprint BLOB NOT NULL UNIQUE,
  url TEXT NOT NULL,
  depth INTEGER NOT NULL,
  referrer TEXT,
  state INTEGER NOT NULL DEFAULT 0, -- 0 queued, 1 fetched, 2 skipped
  -- The order in which entries left the queue: a checkpoint takes those marked since the last one.
  marked INTEGER,
  -- A sitemap's lastmod of the URL (W3C datetime as written).
  lastmod TEXT
);
CREATE INDEX IF NOT EXISTS frontier_queued ON frontier(seq) WHERE state = 0;
CREATE TABLE IF NOT EXISTS url_rows (
  id INTEGER PRIMARY KEY,
  crawl_url TEXT NOT NULL,
  last_url TEXT,
  ok INTEGER NOT NULL,
  crawl_us INTEGER NOT NULL,
  http_status INTEGER,
  last_modified TEXT,
  content_type TEXT,
  content_length INTEGER,
  object_offset INTEGER,
  object_bytes INTEGER,
  fetch_error TEXT,
  depth INTEGER,
  -- Why a page was kept from the previous run without a request; not in checkpoints.
  kept_without_request TEXT
);
CREATE TABLE IF NOT EXISTS link_rows (
  id INTEGER PRIMARY KEY,
  source_url TEXT NOT NULL,
  link_url TEXT NOT NULL,
  anchor_text TEXT NOT NULL,
  rel TEXT NOT NULL
);
-- The sitemap files the run read, in order; checkpoints do not carry them: a run resumed
-- elsewhere reads its sitemaps again.
CREATE TABLE IF NOT EXISTS sitemap_files (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  kind TEXT,
  listed INTEGER NOT NULL,
  added INTEGER NOT NULL,
  problem TEXT
);
CREATE TABLE IF NOT EXISTS sitemap_reading (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  finished INTEGER NOT NULL
);
-- Hosts that slowed the run down, paused it or were given up, as the run's history tells them.
CREATE TABLE IF NOT EXISTS host_events (
  host TEXT PRIMARY KEY,
  slowdowns INTEGER NOT NULL,
  max_gap_ms INTEGER NOT NULL,
  pauses INTEGER NOT NULL,
  given_up INTEGER NOT NULL,
  not_fetched INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS progress (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  crawled INTEGER NOT NULL,
  total INTEGER NOT NULL
);
INSERT OR IGNORE INTO progress (id, crawled, total) VALUES (1, 0, 0);
`;

/** Rows without an HTTP answer, by URL: the run's seed outcomes are looked up there. */
const UNANSWERED_INDEX = `
CREATE INDEX IF NOT EXISTS url_rows_unanswered ON url_rows(crawl_url) WHERE http_status IS NULL;
`;

/** Entries by the order they left the queue (see run-checkpoint-reader.ts). */
const MARKED_INDEX = `
CREATE INDEX IF NOT EXISTS frontier_marked ON frontier(marked) WHERE marked IS NOT NULL;
`;

/** A url_rows row as read. */
export interface UrlRowRecord {
  crawl_url: string;
  last_url: string | null;
  ok: number;
  crawl_us: number;
  http_status: number | null;
  last_modified: string | null;
  content_type: string | null;
  content_length: number | null;
  fetch_error: string | null;
}

/**
 * RunDataStore in a SQLite file of its own per run: writes of a busy crawl never contend with
 * the service database, and the whole run's data goes away by deleting one folder.
 */
export class SqliteRunDataStore implements RunDataStore {
  private readonly db: Database.Database;
  private readonly insertEntry: Database.Statement;
  private readonly keepLastmod: Database.Statement;
  private readonly selectLastmod: Database.Statement<[number], { lastmod: string | null }>;
  private readonly selectQueued: Database.Statement<[number, number], FrontierEntry>;
  private readonly markEntry: Database.Statement<[number, number]>;
  private readonly insertRow: Database.Statement;
  private readonly insertLink: Database.Statement;
  private readonly addProgress: Database.Statement<[number, number]>;
  private readonly commitTransaction: (commit: PageCommit) => number;
  private readonly selectProgress: Database.Statement<[], RunProgress>;
  private readonly enqueueTransaction: (entries: readonly NewFrontierEntry[]) => number;

  constructor(filePath: string) {
    preparePrivateDatabaseFile(filePath);
    this.db = new Database(filePath);
    // WAL without fsync per commit: a killed process loses nothing committed; only a power loss
    // could drop the last pages, which a resumed run fetches again.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('cache_size = -16000');
    this.db.exec(SCHEMA);
    // A run store written by an earlier version (a run resumed after an upgrade) lacks the column.
    const columns = this.db.prepare<[], { name: string }>('PRAGMA table_info(url_rows)').all();
    if (!columns.some((column) => column.name === 'fetch_error'))
      this.db.exec('ALTER TABLE url_rows ADD COLUMN fetch_error TEXT');
    if (!columns.some((column) => column.name === 'depth'))
      this.db.exec('ALTER TABLE url_rows ADD COLUMN depth INTEGER');
    if (!columns.some((column) => column.name === 'kept_without_request'))
      this.db.exec('ALTER TABLE url_rows ADD COLUMN kept_without_request TEXT');
    const entryColumns = this.db.prepare<[], { name: string }>('PRAGMA table_info(frontier)').all();
    if (!entryColumns.some((column) => column.name === 'marked'))
      this.db.exec('ALTER TABLE frontier ADD COLUMN marked INTEGER');
    if (!entryColumns.some((column) => column.name === 'lastmod'))
      this.db.exec('ALTER TABLE frontier ADD COLUMN lastmod TEXT');
    this.db.exec(UNANSWERED_INDEX);
    this.db.exec(MARKED_INDEX);
    this.insertEntry = this.db.prepare(
      'INSERT OR IGNORE INTO frontier (fingerprint, url, depth, referrer, lastmod) VALUES (?, ?, ?, ?, ?)',
    );
    // A URL a link queued before its sitemap was read still gets the sitemap's lastmod.
    this.keepLastmod = this.db.prepare(
      'UPDATE frontier SET lastmod = ? WHERE fingerprint = ? AND state = 0 AND lastmod IS NULL',
    );
    this.selectLastmod = this.db.prepare('SELECT lastmod FROM frontier WHERE seq = ?');
    this.selectQueued = this.db.prepare(
      'SELECT seq, url, depth, referrer, lastmod FROM frontier WHERE state = 0 AND seq > ? ORDER BY seq LIMIT ?',
    );
    // The subquery's condition lets it read the last mark from frontier_marked; without it
    // max() scans the whole frontier on every page, which made a crawl quadratic in its size.
    this.markEntry = this.db.prepare(
      `UPDATE frontier
       SET state = ?, marked = (SELECT coalesce(max(marked), 0) + 1 FROM frontier WHERE marked IS NOT NULL)
       WHERE seq = ?`,
    );
    this.insertRow = this.db.prepare(
      `INSERT INTO url_rows (crawl_url, last_url, ok, crawl_us, http_status, last_modified, content_type,
        content_length, object_offset, object_bytes, fetch_error, depth, kept_without_request)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT depth FROM frontier WHERE seq = ?), ?)`,
    );
    this.insertLink = this.db.prepare(
      'INSERT INTO link_rows (source_url, link_url, anchor_text, rel) VALUES (?, ?, ?, ?)',
    );
    this.addProgress = this.db.prepare(
      'UPDATE progress SET crawled = crawled + ?, total = total + ? WHERE id = 1',
    );

    const insertEntries = (entries: readonly NewFrontierEntry[]): number => {
      let added = 0;
      for (const entry of entries) {
        const lastmod = entry.lastmod ?? null;
        const inserted = this.insertEntry.run(
          entry.fingerprint,
          entry.url,
          entry.depth,
          entry.referrer,
          lastmod,
        );
        added += inserted.changes;
        if (inserted.changes === 0 && lastmod !== null) this.keepLastmod.run(lastmod, entry.fingerprint);
      }
      return added;
    };
    this.enqueueTransaction = this.db.transaction((entries: readonly NewFrontierEntry[]) => {
      const added = insertEntries(entries);
      this.addProgress.run(0, added);
      return added;
    });
    this.commitTransaction = this.db.transaction((commit: PageCommit) => {
      const { row, object } = commit;
      this.insertRow.run(
        row.crawlUrl,
        row.lastUrl,
        row.ok ? 1 : 0,
        row.crawlMicros,
        row.httpStatus,
        row.lastModified,
        row.contentType,
        row.contentLength,
        object?.offset ?? null,
        object?.bytes ?? null,
        row.fetchError,
        commit.frontierSeq,
        row.keptWithoutRequest ?? null,
      );
      for (const link of commit.links)
        this.insertLink.run(link.sourceUrl, link.linkUrl, link.anchorText, link.rel);
      const added = insertEntries(commit.discovered);
      this.markEntry.run(1, commit.frontierSeq);
      this.addProgress.run(1, added);
      return added;
    });
    this.selectProgress = this.db.prepare('SELECT crawled, total FROM progress WHERE id = 1');
  }

  enqueue(entries: readonly NewFrontierEntry[]): number {
    return this.enqueueTransaction(entries);
  }

  nextQueued(afterSeq: number, limit: number): FrontierEntry[] {
    return this.selectQueued.all(afterSeq, limit);
  }

  commitPage(commit: PageCommit): number {
    return this.commitTransaction(commit);
  }

  restartSitemaps(): void {
    this.db.exec('DELETE FROM sitemap_files; DELETE FROM sitemap_reading');
  }

  recordSitemap(file: SitemapFileRecord): void {
    this.db
      .prepare('INSERT INTO sitemap_files (url, kind, listed, added, problem) VALUES (?, ?, ?, ?, ?)')
      .run(file.url, file.kind, file.listed, file.added, file.problem);
  }

  finishSitemaps(): void {
    this.db.exec('INSERT OR REPLACE INTO sitemap_reading (id, finished) VALUES (1, 1)');
  }

  sitemapOutcomes(): SitemapOutcomes {
    const files = this.db
      .prepare<[], SitemapFileRecord>(
        'SELECT url, kind, listed, added, problem FROM sitemap_files ORDER BY id',
      )
      .all();
    const finished = this.db.prepare('SELECT 1 FROM sitemap_reading WHERE finished = 1').get() !== undefined;
    return { files, finished };
  }

  recordHostEvents(events: HostEventsRecord): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO host_events (host, slowdowns, max_gap_ms, pauses, given_up, not_fetched)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        events.host,
        events.slowdowns,
        events.maxGapMs,
        events.pauses,
        events.givenUp ? 1 : 0,
        events.notFetched,
      );
  }

  hostEvents(): HostEventsRecord[] {
    return this.db
      .prepare<[], Omit<HostEventsRecord, 'givenUp'> & { givenUp: number }>(
        `SELECT host, slowdowns, max_gap_ms AS maxGapMs, pauses, given_up AS givenUp, not_fetched AS notFetched
         FROM host_events ORDER BY host`,
      )
      .all()
      .map((row) => ({ ...row, givenUp: row.givenUp === 1 }));
  }

  lastmodOf(frontierSeq: number): string | null {
    return this.selectLastmod.get(frontierSeq)?.lastmod ?? null;
  }

  skip(frontierSeq: number): void {
    this.db.transaction(() => {
      if (this.markEntry.run(2, frontierSeq).changes > 0) this.addProgress.run(0, -1);
    })();
  }

  progress(): RunProgress {
    return this.selectProgress.get()!;
  }

  keptPages(): number {
    return this.db
      .prepare<[], { kept: number }>(
        `SELECT count(*) AS kept FROM url_rows
         WHERE http_status = 304 AND ok = 1 AND kept_without_request IS NULL`,
      )
      .get()!.kept;
  }

  keptUnaskedPages(): number {
    return this.db
      .prepare<[], { kept: number }>(
        'SELECT count(*) AS kept FROM url_rows WHERE kept_without_request IS NOT NULL AND ok = 1',
      )
      .get()!.kept;
  }

  seedOutcomes(): SeedOutcomes {
    // The seeds are enqueued before anything else, so they are the frontier's first entries.
    const seeds: string[] = [];
    const entries = this.db.prepare<[], { url: string; depth: number }>(
      'SELECT url, depth FROM frontier ORDER BY seq',
    );
    for (const entry of entries.iterate()) {
      if (entry.depth !== 0) break;
      seeds.push(entry.url);
    }
    const unansweredRow = this.db.prepare<[string], { fetch_error: string | null }>(
      'SELECT fetch_error FROM url_rows WHERE http_status IS NULL AND crawl_url = ? LIMIT 1',
    );
    const unanswered = [];
    for (const url of seeds) {
      const row = unansweredRow.get(url);
      if (row !== undefined) unanswered.push({ url, reason: row.fetch_error ?? 'no answer' });
    }
    return { seeds: seeds.length, unanswered };
  }

  *rows(): IterableIterator<UrlRow> {
    const statement = this.db.prepare<[], UrlRowRecord>(
      `SELECT crawl_url, last_url, ok, crawl_us, http_status, last_modified, content_type, content_length,
        fetch_error
       FROM url_rows ORDER BY id`,
    );
    for (const record of statement.iterate()) {
      yield {
        crawlUrl: record.crawl_url,
        lastUrl: record.last_url,
        ok: record.ok === 1,
        crawlMicros: record.crawl_us,
        httpStatus: record.http_status,
        lastModified: record.last_modified,
        contentType: record.content_type,
        contentLength: record.content_length,
        fetchError: record.fetch_error,
      };
    }
  }

  *links(): IterableIterator<LinkRow> {
    const statement = this.db.prepare<[], LinkRow>(
      'SELECT source_url AS sourceUrl, link_url AS linkUrl, anchor_text AS anchorText, rel FROM link_rows ORDER BY id',
    );
    yield* statement.iterate();
  }

  *objects(): IterableIterator<ObjectRef> {
    const statement = this.db.prepare<[], ObjectRef>(
      'SELECT object_offset AS offset, object_bytes AS bytes FROM url_rows WHERE object_offset IS NOT NULL ORDER BY id',
    );
    yield* statement.iterate();
  }

  close(): void {
    this.db.close();
  }

  /**
   * Writes the run's report (docs/design/crawl.md, Run reports and live progress) to `filePath`:
   * every URL row with its depth and error kind, and, when the bundle was written, where its page's
   * member sits in crawl_objects.tar.gz, its referrer, and the links found on it when the setting
   * collected them. Written beside and renamed, so a reader never sees half a report.
   */
  writeReport(filePath: string, written: { bundleWritten: boolean; linksCollected: boolean }): void {
    const { bundleWritten, linksCollected } = written;
    const partial = `${filePath}.partial`;
    rmSync(partial, { force: true });
    this.db.function('url_error_kind', { deterministic: true }, (ok, status, error) =>
      urlErrorKind(ok === 1, status as number | null, error as string | null),
    );
    // Referrers and links are looked up by URL: without these indexes the report is quadratic.
    this.db.exec(`CREATE INDEX IF NOT EXISTS frontier_url ON frontier(url);
      CREATE INDEX IF NOT EXISTS link_rows_source ON link_rows(source_url)`);
    this.db.prepare('ATTACH DATABASE ? AS report').run(partial);
    try {
      this.db.exec(REPORT_SCHEMA.replace(/CREATE (TABLE|INDEX) /g, '$&report.'));
      // A page's member starts where the members of the rows before it end: the bundle is the
      // members in row order with nothing between them (package-artifacts.ts).
      this.db
        .prepare(
          `INSERT INTO report.urls (id, url, last_url, ok, crawl_us, http_status, content_type, content_length,
             depth, error_kind, fetch_error, member_offset, member_bytes, referrer, links_found)
           SELECT id, crawl_url, last_url, ok, crawl_us, http_status, content_type, content_length, depth,
             url_error_kind(ok, http_status, fetch_error), fetch_error,
             CASE WHEN ? AND object_offset IS NOT NULL THEN
               COALESCE(SUM(object_bytes) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
             END,
             CASE WHEN ? AND object_offset IS NOT NULL THEN object_bytes END,
             (SELECT referrer FROM frontier WHERE frontier.url = url_rows.crawl_url LIMIT 1),
             CASE WHEN ? THEN (SELECT count(*) FROM link_rows WHERE source_url = url_rows.crawl_url) END
           FROM url_rows ORDER BY id`,
        )
        .run(bundleWritten ? 1 : 0, bundleWritten ? 1 : 0, linksCollected ? 1 : 0);
      this.db
        .prepare(
          `INSERT INTO report.links (row_id, url, anchor_text)
           SELECT row_id, link_url, anchor_text FROM (
             SELECT u.id AS row_id, l.link_url, l.anchor_text,
               row_number() OVER (PARTITION BY u.id ORDER BY l.id) AS n
             FROM url_rows u JOIN link_rows l ON l.source_url = u.crawl_url)
           WHERE n <= ?`,
        )
        .run(REPORT_LINKS_PER_PAGE);
    } finally {
      this.db.exec('DETACH DATABASE report');
    }
    renameSync(partial, filePath);
  }
}
