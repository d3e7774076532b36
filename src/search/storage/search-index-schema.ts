import type Database from 'better-sqlite3';
import { LEGACY_FEED } from '../../domain/index.js';
import { DISPLAY_HEADS_COMPLETE } from './display-head-rows.js';
import {
  DOCUMENT_HEADS_INDEX,
  DOCUMENT_STATE_SCHEMA,
  moveDocumentState,
  widenDocumentHeads,
} from './document-state.js';
import { ReanalysisRows } from './reanalysis-rows.js';
import { addSameTextKeys } from './same-text-keys.js';
import { addSegmentFacetsTable } from './segment-facet-rows.js';
import { addSegmentColumnsTable } from './segment-columns.js';
import { POSITION_BLOCKS_MIGRATION, SEGMENT_TERMS_SCHEMA } from './segment-term-rows.js';
import {
  TEMPLATE_MIGRATION,
  TEMPLATE_SCHEMA,
  COUNT_TRIGGERS_MIGRATION,
  templateBlocksOf,
  upgradeTemplateIndex,
} from './template-block-schema.js';

/**
 * Format of the index file; a file of an older format is upgraded in place (UPGRADES), one of
 * another must be rebuilt with `kumo index`.
 */
const SCHEMA_VERSION = '17';

/**
 * Format 4 adds staging (segments of a scheduled run that searches do not see until the run is
 * applied in one transaction); a format 3 file gains it in place.
 */
const STAGING_SCHEMA = `
  ALTER TABLE segments ADD COLUMN staged_run TEXT;
  CREATE TABLE staged_documents (
    run_key TEXT NOT NULL,
    id INTEGER NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    headings TEXT NOT NULL,
    body TEXT NOT NULL,
    content_size INTEGER NOT NULL,
    last_modified INTEGER NOT NULL,
    doctype TEXT NOT NULL,
    content_hash BLOB NOT NULL,
    segment_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    PRIMARY KEY (run_key, id)
  );
`;

/**
 * Format 5 records which feeds claim each document (docs/api.md, Search feeding): a
 * scheduled run removes only documents its own setting claims. A staged run's claims wait in
 * `staged_claims` until the run is applied. Removing a document removes its claims (the trigger:
 * document ids can be reused, a claim must never pass to a later document).
 */
const FEEDS_SCHEMA = `
  CREATE TABLE document_feeds (
    document_id INTEGER NOT NULL,
    feed TEXT NOT NULL,
    PRIMARY KEY (document_id, feed)
  ) WITHOUT ROWID;
  CREATE INDEX document_feeds_feed ON document_feeds (feed, document_id);
  CREATE TABLE staged_claims (
    run_key TEXT NOT NULL,
    document_id INTEGER NOT NULL,
    PRIMARY KEY (run_key, document_id)
  ) WITHOUT ROWID;
  CREATE INDEX staged_claims_document ON staged_claims (document_id);
  CREATE TRIGGER documents_unclaim AFTER DELETE ON documents BEGIN
    DELETE FROM document_feeds WHERE document_id = old.id;
    DELETE FROM staged_claims WHERE document_id = old.id;
  END;
`;

/**
 * A format 4 file gains the claims in place: its searchable documents are claimed by LEGACY_FEED
 * only, so no scheduled run removes them for not reaching them until a feed reaches and claims
 * them (docs/operations.md, Upgrading).
 */
const FEEDS_MIGRATION = `
  ${FEEDS_SCHEMA}
  INSERT INTO document_feeds (document_id, feed)
    SELECT d.id, '${LEGACY_FEED}' FROM documents d JOIN segments s ON s.id = d.segment_id
    WHERE s.staged_run IS NULL;
`;

/**
 * Format 7 (docs/reference/site-search.md, Suggest): clicks counted per query beside the query
 * log (`query_clicks`, written and pruned as the query log is), and the readings of the Japanese
 * title and heading phrases suggest has seen (`phrase_readings`, '' when no reading is known), so
 * a phrase is analysed once for the life of the file. A format 6 file gains both, empty, in place.
 */
const SUGGEST_SCHEMA = `
  CREATE TABLE query_clicks (query TEXT PRIMARY KEY, count INTEGER NOT NULL, last_us INTEGER NOT NULL);
  CREATE TABLE phrase_readings (phrase TEXT PRIMARY KEY, reading TEXT NOT NULL) WITHOUT ROWID;
`;

/**
 * Format 8 (docs/design/search-engine.md, Suggest): the phrases of each document's title and
 * headings, cut when it is analyzed (document-phrases.ts), by document id; a staged run's new
 * versions wait in `staged_phrases` until the run is applied. Removing a document removes its
 * phrases. A format 7 file gains both tables, empty, in place: the phrases of its documents are cut
 * in the background when a suggester is first built, and written back.
 */
