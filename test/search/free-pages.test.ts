/**
 * Free pages of an index file (docs/design/search-engine.md, Free pages): the pages a pass's
 * merges and removals free go back to the file system at its end, with every page as findable as
 * before; a file made before index files did that is rewritten once when asked (`kumo index`),
 * and a scheduled run's end gives its pages back too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { applyRunToIndex } from '../../src/search/indexing.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { type BundlePage, writeBundle } from '../support/crawl-bundle.js';
import { rankedSearch } from '../support/ranked-search.js';
import { seededRandom } from '../support/seeded-random.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-free-pages-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const random = seededRandom(11);
const WORDS = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}`);
/** A body of 300 words drawn from the site's vocabulary: term rows and documents over many pages. */
const bodyOf = (n: number) =>
  `${n % 5 === 0 ? 'quinary' : 'plain'} ${Array.from({ length: 300 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}`;
const page = (n: number): IndexedDocument => ({
  url: `https://site.example/p/${n}.html`,
  title: `page ${n}`,
  description: '',
  body: bodyOf(n),
});
const QUERIES = ['quinary', 'plain', 'word1a', 'word2b quinary', 'page'];

/** The hits of each query, in rank order. */
function answers(index: SearchIndex): string[][] {
  return QUERIES.map((query) =>
    rankedSearch(index, query, 1000).docs.map((hit) => `${hit.url} ${hit.score}`),
  );
}

/** Free pages, pages and auto-vacuum mode of the file, read as another process would. */
function fileState(file: string): { free: number; pages: number; mode: number; pageBytes: number } {
  const db = new Database(file, { readonly: true });
  try {
    const read = (pragma: string) => db.pragma(pragma, { simple: true }) as number;
    return {
      free: read('freelist_count'),
      pages: read('page_count'),
      mode: read('auto_vacuum'),
      pageBytes: read('page_size'),
    };
  } finally {
    db.close();
  }
}

/** 1,500 pages in batches of 50, then two pages in three removed: merges and removals free pages. */
function fillThenThin(index: SearchIndex): void {
  for (let batch = 0; batch < 30; batch += 1)
    index.writer.upsert(
      Array.from({ length: 50 }, (_, i) => page(batch * 50 + i)),
      'bundle:test',
    );
  const removed = Array.from({ length: 1500 }, (_, n) => n)
    .filter((n) => n % 3 !== 0)
    .map((n) => page(n).url);
  assert.equal(index.writer.remove(removed), 1000);
}

describe('free pages of an index file', () => {
  test('a new file gives its free pages back and finds every page as before, reopened too', async () => {
    const file = path.join(folder, 'new.db');
    const index = new SearchIndex(file);
    fillThenThin(index);
    const before = answers(index);
    const freed = fileState(file);
    assert.equal(freed.mode, 2, 'made in incremental auto-vacuum mode');
    assert.ok(freed.free > 20, `pages were freed (${freed.free})`);

    const released = await index.releaseFreePages();
    assert.equal(released.problem, undefined);
    assert.equal(released.bytes, freed.free * freed.pageBytes);
    const after = fileState(file);
    assert.equal(after.free, 0);
    assert.equal(after.pages, freed.pages - freed.free);
    assert.deepEqual(answers(index), before);
    assert.equal(rankedSearch(index, 'plain').hits + rankedSearch(index, 'quinary').hits, 500);
    index.close();

    // Closed (checkpointed), the file on disk holds only its pages.
    assert.equal(statSync(file).size, after.pages * after.pageBytes);
    const reopened = new SearchIndex(file);
    try {
      assert.deepEqual(answers(reopened), before);
    } finally {
      reopened.close();
    }
    const db = new Database(file, { readonly: true });
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    db.close();
  });

  test('a file made before is left as it is by a run, and rewritten once when kumo index asks', async () => {
    const file = path.join(folder, 'made-before.db');
    // The settings an index file was made with before: no auto-vacuum, fixed by the first write.
    const old = new Database(file);
    old.pragma('page_size = 16384');
    old.pragma('journal_mode = WAL');
    old.close();
    const index = new SearchIndex(file);
    try {
      fillThenThin(index);
      const before = answers(index);
      const freed = fileState(file);
      assert.equal(freed.mode, 0);
      assert.ok(
        freed.free * 4 >= freed.pages,
        `a quarter of the file is free (${freed.free} of ${freed.pages})`,
      );

      // What a scheduled run's end asks: nothing moves in such a file.
      assert.deepEqual(await index.releaseFreePages(), { bytes: 0 });
      assert.deepEqual(fileState(file), freed);

      const rewritten = await index.releaseFreePages(true);
      assert.equal(rewritten.problem, undefined);
      assert.ok(rewritten.bytes >= freed.free * freed.pageBytes, `${rewritten.bytes} bytes given back`);
      const after = fileState(file);
      assert.deepEqual({ mode: after.mode, free: after.free }, { mode: 2, free: 0 });
      assert.deepEqual(answers(index), before);

      // From then on it gives pages back as a new file does.
      index.writer.upsert(
        Array.from({ length: 200 }, (_, n) => page(5000 + n)),
        'bundle:test',
      );
      index.writer.remove(Array.from({ length: 200 }, (_, n) => page(5000 + n).url));
      assert.ok(fileState(file).free > 0);
      await index.releaseFreePages();
      assert.equal(fileState(file).free, 0);
      assert.deepEqual(answers(index), before);
    } finally {
      index.close();
    }
  });

  test("a scheduled run's end gives back what the run freed", async () => {
    const file = path.join(folder, 'service-1.db');
    const index = new SearchIndex(file);
    const html = (n: number, words: string) =>
      `<html><head><title>Page ${n}</title></head><body><main><p>${words}</p></main></body></html>`;
    const pages = (run: number): BundlePage[] =>
      Array.from({ length: 600 }, (_, n) => ({
        url: `https://site.example/p/${n}.html`,
        status: 200,
        // The second run changes every other page.
        html: html(n, `${run === 2 && n % 2 === 0 ? 'revised' : 'original'} ${bodyOf(n)}`),
      }));
    try {
      for (const run of [1, 2]) {
        const bundle = path.join(folder, `run-${run}.tar.gz`);
        writeBundle(bundle, pages(run));
        await applyRunToIndex(index, `run-${run}`, 'setting:1', bundle, {
          gone: new Set(),
          failed: new Set(),
          complete: true,
        });
        assert.equal(fileState(file).free, 0, `run ${run} left no free page`);
      }
      assert.equal(rankedSearch(index, 'revised').hits, 300);
      assert.equal(rankedSearch(index, 'original').hits, 300);
    } finally {
      index.close();
    }
  });
});
