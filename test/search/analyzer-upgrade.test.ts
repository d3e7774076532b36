/**
 * Index files written by an older analyzer are indexed again from their stored text when first
 * opened (docs/operations.md, Upgrading): test/fixtures/search-index/analyzer-4.db was written by
 * the release before the links field (analyzer 4, format 10), with two feeds, a staged run that
 * was never applied, a query, clicks and a phrase reading. Files this version cannot upgrade are
 * still refused, and an upgrade cut short leaves the file as it was.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ANALYZER_VERSION } from '../../src/search/analyzer.js';
import { fieldOfPosition, FIELDS } from '../../src/search/engine/fields.js';
import type { LoadedSegment, StagedRunEnd } from '../../src/search/search-index-types.js';
import { type ReanalysisProgress, reanalyzeIndexFile } from '../../src/search/reanalysis-upgrade.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchIndexStore } from '../../src/search/storage/search-index-store.js';
import { fileRows } from '../support/index-file-rows.js';
import { rankedSearch } from '../support/ranked-search.js';

/** Compiled tests run from dist/test/search; the fixtures stay in the source tree. */
const FIXTURE = new URL('../../../test/fixtures/search-index/analyzer-4.db', import.meta.url);

const SITE = 'https://docs.example.com';
const RUN = 'setting:1:run:42';
const BUNDLE = 'bundle:/srv/bundles/docs.zip';

/** The searchable pages of the fixture, each with a word only its title and one only its body holds. */
const PAGES = [
  { slug: 'marmot', title: 'burrows', body: 'alpine' },
  { slug: 'pelican', title: 'fishing', body: 'scoops' },
  { slug: 'wombat', title: 'wombat', body: 'cube' },
  { slug: 'heron', title: 'patience', body: 'motionless' },
  { slug: 'otter', title: 'tools', body: 'shellfish' },
  { slug: 'jp', title: '東京', body: '十三' },
];

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the fixture in a folder of its own. */
function fixtureCopy(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-analyzer-upgrade-'));
  folders.push(folder);
  const file = path.join(folder, 'service-1.db');
  copyFileSync(FIXTURE, file);
  return file;
}

const metaOf = (file: string): Record<string, string> =>
  Object.fromEntries(
    fileRows<{ key: string; value: string }>(file, 'SELECT key, value FROM index_meta').map((row) => [
      row.key,
      row.value,
    ]),
  );

const segmentsOf = (file: string) =>
  fileRows<{ id: number; staged_run: string | null }>(
    file,
    'SELECT id, staged_run FROM segments ORDER BY id',
  );

const urls = (index: SearchIndex, words: string): string[] =>
  rankedSearch(index, words, 100)
    .docs.map((doc) => doc.url)
    .sort();

/** The fields in which `term` occurs in the document at `url`, by the loaded segments. */
function fieldsOf(
  index: SearchIndex,
  segments: readonly LoadedSegment[],
  url: string,
  term: string,
): string[] {
  const fields = new Set<string>();
  for (const { segment } of segments) {
    const ordinal = index.store.columns
      .urls(segment.id, segment.docIds, 0, segment.docCount)
      .findIndex((at) => at === url);
    const postings = segment.termPostings(term);
    if (ordinal < 0 || postings === undefined) continue;
    const { docs } = postings;
    const reader = postings.positionReader();
    for (let posting = 0; posting < docs.length; posting += 1) {
      if (docs[posting] !== ordinal) continue;
      for (const position of reader.positionsOf(posting)) fields.add(FIELDS[fieldOfPosition(position)]!);
    }
  }
  return [...fields].sort();
}

const APPLY: StagedRunEnd = { feed: 'setting:1', gone: [], release: () => false };