const PHRASES_SCHEMA = `
  CREATE TABLE document_phrases (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
  CREATE TABLE staged_phrases (
    run_key TEXT NOT NULL,
    id INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (run_key, id)
  ) WITHOUT ROWID;
  CREATE TRIGGER documents_drop_phrases AFTER DELETE ON documents BEGIN
    DELETE FROM document_phrases WHERE id = old.id;
  END;
`;

/**
 * Format 9 (docs/design/search-engine.md, Stored display heads): the start of each document's main
 * text as result pages show it, cut when the document is indexed, with the content hash of the
 * version it belongs to and the lines it was cut by (src/search/display-head.ts); a staged run's
 * new versions keep theirs in `staged_display_heads` until the run is applied. Removing a document
 * removes its head. Staged rows are indexed by document id too: a new document's id is chosen above
 * every staged one (search-index-store.ts, insertDocument). A format 8 file gains both tables,
 * empty, in place: its documents' heads are cut from their bodies at each search, as before, until
 * the writes that follow store them (SearchIndex.fillDisplayHeads).
 */
const DISPLAY_HEAD_SCHEMA = `
  CREATE TABLE display_heads (
    id INTEGER PRIMARY KEY,
    content_hash BLOB NOT NULL,
    head TEXT NOT NULL,
    more INTEGER NOT NULL,
    lines BLOB NOT NULL
  );
  CREATE TABLE staged_display_heads (
    run_key TEXT NOT NULL,
    id INTEGER NOT NULL,
    content_hash BLOB NOT NULL,
    head TEXT NOT NULL,
    more INTEGER NOT NULL,
    lines BLOB NOT NULL,
    PRIMARY KEY (run_key, id)
  );
  CREATE INDEX staged_documents_id ON staged_documents (id);
  CREATE TRIGGER documents_drop_display_head AFTER DELETE ON documents BEGIN
    DELETE FROM display_heads WHERE id = old.id;
  END;
`;

/**
 * Format 10 (docs/reference/site-search.md, Pages with the same text): each display head carries
 * the key of its document's main text (src/search/main-text-key.ts), indexed to find the
 * documents that share one.
 */
const SAME_TEXT_SCHEMA = `
  ALTER TABLE display_heads ADD COLUMN main_key BLOB;
  ALTER TABLE staged_display_heads ADD COLUMN main_key BLOB;
  CREATE INDEX display_heads_main_key ON display_heads (main_key) WHERE main_key IS NOT NULL;
`;

/**
 * A format 9 file's heads have no key: they are dropped, and the writes that follow store them
 * again with their keys (SearchIndex.fillDisplayHeads); searches cut heads from the bodies
 * meanwhile, as a format 8 file's. A run staged before gets its pages' heads as it is applied,
 * as one staged before format 9 does.
 */
const SAME_TEXT_MIGRATION = `
  ${SAME_TEXT_SCHEMA}
  DELETE FROM display_heads;
  DELETE FROM staged_display_heads;
  DELETE FROM index_meta WHERE key = '${DISPLAY_HEADS_COMPLETE}';
`;

/**
 * Format 14 (docs/design/search-engine.md, Stored display heads): a head may be kept as runs of
 * its document's body instead of text (src/search/display-head.ts), with how far into the body
 * they reach; a head with runs has '' as its text. An older file's heads are all text, and are
 * read as before. Added where missing (addMissingColumns), as format 11's columns are.
 */
const HEAD_RUNS_COLUMNS = ['display_heads', 'staged_display_heads'].flatMap((table) => [
  { table, name: 'runs', definition: 'runs BLOB' },
  { table, name: 'body_end', definition: 'body_end INTEGER' },
]);

/**
 * Format 11 (docs/reference/site-search.md, Pages with the same text): each document carries the
 * language its page declares and how many pages of its indexing pass link to it, which pick the
 * page shown of a group for a query's language. An older file's documents have no language ('')
 * and no links (0) until they are written again. The language is added where missing after the
 * upgrade of any older format (addMissingColumns), whose tables are then format 10's; the link
 * counts live in `document_state` since format 16 (document-state.ts), written when a pass ends
 * or a run is applied (inbound-link-counts.ts).
 */
const ADDED_COLUMNS: readonly { table: string; name: string; definition: string }[] = [
  { table: 'documents', name: 'language', definition: "language TEXT NOT NULL DEFAULT ''" },
  { table: 'staged_documents', name: 'language', definition: "language TEXT NOT NULL DEFAULT ''" },
  ...HEAD_RUNS_COLUMNS,
];

