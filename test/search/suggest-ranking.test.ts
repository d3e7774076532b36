/**
 * Suggest (docs/reference/site-search.md, Suggest) on fixture sites shaped like real manuals: whole
 * phrases of titles and headings, never two words glued across a boundary; section labels and
 * stop words below topics; what visitors searched and clicked first; Japanese completions that
 * end at word boundaries, found by their readings too; template text never offered.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { FacetPool } from '../../src/search/site/facet-pool.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { UNDO_FORMAT_12 } from './format-11-segment.js';

const PG = 'https://docs.pg.example/15';
const LABELS = 'Synopsis\nDescription\nParameters\nExamples\nSee Also';

/** A reference page of an SQL manual: the command is the title, man-page sections the headings. */
const command = (slug: string, title: string, body: string): IndexedDocument => ({
  url: `${PG}/sql-${slug}.html`,
  title,
  description: '',
  headings: `${title}\n${LABELS}`,
  body: `${title}\n${body}\nSee also the related commands.`,
});

const POSTGRESQL_PAGES: IndexedDocument[] = [
  command(
    'createindex',
    'CREATE INDEX',
    'CREATE INDEX constructs an index. See the create information schema.',
  ),
  command('createtable', 'CREATE TABLE', 'CREATE TABLE defines a table; create information about columns.'),
  command('createsequence', 'CREATE SEQUENCE', 'Creates a sequence generator; see also insert into.'),
  command('insert', 'INSERT', 'INSERT INTO a table: insert into t values. See examples.'),
  command('select', 'SELECT', 'SELECT retrieves rows; see also select into. Set operations.'),
  command('set', 'SET', 'SET changes a run-time parameter; see the settings.'),
  command('security', 'SECURITY LABEL', 'Define or change a security label; see also.'),
  ...Array.from({ length: 6 }, (_, n) =>
    command(`other${n}`, `ALTER THING${n}`, `Changes thing ${n}. See also create information, seen and set.`),
  ),
];

interface Site {
  index: SearchIndex;
  activity: SearchActivity;
  site: SiteSearch;
}

const folders: string[] = [];
const pool = new FacetPool();

function siteOf(pages: readonly IndexedDocument[]): Site {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-suggest-'));
  folders.push(folder);
  const index = new SearchIndex(path.join(folder, 'suggest.db'));
  index.writer.upsert(pages, 'bundle:test');
  const activity = new SearchActivity(index.store, systemClock);
  return { index, activity, site: new SiteSearch(index, {}, activity, { facetPool: pool }) };
}

const words = (site: SiteSearch, typed: string, limit = 10) =>
  site.suggest(typed, limit).map((suggestion) => suggestion.word);

after(async () => {
  await pool.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('suggest on an SQL manual', () => {
  let pg: Site;
  before(() => {
    pg = siteOf(POSTGRESQL_PAGES);
  });
  after(() => pg.index.close());

  test('`create in` completes to the title phrase CREATE INDEX, never to words glued across a boundary', () => {
    const completions = words(pg.site, 'create in');
    assert.equal(completions[0], 'create index', JSON.stringify(completions));
    for (const glued of ['create information', 'create into', 'create insert'])
      assert.ok(!completions.includes(glued), JSON.stringify(completions));
    for (const completion of completions) assert.ok(completion.startsWith('create in'), completion);
  });

  test('`se` gives a command first, not "see" or the "See Also" section label', () => {
    const completions = words(pg.site, 'se');
    assert.ok(
      ['select', 'sequence', 'set', 'security label', 'security'].includes(completions[0]!),
      JSON.stringify(completions),
    );
    assert.ok(!completions.includes('see also'), JSON.stringify(completions));
    const see = completions.indexOf('see');
    for (const topic of ['select', 'set'])
      assert.ok(see === -1 || completions.indexOf(topic) < see, JSON.stringify(completions));
  });

  test('a section label on many pages is not suggested as a phrase', () => {
    assert.ok(!words(pg.site, 'synop').includes('synopsis'), JSON.stringify(words(pg.site, 'synop')));
  });

  test('a query searched and clicked ranks above one searched more often without clicks, above index phrases', () => {
    const { activity, site } = siteOf(POSTGRESQL_PAGES);
    for (let n = 0; n < 5; n += 1) activity.recordQuery('create sequence', 1);
    activity.recordQuery('create table', 1);
    activity.recordClick(`${PG}/sql-createtable.html`, 'Create  TABLE');
    const completions = site.suggest('create', 10);
    assert.deepEqual(
      completions.slice(0, 2).map((suggestion) => suggestion.word),
      ['create table', 'create sequence'],
      JSON.stringify(completions),
    );
    assert.ok(completions[0]!.point > completions[1]!.point && completions[1]!.point > completions[2]!.point);
    // Then the phrases of the index, CREATE INDEX among them.
    assert.ok(
      completions.slice(2).some((suggestion) => suggestion.word === 'create index'),
      JSON.stringify(completions),
    );
  });

  test('clicks per query are kept in the index file and count after a restart', async () => {
    const { index, activity } = siteOf(POSTGRESQL_PAGES);
    activity.recordQuery('create table', 1);
    for (let n = 0; n < 3; n += 1) activity.recordQuery('create sequence', 1);
    activity.recordClick(`${PG}/sql-createtable.html`, 'create table');
    await activity.flush();
    const restarted = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), {
      facetPool: pool,
    });
    assert.deepEqual(words(restarted, 'create', 2), ['create table', 'create sequence']);
  });
});

