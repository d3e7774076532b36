/**
 * How the suggester is built (docs/design/search-engine.md, Suggest): from the phrases cut when
 * pages are indexed and stored with them; for a large index in the background, while suggest
 * answers from the previous suggester; and for an index file of format 7, whose pages have no
 * phrases stored, from phrases cut once and written back.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { FacetPool } from '../../src/search/site/facet-pool.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { UNDO_FORMAT_12 } from './format-11-segment.js';

const folders: string[] = [];
const pool = new FacetPool();

after(async () => {
  await pool.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function fileIn(name: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-suggest-build-'));
  folders.push(folder);
  return path.join(folder, name);
}

const siteOf = (index: SearchIndex) =>
  new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), { facetPool: pool });

const words = (site: SiteSearch, typed: string, limit = 10) =>
  site.suggest(typed, limit).map((suggestion) => suggestion.word);

const TOPICS = ['index', 'table', 'sequence', 'trigger', 'view', 'schema', 'role', 'function'];

/** A reference manual of 2,400 pages: more than suggest builds at once on a request. */
const manualPage = (n: number): IndexedDocument => ({
  url: `https://docs.example/manual/page-${n}.html`,
  title: `Create ${TOPICS[n % TOPICS.length]} part${Math.floor(n / TOPICS.length)}`,
  description: '',
  headings: `Alter ${TOPICS[n % TOPICS.length]}\nExamples of ${TOPICS[(n + 3) % TOPICS.length]}`,
  body: `Page ${n} describes ${TOPICS[n % TOPICS.length]} objects.`,
});

const LARGE_MANUAL = Array.from({ length: 2400 }, (_, n) => manualPage(n));

describe('suggest on a large index', () => {
  test('a request during a rebuild answers at once from the previous suggester; the new one follows', async () => {
    const index = new SearchIndex(fileIn('large.db'));
    try {
      index.writer.upsert(LARGE_MANUAL, 'bundle:test');
      const site = siteOf(index);
      // Opening the service started the first build in the background.
      await site.suggesterBuilt();
      const before = words(site, 'create');
      assert.ok(before.includes('create index'), JSON.stringify(before));
      assert.deepEqual(words(site, 'zygo'), []);

      index.writer.upsert(
        [{ url: 'https://docs.example/manual/zygote.html', title: 'Zygote', description: '', body: 'new' }],
        'bundle:test',
      );
      const started = performance.now();
      const during = words(site, 'create');
      const elapsedMs = performance.now() - started;
      // The index changed: the request started a rebuild and was answered by the previous suggester.
      assert.deepEqual(during, before);
      assert.deepEqual(words(site, 'zygo'), []);
      assert.ok(elapsedMs < 200, `the request took ${elapsedMs} ms`);

      await site.suggesterBuilt();
      assert.deepEqual(words(site, 'zygo'), ['zygote']);
      assert.deepEqual(words(site, 'create'), before);
    } finally {
      index.close();
    }
  });

  test('a large index just opened answers at once, then with past queries first and its phrases', async () => {
    const file = fileIn('queries.db');
    const index = new SearchIndex(file);
    try {
      index.writer.upsert(LARGE_MANUAL, 'bundle:test');
      const activity = new SearchActivity(index.store, systemClock);
      activity.recordQuery('create trigger examples', 1);
      await activity.flush();
      const site = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), {
        facetPool: pool,
      });
      // Without waiting for the build, which opening the index started: nothing from the index yet.
      assert.deepEqual(words(site, 'create'), []);
      await site.suggesterBuilt();
      const built = words(site, 'create');
      assert.equal(built[0], 'create trigger examples', JSON.stringify(built));
      assert.ok(built.includes('create index'), JSON.stringify(built));
    } finally {
      index.close();
    }
  });
});