function addMissingColumns(db: Database.Database): void {
  const columnsOf = new Map<string, unknown[]>();
  for (const { table, name, definition } of ADDED_COLUMNS) {
    let columns = columnsOf.get(table);
    if (columns === undefined) {
      columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();
      columnsOf.set(table, columns);
    }
    if (!columns.includes(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${definition}`);
  }
}

/** What brought a file of an older format (by its `schema` value) to format 11. */
const UPGRADES_TO_11: readonly (readonly [string, string])[] = [
  [
    '3',
    STAGING_SCHEMA +
      FEEDS_MIGRATION +
      TEMPLATE_MIGRATION +
      SUGGEST_SCHEMA +
      PHRASES_SCHEMA +
      DISPLAY_HEAD_SCHEMA +
      SAME_TEXT_SCHEMA,
  ],
  [
    '4',
    FEEDS_MIGRATION +
      TEMPLATE_MIGRATION +
      SUGGEST_SCHEMA +
      PHRASES_SCHEMA +
      DISPLAY_HEAD_SCHEMA +
      SAME_TEXT_SCHEMA,
  ],
  ['5', TEMPLATE_MIGRATION + SUGGEST_SCHEMA + PHRASES_SCHEMA + DISPLAY_HEAD_SCHEMA + SAME_TEXT_SCHEMA],
  ['6', SUGGEST_SCHEMA + PHRASES_SCHEMA + DISPLAY_HEAD_SCHEMA + SAME_TEXT_SCHEMA],
  ['7', PHRASES_SCHEMA + DISPLAY_HEAD_SCHEMA + SAME_TEXT_SCHEMA],
  ['8', DISPLAY_HEAD_SCHEMA + SAME_TEXT_SCHEMA],
  ['9', SAME_TEXT_MIGRATION],
  // Format 11's columns only (addMissingColumns).
  ['10', ''],
];

/**
 * What brings a file of an older format (by its `schema` value) to SCHEMA_VERSION. A file older
 * than format 12 keeps each segment's terms in one value: its segments are written again by
 * indexing its documents again (REWRITES_SEGMENTS_BELOW).
 */
const UPGRADES: ReadonlyMap<string, string> = new Map([
  ...UPGRADES_TO_11.map(
    ([from, sql]) => [from, sql + SEGMENT_TERMS_SCHEMA + COUNT_TRIGGERS_MIGRATION] as const,
  ),
  ['11', SEGMENT_TERMS_SCHEMA + COUNT_TRIGGERS_MIGRATION],
  ['12', COUNT_TRIGGERS_MIGRATION + POSITION_BLOCKS_MIGRATION],
  // Format 14's columns (addMissingColumns) and format 15's position blocks.
  ['13', POSITION_BLOCKS_MIGRATION],
  ['14', POSITION_BLOCKS_MIGRATION],
  // Format 16's document state (moveDocumentState, after the SQL of any older format).
  ['15', ''],
  // Format 17's wider heads index and counts of main text keys (widenDocumentHeads, addSameTextKeys).
  ['16', ''],
]);

/** Formats below this store a segment's terms in one value, which this version does not read. */
const REWRITES_SEGMENTS_BELOW = 12;

/**
 * Indexes the documents of a file written by an older analyzer again from their stored text
 * (docs/operations.md, Upgrading), given the file's rows and the analyzer version it was written
 * by; called inside the transaction that upgrades the file, once its tables are of the current
 * format.
 */
export type AnalyzerUpgrade = (rows: ReanalysisRows, fromVersion: number) => void;

/** The format and analyzer version an index file records. */
interface IndexFileVersions {
  schema: string;
  /** NaN when the file records none. */
  analyzer: number;
}

function versionsOf(db: Database.Database): IndexFileVersions {
  const rows = db.prepare("SELECT key, value FROM index_meta WHERE key IN ('schema', 'analyzer')").all() as {
    key: string;
    value: string;
  }[];
  const meta = new Map(rows.map((row) => [row.key, row.value]));
  return { schema: meta.get('schema') ?? '1', analyzer: Number(meta.get('analyzer') ?? NaN) };
}

/**
 * What brings a file to the current format and analyzer: the SQL of its format's upgrade (''
 * when its format is current), and whether its documents are to be analyzed again; undefined
 * when nothing is to be done or this version cannot upgrade it. Analysis needs `canReanalyze`:
 * a file of another analyzer is refused otherwise.
 */
function upgradeOf(
  versions: IndexFileVersions,
  analyzerVersion: number,
  canReanalyze: boolean,
): { sql: string; reanalyze: boolean } | undefined {
  const sql = versions.schema === SCHEMA_VERSION ? '' : UPGRADES.get(versions.schema);
  if (sql === undefined) return undefined;
  const older = Number.isInteger(versions.analyzer) && versions.analyzer < analyzerVersion;
  if (versions.analyzer !== analyzerVersion && !(older && canReanalyze)) return undefined;
  if (versions.schema === SCHEMA_VERSION && !older) return undefined;
  const rewrite = older || Number(versions.schema) < REWRITES_SEGMENTS_BELOW;
  if (rewrite && !canReanalyze) return undefined;
  return { sql, reanalyze: rewrite };
}

/**
 * Creates the tables of a new index file, or upgrades an older format in place and, with
 * `reanalyze`, a file of an older analyzer, or refuses a file this version cannot read (thrown,
 * naming the file).
 */
export function prepareIndexSchema(
  db: Database.Database,
  file: string,
  analyzerVersion: number,
  reanalyze?: AnalyzerUpgrade,
): void {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'index_meta'")
    .get();
  if (hasMeta) {
    if (upgradeOf(versionsOf(db), analyzerVersion, reanalyze !== undefined) !== undefined) {
      // One transaction: a failed upgrade leaves the file as it was, readable by the older version.
      // Taken with the write lock and checked again: another process may have upgraded it meanwhile.
      db.transaction(() => {
        const versions = versionsOf(db);
        const upgrade = upgradeOf(versions, analyzerVersion, reanalyze !== undefined);
        if (upgrade === undefined) return;
        db.exec(upgrade.sql);
        addMissingColumns(db);
        moveDocumentState(db);
        widenDocumentHeads(db);
        addSameTextKeys(db);
        const set = db.prepare('UPDATE index_meta SET value = ? WHERE key = ?');
        set.run(SCHEMA_VERSION, 'schema');
        if (!upgrade.reanalyze) return;
        reanalyze!(new ReanalysisRows(db, templateBlocksOf(db)), versions.analyzer);
        set.run(String(analyzerVersion), 'analyzer');
      }).immediate();
    }
    const versions = versionsOf(db);
    if (versions.schema !== SCHEMA_VERSION || versions.analyzer !== analyzerVersion) {
      const newer = Number(versions.schema) > Number(SCHEMA_VERSION) || versions.analyzer > analyzerVersion;
      throw new Error(
        `${file}: index built by ${newer ? 'a newer' : 'an older'} version of Kumo (schema ${versions.schema}, ` +
          `analyzer ${Number.isNaN(versions.analyzer) ? '?' : versions.analyzer}); ` +
          'remove the file and run kumo index again',
      );
    }
    upgradeTemplateIndex(db);
    addSegmentFacetsTable(db);
    addSegmentColumnsTable(db);
    // A file written by a build that lacked one of the added columns gets it.
    addMissingColumns(db);
    return;
  }
  db.exec(`
    CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE documents (
      id INTEGER PRIMARY KEY,
      url TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      headings TEXT NOT NULL,
      body TEXT NOT NULL,
      content_size INTEGER NOT NULL,
      last_modified INTEGER NOT NULL,
      doctype TEXT NOT NULL,
      content_hash BLOB NOT NULL
    );
    ${DOCUMENT_STATE_SCHEMA}
    CREATE TABLE segments (id INTEGER PRIMARY KEY, data BLOB NOT NULL, deleted BLOB NOT NULL);
    CREATE TABLE query_log (
      query TEXT PRIMARY KEY,
      count INTEGER NOT NULL,
      hits INTEGER NOT NULL,
      last_us INTEGER NOT NULL
    );
    CREATE TABLE clicks (url TEXT PRIMARY KEY, count INTEGER NOT NULL, last_us INTEGER NOT NULL);
    ${STAGING_SCHEMA}
    ${FEEDS_SCHEMA}
    ${TEMPLATE_SCHEMA}
    ${SUGGEST_SCHEMA}
    ${PHRASES_SCHEMA}
    ${DISPLAY_HEAD_SCHEMA}
    ${SAME_TEXT_SCHEMA}
    ${SEGMENT_TERMS_SCHEMA}
  `);
  addMissingColumns(db);
  // After the language column, which addMissingColumns adds.
  db.exec(DOCUMENT_HEADS_INDEX);
  addSameTextKeys(db);
  addSegmentFacetsTable(db);
  addSegmentColumnsTable(db);
  const insert = db.prepare('INSERT INTO index_meta (key, value) VALUES (?, ?)');
  insert.run('schema', SCHEMA_VERSION);
  insert.run('analyzer', String(analyzerVersion));
  // Every document of a new file gets its head when it is written (display-head-rows.ts).
  insert.run(DISPLAY_HEADS_COMPLETE, '1');
}
