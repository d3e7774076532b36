/** The search index: Japanese and English documents with known answers. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseQuery } from '../../src/search/query-syntax.js';
import { planQuery } from '../../src/search/engine/query-plan.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { queryTreeOf } from '../../src/search/query-tree.js';
import { rankedSearch } from '../support/ranked-search.js';

const DOCS: IndexedDocument[] = [
  { url: 'https://x/tokyo', title: '東京都の天気', description: '', body: '東京都の週間天気予報です。' },
  { url: 'https://x/kyoto', title: '京都の観光', description: '', body: '京都のお寺と庭園を紹介します。' },
  {
    url: 'https://x/capture',
    title: '便利な道具',
    description: '',
    body: 'キャプチャツールの使い方を説明します。',
  },
  {
    url: 'https://x/python',
    title: 'Python Tutorial',
    description: 'Learn Python',
    body: 'Python lists and dictionaries.',
  },
  {
    url: 'https://x/lists',
    title: 'Data structures',
    description: '',
    body: 'Lists, tuples and sets in Python.',
  },
  { url: 'https://x/width', title: 'Ｗｉｎｄｏｗｓ１０の設定', description: '', body: 'ﾃｽﾄ用のページ' },
];

describe('SearchIndex', () => {
  let folder: string;
  let index: SearchIndex;
  before(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-index-'));
    index = new SearchIndex(path.join(folder, 'service.db'));
    index.writer.upsert(DOCS, 'bundle:test');
  });
  after(() => {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const urls = (query: string) => rankedSearch(index, query).docs.map((doc) => doc.url);

  test('a two-character Japanese word ranks the page about it above a compound containing it', () => {
    assert.deepEqual(urls('京都'), ['https://x/kyoto', 'https://x/tokyo']);
  });

  test('a word inside a compound is found through its bigrams', () => {
    assert.deepEqual(urls('キャプチャ'), ['https://x/capture']);
  });

  test('full-width and half-width queries find half-width and full-width text', () => {
    assert.deepEqual(urls('windows10'), ['https://x/width']);
    assert.deepEqual(urls('テスト'), ['https://x/width']);
  });

  test('every word must match (AND); a title match outranks a body match', () => {
    assert.deepEqual(urls('python lists'), ['https://x/python', 'https://x/lists']);
    assert.deepEqual(urls('python 京都'), []);
    assert.equal(rankedSearch(index, 'python').hits, 2);
    assert.equal(urls('python')[0], 'https://x/python');
  });

  test('a query of only punctuation or spaces matches nothing, without an error', () => {
    assert.deepEqual(rankedSearch(index, '  、。!? ').docs, []);
    assert.equal(rankedSearch(index, '').hits, 0);
    assert.deepEqual(planQuery(queryTreeOf('"" OR -')), { required: [], excluded: [] });
  });

  test('a quoted phrase needs its words adjacent; bare words only need to be there', () => {
    assert.deepEqual(urls('"python lists"'), ['https://x/python']);
    assert.deepEqual(urls('"lists python"'), []);
    assert.deepEqual(urls('"東京都"'), ['https://x/tokyo']);
  });

  test('-word leaves out documents containing it; only exclusions match nothing', () => {
    assert.deepEqual(urls('python -tuples'), ['https://x/python']);
    assert.deepEqual(urls('-python'), []);
    assert.deepEqual(urls('python -"python lists"'), ['https://x/lists']);
  });

  test('OR between words: either one', () => {
    assert.deepEqual(urls('キャプチャ OR windows10').sort(), ['https://x/capture', 'https://x/width']);
    assert.deepEqual(urls('python OR キャプチャ lists').sort(), ['https://x/lists', 'https://x/python']);
  });

  test('paging: offset and limit over the ranked hits', () => {
    assert.deepEqual(
      rankedSearch(index, 'python', 1, 1).docs.map((doc) => doc.url),
      ['https://x/lists'],
    );
    assert.deepEqual(rankedSearch(index, 'python', 10, 5).docs, []);
  });

  test('a document is replaced by URL and can be removed', () => {
    index.writer.upsert(
      [{ url: 'https://x/kyoto', title: '大阪の観光', description: '', body: '大阪城' }],
      'bundle:test',
    );
    assert.deepEqual(urls('京都'), ['https://x/tokyo']);
    assert.deepEqual(urls('大阪'), ['https://x/kyoto']);
    index.writer.remove(['https://x/kyoto']);
    assert.deepEqual(urls('大阪'), []);
  });
});

describe('parseQuery', () => {
  test('words, phrases, exclusions and OR', () => {
    assert.deepEqual(parseQuery('a "b c" -d OR e -"f g" h'), [
      { text: 'a', phrase: false, exclude: false, orPrevious: false },
      { text: 'b c', phrase: true, exclude: false, orPrevious: false },
      { text: 'd', phrase: false, exclude: true, orPrevious: false },
      { text: 'e', phrase: false, exclude: false, orPrevious: false },
      { text: 'f g', phrase: true, exclude: true, orPrevious: false },
      { text: 'h', phrase: false, exclude: false, orPrevious: false },
    ]);
    assert.deepEqual(
      parseQuery('x OR y').map((part) => part.orPrevious),
      [false, true],
    );
  });
});
