/**
 * Which feeds claim each indexed document, and what a scheduled run may remove because of it:
 * index files of formats 3 and 4 (written here with raw SQL, the way those versions wrote them)
 * open migrated with their documents claimed `legacy`, which no scheduled run removes until it
 * has reached them once; several feeds claiming one document keep it until all let go.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ANALYZER_VERSION } from '../../src/search/analyzer.js';
import { analyzeDocumentFields } from '../../src/search/document-fields.js';
import { encodeFormat11Segment } from './format-11-segment.js';
import { buildSegment } from '../../src/search/engine/segment-builder.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { applyRunToIndex, type RunPageOutcomes } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { writeBundle } from '../support/crawl-bundle.js';
import { rankedSearch } from '../support/ranked-search.js';

const SITE = 'https://docs.example.com';
const SETTING = 'setting:1';

const folders: string[] = [];
const newFolder = (): string => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-feeds-'));
  folders.push(folder);
  return folder;
};
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const urls = (index: SearchIndex, query: string): string[] =>
  rankedSearch(index, query, 100)
    .docs.map((doc) => doc.url)
    .sort();

const doc = (url: string, words: string): IndexedDocument => ({
  url,
  title: `Page ${words}`,
  description: '',
  body: `${words} everywhere`,
});

/** The tables of format 3 (format 4 adds staging: a `staged_run` column and `staged_documents`). */
const SCHEMA_3 = `
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
    content_hash BLOB NOT NULL,
    segment_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL
  );
  CREATE INDEX documents_segment ON documents (segment_id, ordinal);
  CREATE TABLE segments (id INTEGER PRIMARY KEY, data BLOB NOT NULL, deleted BLOB NOT NULL);
  CREATE TABLE query_log (query TEXT PRIMARY KEY, count INTEGER NOT NULL, hits INTEGER NOT NULL, last_us INTEGER NOT NULL);
  CREATE TABLE clicks (url TEXT PRIMARY KEY, count INTEGER NOT NULL, last_us INTEGER NOT NULL);
`;
const STAGING_4 = `
  ALTER TABLE segments ADD COLUMN staged_run TEXT;
  CREATE TABLE staged_documents (
    run_key TEXT NOT NULL, id INTEGER NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL,
    headings TEXT NOT NULL, body TEXT NOT NULL, content_size INTEGER NOT NULL,
    last_modified INTEGER NOT NULL, doctype TEXT NOT NULL, content_hash BLOB NOT NULL,
    segment_id INTEGER NOT NULL, ordinal INTEGER NOT NULL, PRIMARY KEY (run_key, id)
  );
`;

/** An index file of format 3 or 4 holding `documents` in one searchable segment. */
function writeOldIndex(file: string, schema: 3 | 4, documents: readonly IndexedDocument[]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(schema === 3 ? SCHEMA_3 : SCHEMA_3 + STAGING_4);
    const meta = db.prepare('INSERT INTO index_meta (key, value) VALUES (?, ?)');
    meta.run('schema', String(schema));
    meta.run('analyzer', String(ANALYZER_VERSION));
    const insert = db.prepare(
      `INSERT INTO documents (id, url, title, description, headings, body, content_size, last_modified,
         doctype, content_hash, segment_id, ordinal) VALUES (?, ?, ?, ?, '', ?, ?, 0, 'html', ?, 1, ?)`,
    );
    const segment = buildSegment(
      1,
      documents.map((document, index) => ({ docId: index + 1, fields: analyzeDocumentFields(document) })),
    );
    db.prepare('INSERT INTO segments (id, data, deleted) VALUES (1, ?, ?)').run(
      encodeFormat11Segment(segment.data),
      Buffer.from(segment.deleted),
    );
    segment.data.docIds.forEach((docId, ordinal) => {
      const document = documents[docId - 1]!;
      const { url, title, description, body } = document;
      insert.run(docId, url, title, description, body, Buffer.byteLength(body), Buffer.alloc(32), ordinal);
    });
  } finally {
    db.close();
  }
}