describe('an index file written by analyzer 4', () => {
  let file: string;
  let progress: ReanalysisProgress[];
  let index: SearchIndex;

  beforeEach(() => {
    file = fixtureCopy();
    assert.equal(metaOf(file).analyzer, '4');
    progress = [];
    index = new SearchIndex(file, undefined, (step) => progress.push(step));
  });

  test('is indexed again when first opened: every page is found by its title and its body', () => {
    try {
      for (const page of PAGES) {
        const url = `${SITE}/${page.slug}.html`;
        assert.deepEqual(urls(index, page.title), [url], `title word ${page.title}`);
        assert.deepEqual(urls(index, page.body), [url], `body word ${page.body}`);
      }
      assert.equal(index.documentCount, PAGES.length);
      assert.deepEqual(metaOf(file), {
        schema: '17',
        analyzer: String(ANALYZER_VERSION),
        display_heads_complete: '1',
      });
      assert.equal(ANALYZER_VERSION, 5);
      // Searchable pages, the run's new page, the run's new version of a page.
      assert.deepEqual(
        progress.map(({ fromVersion, done, total, finished }) => ({ fromVersion, done, total, finished })),
        [
          { fromVersion: 4, done: 0, total: 8, finished: false },
          { fromVersion: 4, done: 6, total: 8, finished: false },
          { fromVersion: 4, done: 7, total: 8, finished: false },
          { fromVersion: 4, done: 8, total: 8, finished: false },
          { fromVersion: 4, done: 8, total: 8, finished: true },
        ],
      );
      // The three segments of the old analyzer are gone; the run keeps a staged segment per pass.
      assert.deepEqual(segmentsOf(file), [
        { id: 4, staged_run: null },
        { id: 5, staged_run: RUN },
        { id: 6, staged_run: RUN },
      ]);
    } finally {
      index.close();
    }
  });

  test('template text by markup is in the links field; the site-wide lines stay left out', () => {
    try {
      const { segments } = index.searcher().snapshot;
      // Each page's own template line ("Related: walrusnav"): stored apart from the body.
      assert.deepEqual(urls(index, 'walrusnav'), [`${SITE}/marmot.html`]);
      assert.deepEqual(fieldsOf(index, segments, `${SITE}/marmot.html`, 'walrusnav'), ['links']);
      assert.deepEqual(fieldsOf(index, segments, `${SITE}/marmot.html`, 'alpine'), ['body']);
      assert.deepEqual(urls(index, 'saffronnav'), [`${SITE}/heron.html`]);
      // The navigation line every page holds is the site's template: not indexed.
      assert.equal(rankedSearch(index, 'download').hits, 0);
    } finally {
      index.close();
    }
  });

  test('keeps the feeds, the query log, the clicks and the phrase readings', () => {
    try {
      assert.deepEqual(index.writer.feeds(), [BUNDLE, 'setting:1']);
      assert.deepEqual(index.writer.feedsOf(`${SITE}/marmot.html`), ['setting:1']);
      assert.deepEqual(index.writer.feedsOf(`${SITE}/heron.html`), [BUNDLE, 'setting:1']);
      assert.deepEqual(index.writer.feedsOf(`${SITE}/otter.html`), [BUNDLE]);
      assert.deepEqual(index.store.queryLog(10), [{ query: 'marmot', count: 3, hits: 1 }]);
      assert.deepEqual(index.store.clickCounts(), new Map([[`${SITE}/marmot.html`, 2]]));
      assert.deepEqual(index.store.queryClickCounts(10), new Map([['marmot', 2]]));
      assert.deepEqual(index.store.phraseReadings(), new Map([['東京の地下鉄', 'とうきょうのちかてつ']]));
      assert.ok(index.store.displayHeads.complete());
      // The phrases, normalized by the older analyzer, are left to the next suggester build to
      // cut again from the titles and headings, read where each document now is.
      const { segments } = index.searcher().snapshot;
      const rows = index.store.phrases.rowsOf(segments[0]!.segment.id, 0, 100);
      assert.deepEqual(
        rows.map((row) => ({ title: row.title, data: row.data })),
        fileRows<{ title: string }>(
          file,
          'SELECT d.title FROM documents d JOIN document_state s ON s.id = d.id WHERE s.segment_id = 4 ORDER BY s.ordinal',
        ).map(({ title }) => ({ title, data: null })),
      );
      assert.equal(rows.length, PAGES.length);
      assert.deepEqual(fileRows(file, 'SELECT * FROM staged_phrases'), []);
    } finally {
      index.close();
    }
  });

  test('keeps the staged run: applied afterwards, its new page and new version become searchable', () => {
    try {
      assert.deepEqual(index.writer.stagedRunKeys(), [RUN]);
      assert.deepEqual(urls(index, 'puffins'), []);
      assert.deepEqual(urls(index, 'drains'), []);
      index.writer.applyStaged(RUN, APPLY);
      assert.deepEqual(urls(index, 'puffins'), [`${SITE}/puffin.html`]);
      assert.deepEqual(urls(index, 'colonies'), [`${SITE}/puffin.html`]);
      assert.deepEqual(urls(index, 'basaltnav'), [`${SITE}/puffin.html`]);
      assert.deepEqual(urls(index, 'drains'), [`${SITE}/pelican.html`]);
      assert.deepEqual(urls(index, 'scoops'), [`${SITE}/pelican.html`]);
      assert.equal(index.documentCount, PAGES.length + 1);
      assert.deepEqual(index.writer.feedsOf(`${SITE}/puffin.html`), ['setting:1']);
      assert.deepEqual(index.writer.stagedRunKeys(), []);
    } finally {
      index.close();
    }
  });

  test('is upgraded once: a second open finds it current and leaves it as it is', () => {
    index.close();
    const segments = segmentsOf(file);
    const again: ReanalysisProgress[] = [];
    const reopened = new SearchIndex(file, undefined, (step) => again.push(step));
    try {
      assert.deepEqual(again, []);
      assert.deepEqual(segmentsOf(file), segments);
      assert.deepEqual(urls(reopened, 'alpine'), [`${SITE}/marmot.html`]);
    } finally {
      reopened.close();
    }
  });
});