const JA = 'https://httpd.example.jp/docs';

const japanesePage = (slug: string, title: string, headings: string, body: string): IndexedDocument => ({
  url: `${JA}/${slug}.html`,
  title: `${title} - Apache HTTP サーバ`,
  description: '',
  headings,
  body: `モジュール | ディレクティブ | FAQ | 用語 | サイトマップ\n${headings}\n${body}`,
});

const JAPANESE_PAGES: IndexedDocument[] = [
  japanesePage(
    'vhosts',
    '仮想ホスト',
    '仮想ホスト\n仮想ホストの設定\n名前ベースの仮想ホスト',
    '仮想ホストはサーバを分けます。',
  ),
  japanesePage(
    'vhosts-examples',
    '仮想ホストの例',
    '仮想ホストの例\n仮想ホストの設定',
    '仮想ホストの設定例です。',
  ),
  japanesePage('auth', '認証と承認', '認証と承認\n基本認証の設定', 'パスワードで認証します。'),
  japanesePage('logs', 'ログファイル', 'ログファイル\nエラーログ\nアクセスログ', 'ログの書式を設定します。'),
  japanesePage('ssl', 'SSL/TLS 暗号化', 'SSL/TLS 暗号化\n証明書の作成', '証明書を設定します。'),
];

describe('suggest on a Japanese manual', () => {
  let ja: Site;
  before(async () => {
    ja = siteOf(JAPANESE_PAGES);
    await ja.site.suggestionsSettled();
  });
  after(() => ja.index.close());

  test('completions of 仮想 are whole words and phrases, never cut inside a word', () => {
    for (const typed of ['仮想', '仮想ホ', '仮想ホストの', '仮想ホストの設']) {
      const completions = words(ja.site, typed);
      for (const completion of completions)
        assert.ok(
          ['仮想ホスト', '仮想ホストの設定', '仮想ホストの例'].includes(completion),
          `${typed}: ${completion}`,
        );
    }
    const completions = words(ja.site, '仮想');
    assert.equal(completions[0], '仮想ホスト', JSON.stringify(completions));
    assert.ok(completions.includes('仮想ホストの設定'), JSON.stringify(completions));
  });

  test('kana and romaji typed before conversion complete to 仮想ホスト by its reading', () => {
    for (const typed of ['かそう', 'かそうほ', 'カソウ', 'kasou', 'kasouho']) {
      const completions = words(ja.site, typed);
      assert.equal(completions[0], '仮想ホスト', `${typed}: ${JSON.stringify(completions)}`);
    }
    assert.ok(
      words(ja.site, 'にんしょう').includes('認証と承認'),
      JSON.stringify(words(ja.site, 'にんしょう')),
    );
  });

  test('readings are kept in the index file: a new activity knows them without reading again', () => {
    const fresh = new SiteSearch(ja.index, {}, new SearchActivity(ja.index.store, systemClock), {
      facetPool: pool,
    });
    assert.equal(words(fresh, 'かそう')[0], '仮想ホスト');
  });

  test("the site's template (menu line, site name in titles) is never suggested", () => {
    for (const typed of ['モジ', 'ディレ', 'サイト', 'apache', 'サーバ', 'もじゅ']) {
      const completions = words(ja.site, typed);
      for (const template of ['モジュール', 'ディレクティブ', 'サイトマップ', 'apache http サーバ', 'apache'])
        assert.ok(!completions.includes(template), `${typed}: ${JSON.stringify(completions)}`);
    }
  });
});

describe('an index file of format 6', () => {
  test('gains the per-query click counts and the phrase readings in place', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-suggest-'));
    folders.push(folder);
    const file = path.join(folder, 'format6.db');
    new SearchIndex(file).close();
    const db = new Database(file);
    db.exec(
      'DROP TABLE query_clicks; DROP TABLE phrase_readings; DROP TRIGGER documents_drop_phrases; ' +
        "DROP TRIGGER documents_drop_display_head; DROP TABLE display_heads; DROP TABLE staged_display_heads; DROP INDEX staged_documents_id; DELETE FROM index_meta WHERE key = 'display_heads_complete'; " +
        UNDO_FORMAT_12 +
        "DROP TABLE document_phrases; DROP TABLE staged_phrases; UPDATE index_meta SET value = '6' WHERE key = 'schema'",
    );
    db.close();
    const index = new SearchIndex(file);
    try {
      index.writer.upsert(POSTGRESQL_PAGES, 'bundle:test');
      const activity = new SearchActivity(index.store, systemClock);
      activity.recordQuery('create table', 1);
      activity.recordClick(`${PG}/sql-createtable.html`, 'create table');
      await activity.flush();
      assert.deepEqual([...index.store.queryClickCounts(10)], [['create table', 1]]);
    } finally {
      index.close();
    }
    const reopened = new Database(file, { readonly: true });
    try {
      assert.equal(reopened.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get(), '17');
    } finally {
      reopened.close();
    }
  });
});