const schemaOf = (file: string): string => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get() as string;
  } finally {
    db.close();
  }
};

const complete: RunPageOutcomes = { gone: new Set(), failed: new Set(), complete: true };

const page = (title: string, body: string): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><p>${body} everywhere</p></body></html>`;

/** Documents an index file of an older version holds. */
const LEGACY = {
  /** Never reached by the setting's runs. */
  untouched: doc(`${SITE}/untouched.html`, 'marmot'),
  /** Reached by the setting's first run after the upgrade, not by its second. */
  taken: doc(`${SITE}/taken.html`, 'pelican'),
  other: doc('https://blog.example.org/post.html', 'wombat'),
};

for (const schema of [3, 4] as const) {
  describe(`an index file of format ${schema}`, () => {
    let folder: string;
    let file: string;
    let index: SearchIndex;

    beforeEach(() => {
      folder = newFolder();
      file = path.join(folder, 'service-1.db');
      writeOldIndex(file, schema, Object.values(LEGACY));
      index = new SearchIndex(file);
    });
    afterEach(() => index.close());

    test('opens migrated: its documents stay searchable, claimed by no setting', () => {
      assert.equal(schemaOf(file), '17');
      assert.equal(index.documentCount, 3);
      assert.deepEqual(urls(index, 'marmot'), [LEGACY.untouched.url]);
      assert.deepEqual(urls(index, 'pelican'), [LEGACY.taken.url]);
      assert.deepEqual(urls(index, 'wombat'), [LEGACY.other.url]);
      assert.deepEqual(urls(index, 'everywhere').length, 3);
      for (const document of Object.values(LEGACY))
        assert.deepEqual(index.writer.feedsOf(document.url), ['legacy']);
      // Opened again (by kumo serve and kumo index alike), the migrated file is used as it is.
      const again = new SearchIndex(file);
      try {
        assert.deepEqual(urls(again, 'marmot'), [LEGACY.untouched.url]);
      } finally {
        again.close();
      }
    });

    test('a complete run keeps a legacy page it did not reach, removes one it reached once and later not', async () => {
      const first = path.join(folder, 'first.tar.gz');
      writeBundle(first, [
        { url: LEGACY.taken.url, status: 200, html: page('Taken', 'pelican') },
        { url: `${SITE}/new.html`, status: 200, html: page('New', 'quokka') },
      ]);
      const one = await applyRunToIndex(index, 'run-1', SETTING, first, complete);
      assert.equal(one.removed, 0, 'legacy pages the run did not reach are not its own');
      assert.deepEqual(urls(index, 'marmot'), [LEGACY.untouched.url]);
      assert.deepEqual(urls(index, 'wombat'), [LEGACY.other.url]);
      assert.deepEqual(
        index.writer.feedsOf(LEGACY.taken.url),
        [SETTING],
        'the run took the page it reached over',
      );
      assert.deepEqual(index.writer.feedsOf(LEGACY.untouched.url), ['legacy']);

      const second = path.join(folder, 'second.tar.gz');
      writeBundle(second, [{ url: `${SITE}/new.html`, status: 200, html: page('New', 'quokka') }]);
      const two = await applyRunToIndex(index, 'run-2', SETTING, second, complete);
      assert.equal(two.removed, 1);
      assert.deepEqual(urls(index, 'pelican'), [], 'the page it reached once and no longer is removed');
      assert.deepEqual(urls(index, 'marmot'), [LEGACY.untouched.url]);
      assert.deepEqual(urls(index, 'wombat'), [LEGACY.other.url]);
      assert.deepEqual(urls(index, 'quokka'), [`${SITE}/new.html`]);
    });
  });
}

describe('claims of several feeds', () => {
  let index: SearchIndex;
  beforeEach(() => {
    index = new SearchIndex(path.join(newFolder(), 'service-1.db'));
  });
  afterEach(() => index.close());

  /** A complete run of `feed` that reached `reached` and nothing else. */
  const run = (runKey: string, feed: string, reached: readonly IndexedDocument[]): number => {
    index.writer.stage(runKey, reached);
    return index.writer.applyStaged(runKey, { feed, gone: [], release: () => true });
  };

  test('a page two settings reach stays until neither reaches it', () => {
    const shared = doc(`${SITE}/shared.html`, 'bittern');
    run('run-1', 'setting:1', [shared]);
    run('run-2', 'setting:2', [shared]);
    assert.deepEqual(index.writer.feedsOf(shared.url), ['setting:1', 'setting:2']);

    assert.equal(run('run-3', 'setting:1', []), 0);
    assert.deepEqual(urls(index, 'bittern'), [shared.url]);
    assert.deepEqual(index.writer.feedsOf(shared.url), ['setting:2']);
    assert.equal(run('run-4', 'setting:2', []), 1);
    assert.deepEqual(urls(index, 'bittern'), []);
  });

  test("a run's claims count only once it is applied; a discarded run claims nothing", () => {
    const page1 = doc(`${SITE}/one.html`, 'heron');
    index.writer.upsert([page1], 'bundle:/srv/one');
    index.writer.stage('run-1', [page1]);
    assert.deepEqual(
      index.writer.feedsOf(page1.url),
      ['bundle:/srv/one'],
      'an unchanged page staged, not yet claimed',
    );
    index.writer.discardStaged('run-1');
    index.writer.stage('run-2', [page1]);
    index.writer.applyStaged('run-2', { feed: 'setting:1', gone: [], release: () => true });
    assert.deepEqual(index.writer.feedsOf(page1.url), ['bundle:/srv/one', 'setting:1']);
  });

  test("retiring a deleted setting's feed: its only pages become legacy, shared ones lose its claim", () => {
    const alone = doc(`${SITE}/alone.html`, 'ibis');
    const shared = doc(`${SITE}/shared.html`, 'bittern');
    run('run-1', 'setting:1', [alone, shared]);
    index.writer.upsert([shared], 'run:7');
    index.writer.retireFeeds(['setting:1']);
    assert.deepEqual(index.writer.feedsOf(alone.url), ['legacy']);
    assert.deepEqual(index.writer.feedsOf(shared.url), ['run:7']);
    assert.deepEqual(index.writer.feeds(), ['legacy', 'run:7']);
    assert.deepEqual(urls(index, 'ibis'), [alone.url], 'nothing is removed');

    // A new setting reaching the legacy page takes it over, and removes it once it no longer does.
    run('run-2', 'setting:2', [alone]);
    assert.deepEqual(index.writer.feedsOf(alone.url), ['setting:2']);
    assert.equal(run('run-3', 'setting:2', []), 1);
    assert.deepEqual(urls(index, 'ibis'), []);
    assert.deepEqual(urls(index, 'bittern'), [shared.url]);
  });

  test('a removed page takes its claims along: a later page given its row id starts unclaimed', () => {
    const first = doc(`${SITE}/first.html`, 'egret');
    index.writer.upsert([first], 'setting:1');
    const id = index.store.documentIdOf(first.url);
    assert.equal(index.writer.remove([first.url]), 1);
    const next = doc(`${SITE}/next.html`, 'plover');
    index.writer.upsert([next], 'bundle:/srv/next');
    assert.equal(index.store.documentIdOf(next.url), id, 'SQLite gave the new row the same id');
    assert.deepEqual(index.writer.feedsOf(next.url), ['bundle:/srv/next']);
    assert.equal(run('run-1', 'setting:1', []), 0, 'setting:1 has no claim on the new page');
    assert.deepEqual(urls(index, 'plover'), [next.url]);
  });
});