/** The tables of format 3, the oldest this version upgrades. */
const SCHEMA_3 = `
  CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE documents (
    id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, title TEXT NOT NULL, description TEXT NOT NULL,
    headings TEXT NOT NULL, body TEXT NOT NULL, content_size INTEGER NOT NULL,
    last_modified INTEGER NOT NULL, doctype TEXT NOT NULL, content_hash BLOB NOT NULL,
    segment_id INTEGER NOT NULL, ordinal INTEGER NOT NULL
  );
  CREATE INDEX documents_segment ON documents (segment_id, ordinal);
  CREATE TABLE segments (id INTEGER PRIMARY KEY, data BLOB NOT NULL, deleted BLOB NOT NULL);
  CREATE TABLE query_log (query TEXT PRIMARY KEY, count INTEGER NOT NULL, hits INTEGER NOT NULL, last_us INTEGER NOT NULL);
  CREATE TABLE clicks (url TEXT PRIMARY KEY, count INTEGER NOT NULL, last_us INTEGER NOT NULL);
`;

describe('an index file of format 3 written by analyzer 3', () => {
  test('gains the tables of format 10 and is indexed again, its old segment never read', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-analyzer-upgrade-'));
    folders.push(folder);
    const file = path.join(folder, 'service-1.db');
    const db = new Database(file);
    db.exec(SCHEMA_3);
    db.exec("INSERT INTO index_meta VALUES ('schema', '3'), ('analyzer', '3')");
    // A segment of a layout this version cannot decode: the upgrade must not need it.
    db.prepare('INSERT INTO segments VALUES (1, ?, ?)').run(Buffer.from('old layout'), Buffer.alloc(2));
    const insert = db.prepare(
      `INSERT INTO documents VALUES (?, ?, ?, '', ?, ?, 100, 0, 'html', zeroblob(32), 1, ?)`,
    );
    insert.run(1, `${SITE}/a.html`, 'Lantern repair', 'Wicks', 'Trim the wick before lighting.', 0);
    insert.run(2, `${SITE}/b.html`, 'Kettle descaling', 'Vinegar', 'Boil vinegar to remove scale.', 1);
    db.exec("INSERT INTO clicks VALUES ('https://docs.example.com/a.html', 4, 0)");
    db.close();

    const index = new SearchIndex(file);
    try {
      assert.deepEqual(urls(index, 'lantern'), [`${SITE}/a.html`]);
      assert.deepEqual(urls(index, 'wick'), [`${SITE}/a.html`]);
      assert.deepEqual(urls(index, 'vinegar'), [`${SITE}/b.html`]);
      assert.deepEqual(urls(index, 'descaling'), [`${SITE}/b.html`]);
      assert.deepEqual(index.writer.feedsOf(`${SITE}/a.html`), ['legacy']);
      assert.deepEqual(index.store.clickCounts(), new Map([[`${SITE}/a.html`, 4]]));
    } finally {
      index.close();
    }
    assert.deepEqual(metaOf(file), { schema: '17', analyzer: String(ANALYZER_VERSION) });
    assert.deepEqual(segmentsOf(file), [{ id: 2, staged_run: null }]);
  });
});

