/**
 * Did-you-mean on a large index (docs/design/search-engine.md, Did you mean): no search waits for
 * the index's whole vocabulary. Past BUILD_AT_ONCE_DOCUMENTS pages the correction comes once the
 * suggester's build in the background has read the words, which the first search asking for one
 * starts; a small index corrects at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
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

function indexOf(name: string, pages: number): SiteSearch {
  const index = new SearchIndex(path.join(folder, name));
  opened.push(index);
  index.writer.upsert(
    Array.from({ length: pages }, (_, n) => page(n)),
    'bundle:test',
  );
  return new SiteSearch(index, {}, new SearchActivity(index.store, systemClock));
}

test('a large index corrects once its words are read in the background; no search reads them all', async () => {
  const search = indexOf('large.db', BUILD_AT_ONCE_DOCUMENTS + 1);
  // Opening the service started the build of the words of the index as it was; a page written
  // since makes a generation whose words nobody has read.
  await search.suggesterBuilt();
  search.index.writer.upsert([page(BUILD_AT_ONCE_DOCUMENTS + 1)], 'bundle:test');
  const snapshot = search.index.searcher().snapshot;
  assert.equal(builtVocabularyOf(snapshot), undefined);
  const first = await search.search(request('lighthuose'));
  assert.equal(first.organic.hits, 0);
  assert.equal(first.spellcheck.main_phrase, '', 'the search did not wait for the words');
  await search.suggesterBuilt();
  assert.ok(builtVocabularyOf(snapshot) !== undefined, 'the search started their build');
  const later = await search.search(request('lighthuose'));
  assert.equal(later.spellcheck.main_phrase, 'lighthouse');
});

test('a small index corrects at once', async () => {
  const search = indexOf('small.db', 20);
  const answer = await search.search(request('lighthuose'));
  assert.equal(answer.spellcheck.main_phrase, 'lighthouse');
});