const PAGES: IndexedDocument[] = [
  {
    url: 'https://pg.example/a',
    title: 'CREATE INDEX',
    description: '',
    headings: 'Synopsis\nNotes',
    body: 'x',
  },
  {
    url: 'https://pg.example/b',
    title: 'CREATE TABLE',
    description: '',
    headings: 'Synopsis\nColumns',
    body: 'y',
  },
  {
    url: 'https://pg.example/c',
    title: 'Indexes - Manual',
    description: '',
    headings: 'Index Types',
    body: 'z',
  },
  {
    url: 'https://ja.example/d',
    title: '仮想ホスト - Apache',
    description: '',
    headings: '仮想ホストの設定\n名前ベースの仮想ホスト',
    body: 'w',
  },
];

describe('phrases of a staged run', () => {
  test('are suggested once the run is applied, and those of the versions it replaced are not', () => {
    const index = new SearchIndex(fileIn('staged.db'));
    try {
      index.writer.upsert(PAGES, 'setting:1');
      const site = siteOf(index);
      assert.ok(words(site, 'create').includes('create index'));
      index.writer.stage('run-1', [{ ...PAGES[0]!, title: 'REINDEX' }]);
      assert.ok(words(site, 'create').includes('create index'), 'a staged page is not searchable yet');
      assert.deepEqual(words(site, 'reind'), []);
      index.writer.applyStaged('run-1', { feed: 'setting:1', gone: [], release: () => false });
      assert.ok(!words(site, 'create').includes('create index'), JSON.stringify(words(site, 'create')));
      assert.deepEqual(words(site, 'reind'), ['reindex']);
    } finally {
      index.close();
    }
  });
});

/** Turns an index file back into format 7: no stored phrases. */
function toFormat7(file: string): void {
  const db = new Database(file);
  db.exec(
    "DROP TRIGGER documents_drop_display_head; DROP TABLE display_heads; DROP TABLE staged_display_heads; DROP INDEX staged_documents_id; DELETE FROM index_meta WHERE key = 'display_heads_complete'; " +
      UNDO_FORMAT_12 +
      "DROP TRIGGER documents_drop_phrases; DROP TABLE document_phrases; DROP TABLE staged_phrases; UPDATE index_meta SET value = '7' WHERE key = 'schema'",
  );
  db.close();
}

describe('an index file of format 7', () => {
  test('keeps its suggestions once upgraded, and gains the phrases of its pages', () => {
    const fresh = new SearchIndex(fileIn('fresh.db'));
    const file = fileIn('format7.db');
    const old = new SearchIndex(file);
    old.writer.upsert(PAGES, 'bundle:test');
    old.close();
    toFormat7(file);
    const upgraded = new SearchIndex(file);
    try {
      fresh.writer.upsert(PAGES, 'bundle:test');
      const stored = () =>
        new Database(file, { readonly: true }).prepare('SELECT count(*) FROM document_phrases').pluck().get();
      assert.equal(stored(), 0);
      for (const typed of ['create', 'ind', 'syn', '仮想', 'cr'])
        assert.deepEqual(words(siteOf(upgraded), typed), words(siteOf(fresh), typed), typed);
      // The phrases cut for the suggester were written back: the next start reads them.
      assert.equal(stored(), PAGES.length);
      assert.deepEqual(words(siteOf(upgraded), 'create'), ['create', 'create index', 'create table']);
    } finally {
      fresh.close();
      upgraded.close();
    }
  });

  test('a page changed after the upgrade is suggested by its new title', () => {
    const file = fileIn('changed.db');
    const old = new SearchIndex(file);
    old.writer.upsert(PAGES, 'bundle:test');
    old.close();
    toFormat7(file);
    const index = new SearchIndex(file);
    try {
      index.writer.upsert([{ ...PAGES[0]!, title: 'DROP INDEX' }], 'bundle:test');
      const site = siteOf(index);
      assert.ok(!words(site, 'create').includes('create index'), JSON.stringify(words(site, 'create')));
      // "drop index" is on as many pages as "drop": only the shorter is offered (suggester.ts).
      assert.deepEqual(words(site, 'drop'), ['drop']);
    } finally {
      index.close();
    }
  });
});
