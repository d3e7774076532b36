/**
 * Did-you-mean on a large index (docs/design/search-engine.md, Did you mean): no search waits for
 * the index's whole vocabulary. Past BUILD_AT_ONCE_DOCUMENTS pages a generation's words are read
 * in the background, which the first search asking for a correction starts, and the last words
 * read serve meanwhile; a small index, and a one-off search, correct at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import type { IndexSnapshot } from '../../src/search/search-index-types.js';
import { BUILD_AT_ONCE_DOCUMENTS, SearchActivity } from '../../src/search/site/search-activity.js';
import type { SiteSearchRequest } from '../../src/search/site/search-response.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { builtVocabularyOf } from '../../src/search/site/vocabulary.js';
import { systemClock } from '../../src/util/index.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-did-you-mean-'));
const opened: SearchIndex[] = [];
after(() => {
  for (const index of opened) index.close();
  rmSync(folder, { recursive: true, force: true });
});

const page = (n: number): IndexedDocument => ({
  url: `https://harbor.example/notes/${n}.html`,
  title: `Harbor note ${n}`,
  description: '',
  body: `The lighthouse keeper logs the tide. Entry ${n} of the harbor records.`,
});

const request = (q: string): SiteSearchRequest => ({
  q,
  pageNumber: 1,
  numberPerPage: 10,
  sortKeys: [{ field: 'score', order: 'desc' }],
  category: '',
  drilldown: [],
  doctype: [],
});

function indexOf(name: string, pages: number, wordsAtOnce = false): SiteSearch {
  const index = new SearchIndex(path.join(folder, name));
  opened.push(index);
  index.writer.upsert(
    Array.from({ length: pages }, (_, n) => page(n)),
    'bundle:test',
  );
  return new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), { wordsAtOnce });
}

/** Resolves once the words of `snapshot` are read, within 10 s. */
async function wordsRead(snapshot: IndexSnapshot): Promise<void> {
  for (let waited = 0; builtVocabularyOf(snapshot) === undefined; waited += 10) {
    assert.ok(waited < 10_000, 'the words were not read within 10 s');
    await delay(10);
  }
}

test('a large index corrects once its words are read in the background; no search reads them all', async () => {
  const search = indexOf('large.db', BUILD_AT_ONCE_DOCUMENTS + 1);
  // Opening the service started the suggester's build of the index as it was; a page written
  // since makes a generation whose words nobody has read.
  await search.suggesterBuilt();
  search.index.writer.upsert([page(BUILD_AT_ONCE_DOCUMENTS + 1)], 'bundle:test');
  const snapshot = search.index.searcher().snapshot;
  assert.equal(builtVocabularyOf(snapshot), undefined);
  const first = await search.search(request('lighthuose'));
  assert.equal(first.organic.hits, 0);
  assert.equal(first.spellcheck.main_phrase, '', 'the search did not wait for the words');
  await wordsRead(snapshot);
  assert.equal((await search.search(request('lighthuose'))).spellcheck.main_phrase, 'lighthouse');

  // While the index keeps changing, the last words read serve the newer generations.
  search.index.writer.upsert([page(BUILD_AT_ONCE_DOCUMENTS + 2)], 'bundle:test');
  const newer = search.index.searcher().snapshot;
  assert.equal(builtVocabularyOf(newer), undefined);
  assert.equal((await search.search(request('lighthuose'))).spellcheck.main_phrase, 'lighthouse');
  await wordsRead(newer);
});

test("a one-off search reads a large index's words at once", async () => {
  const search = indexOf('one-off.db', BUILD_AT_ONCE_DOCUMENTS + 1, true);
  await search.suggesterBuilt();
  search.index.writer.upsert([page(BUILD_AT_ONCE_DOCUMENTS + 1)], 'bundle:test');
  const answer = await search.search(request('lighthuose'));
  assert.equal(answer.spellcheck.main_phrase, 'lighthouse');
});

test('a small index corrects at once', async () => {
  const search = indexOf('small.db', 20);
  const answer = await search.search(request('lighthuose'));
  assert.equal(answer.spellcheck.main_phrase, 'lighthouse');
});