describe('an upgrade cut short', () => {
  test('leaves the file as it was, for the older version to read', () => {
    const file = fixtureCopy();
    const before = segmentsOf(file);
    const places = fileRows(file, 'SELECT id, segment_id, ordinal FROM documents ORDER BY id');
    const phrases = fileRows(file, 'SELECT id, data FROM document_phrases ORDER BY id');
    assert.throws(
      () =>
        new SearchIndexStore(file, ANALYZER_VERSION, (rows, fromVersion) => {
          reanalyzeIndexFile(rows, fromVersion);
          throw new Error('cut short');
        }),
      /cut short/,
    );
    assert.equal(metaOf(file).analyzer, '4');
    assert.deepEqual(segmentsOf(file), before);
    assert.deepEqual(
      before.map((segment) => segment.id),
      [1, 2, 3],
    );
    assert.deepEqual(fileRows(file, 'SELECT id, segment_id, ordinal FROM documents ORDER BY id'), places);
    assert.deepEqual(fileRows(file, 'SELECT id, data FROM document_phrases ORDER BY id'), phrases);
  });

  test('a file of an older analyzer opened without re-analysis is refused, not changed', () => {
    const file = fixtureCopy();
    assert.throws(
      () => new SearchIndexStore(file, ANALYZER_VERSION),
      /index built by an older version of Kumo \(schema 10, analyzer 4\); remove the file and run kumo index again/,
    );
    assert.equal(metaOf(file).analyzer, '4');
  });
});

describe('index files this version cannot upgrade', () => {
  /** A file whose index_meta records `schema` and `analyzer`, nothing else. */
  function fileOf(schema: string, analyzer: string): string {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-analyzer-upgrade-'));
    folders.push(folder);
    const file = path.join(folder, 'service-1.db');
    const db = new Database(file);
    db.exec('CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    db.prepare("INSERT INTO index_meta VALUES ('schema', ?), ('analyzer', ?)").run(schema, analyzer);
    db.close();
    return file;
  }

  test('a format older than 3 is refused with what to do, whatever its analyzer', () => {
    for (const analyzer of ['2', '4', String(ANALYZER_VERSION)]) {
      const file = fileOf('2', analyzer);
      assert.throws(
        () => new SearchIndex(file),
        new RegExp(
          `service-1\\.db: index built by an older version of Kumo \\(schema 2, analyzer ${analyzer}\\); ` +
            'remove the file and run kumo index again',
        ),
      );
      assert.deepEqual(metaOf(file), { schema: '2', analyzer });
    }
  });

  test('a file of a newer analyzer or format is refused as a newer version', () => {
    for (const [schema, analyzer] of [
      ['17', String(ANALYZER_VERSION + 1)],
      ['18', String(ANALYZER_VERSION)],
    ] as const) {
      const file = fileOf(schema, analyzer);
      assert.throws(
        () => new SearchIndex(file),
        new RegExp(`index built by a newer version of Kumo \\(schema ${schema}, analyzer ${analyzer}\\)`),
      );
      assert.deepEqual(metaOf(file), { schema, analyzer });
    }
  });
});
