/**
 * The engine beneath SearchIndex: segments survive a reopen, merges keep every live document and
 * drop deleted ones, another connection's batches become visible, ranking follows the fields,
 * proximity and the word view.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeText } from '../../src/search/analyzer.js';
import { BatchIndexer } from '../../src/search/batch-indexer.js';
import { indexingBudgetOf } from '../../src/search/indexing-budget.js';
import Database from 'better-sqlite3';
import { decodeDocArrays, encodeDocArrays } from '../../src/search/engine/segment-codec.js';
import { compareTerms } from '../../src/search/engine/segment.js';
import { sharedPostingsCache } from '../../src/search/engine/postings-cache.js';
import { prefixBound } from '../../src/search/engine/stored-segment.js';
import { buildSegment } from '../../src/search/engine/segment-builder.js';
import { mergeSegments } from '../../src/search/engine/segment-merge.js';
import { segmentsToMerge } from '../../src/search/engine/merge-policy.js';
import { topByScore, topK } from '../../src/search/engine/top-k.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import type { Searcher } from '../../src/search/searcher.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { seededRandom } from '../support/seeded-random.js';
import { rankedSearch } from '../support/ranked-search.js';
import { firstPageRequest } from '../support/site-search-request.js';

let folder: string;
before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-engine-'));
});
after(() => rmSync(folder, { recursive: true, force: true }));

const page = (n: number, body: string, title = `page ${n}`): IndexedDocument => ({
  url: `https://site.example/p/${n}.html`,
  title,
  description: '',
  body,
});
const urls = (index: SearchIndex, query: string, limit = 10) =>
  rankedSearch(index, query, limit).docs.map((doc) => doc.url);

describe('segments', () => {
  const analyzed = (docId: number, text: string) => ({
    docId,
    fields: [analyzeText(''), analyzeText(''), analyzeText(''), analyzeText(text), analyzeText('')],
  });

  test("a segment's documents are stored and read back as they were", () => {
    const segment = buildSegment(7, [analyzed(1, 'alpha beta 東京都 alpha'), analyzed(2, 'beta gamma')]);
    const documents = decodeDocArrays(encodeDocArrays(segment));
    assert.deepEqual([...documents.docIds], [1, 2]);
    assert.deepEqual([...documents.fieldLengths], [...segment.fieldLengths]);
    assert.equal(documents.postingsFormat, 2);
    const alpha = segment.termPostings('alpha')!;
    assert.deepEqual([...alpha.docs], [0]);
    assert.equal(alpha.positionReader().positionsOf(0).length, 2);
    assert.throws(() => decodeDocArrays(Buffer.from('nonsense bytes!!')), /not a Kumo index segment/);
  });

  test('terms are ordered as the index file orders them: by code point', () => {
    const terms = ['z', 'é', '\uE000', '𠀋', 'a𠀋', 'a\uFFFD', 'ab', 'a', '東京'];
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (term TEXT PRIMARY KEY)');
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      for (const term of terms) insert.run(term);
      const sqliteOrder = db.prepare('SELECT term FROM t ORDER BY term').pluck().all();
      assert.deepEqual([...terms].sort(compareTerms), sqliteOrder);
    } finally {
      db.close();
    }
  });

  test("the terms with a prefix are the range from the prefix to its last character's successor", () => {
    assert.equal(prefixBound('ab'), 'ac');
    assert.equal(prefixBound('a\uD7FF'), 'a\uE000', 'the surrogates are no character');
    assert.equal(prefixBound('𠀋'), String.fromCodePoint(0x2000c));
    assert.equal(prefixBound(`a${String.fromCodePoint(0x10ffff)}`), undefined);
    for (const term of ['ab', 'abc', 'ab𠀋', 'ab\uFFFF'])
      assert.ok(compareTerms(term, 'ab') >= 0 && compareTerms(term, prefixBound('ab')!) < 0, term);
    assert.ok(compareTerms('ac', prefixBound('ab')!) >= 0);
  });

  test('a merge keeps live documents in order and drops deleted ones and their terms', () => {
    const first = buildSegment(1, [analyzed(10, 'alpha beta'), analyzed(11, 'only here')]);
    const second = buildSegment(2, [analyzed(12, 'alpha gamma')]);
    first.markDeleted(1);
    const written: [string, number[]][] = [];
    const merged = mergeSegments([first, second], {
      startTerm: (term) => written.push([term, []]),
      addPosting: (doc) => written.at(-1)![1].push(doc),
      endTerm: () => {
        if (written.at(-1)![1].length === 0) written.pop();
      },
    });
    assert.deepEqual([...merged.docIds], [10, 12]);
    const byTerm = new Map(written);
    assert.equal(byTerm.has('only'), false);
    assert.deepEqual(byTerm.get('alpha'), [0, 1]);
    assert.deepEqual(byTerm.get('gamma'), [1]);
    const order = written.map(([term]) => term);
    assert.deepEqual(order, [...order].sort(compareTerms), 'terms come in the order rows are kept');
  });

  test('the merge policy merges a full tier, then a segment that is mostly deletions', () => {
    const small = { liveCount: 500, deletedRatio: 0 };
    assert.equal(segmentsToMerge(Array.from({ length: 7 }, () => small)), undefined);
    assert.deepEqual(segmentsToMerge(Array.from({ length: 8 }, () => small)), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(segmentsToMerge([small, { liveCount: 500, deletedRatio: 0.5 }]), [1]);
  });

  test('eight batches merged make a segment of the next tier, not merged again with the next batches', () => {
    const batch = { liveCount: 271, deletedRatio: 0 };
    const merged = { liveCount: 8 * 271, deletedRatio: 0 };
    assert.equal(segmentsToMerge([merged, ...Array.from({ length: 7 }, () => batch)]), undefined);
    const tier = Array.from({ length: 8 }, () => merged);
    assert.deepEqual(segmentsToMerge([...tier, batch]), [0, 1, 2, 3, 4, 5, 6, 7]);
    // Tiers are powers of 8 exactly: 511 and 512 documents are in different tiers.
    const below = { liveCount: 511, deletedRatio: 0 };
    assert.equal(
      segmentsToMerge([{ liveCount: 512, deletedRatio: 0 }, ...Array.from({ length: 7 }, () => below)]),
      undefined,
    );
  });

  test('topK returns the k best in order and breaks ties by the comparator', () => {
    const values = [5, 1, 9, 3, 9, 7];
    const compare = (a: number, b: number) => values[b]! - values[a]! || a - b;
    assert.deepEqual(topK(values.length, 3, compare), [2, 4, 5]);
    assert.deepEqual(topK(values.length, 10, compare), [2, 4, 5, 0, 3, 1]);
    assert.deepEqual(topK(values.length, 0, compare), []);
  });

  test('topByScore gives what topK gives by score, ties by position, whatever the scores and k', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 300; round += 1) {
      const count = Math.floor(random() * 400);
      // Few distinct scores in some rounds: many ties.
      const distinct = random() < 0.5 ? 4 : 1_000_000;
      const scores = Float64Array.from({ length: count }, () => Math.floor(random() * distinct) / 7);
      const k = Math.floor(random() * 120);
      const compare = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
      assert.deepEqual(topByScore(scores, count, k), topK(count, k, compare), `round ${round}`);
    }
    assert.deepEqual(topByScore([5, 1, 9, 3, 9, 7], 6, 3), [2, 4, 5]);
  });
});

describe('SearchIndex over many batches', () => {
  let index: SearchIndex;
  const file = () => path.join(folder, 'many.db');
  before(() => {
    index = new SearchIndex(file());
    // 20 batches of 100 make the merge policy merge tiers along the way.
    for (let batch = 0; batch < 20; batch += 1) {
      index.writer.upsert(
        Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          return page(n, `common words here ${n % 7 === 0 ? 'septenary' : 'plain'} number${n}`);
        }),
        'bundle:test',
      );
    }
  });
  after(() => index.close());

  test('every document stays findable after merges', () => {
    assert.equal(index.documentCount, 2000);
    assert.ok(index.searcher().snapshot.segments.length < 20, 'segments were merged');
    assert.equal(rankedSearch(index, 'common').hits, 2000);
    assert.equal(rankedSearch(index, 'septenary').hits, 286);
    assert.deepEqual(urls(index, 'number1234'), ['https://site.example/p/1234.html']);
  });

  test('replaced and removed documents disappear from their old segment', () => {
    const result = index.writer.upsert(
      [page(5, 'rewritten text'), page(6, 'common words here plain number6')],
      'bundle:test',
    );
    assert.deepEqual(result, { added: 0, updated: 1, unchanged: 1 });
    assert.deepEqual(urls(index, 'number5'), []);
    assert.deepEqual(urls(index, 'rewritten'), ['https://site.example/p/5.html']);
    assert.equal(index.writer.remove(['https://site.example/p/7.html', 'https://site.example/none']), 1);
    assert.equal(rankedSearch(index, 'common').hits, 1998);
  });

  test('a reopened index answers as before', () => {
    const reopened = new SearchIndex(file());
    try {
      assert.equal(reopened.documentCount, 1999);
      assert.deepEqual(urls(reopened, 'rewritten'), ['https://site.example/p/5.html']);
      assert.equal(rankedSearch(reopened, 'septenary').hits, rankedSearch(index, 'septenary').hits);
    } finally {
      reopened.close();
    }
  });

  test('opening an index reads no postings; a search reads those of its terms', () => {
    const before = sharedPostingsCache.bytes;
    const reopened = new SearchIndex(file());
    try {
      assert.equal(sharedPostingsCache.bytes, before, 'nothing decoded by opening');
      assert.equal(rankedSearch(reopened, 'septenary').hits, rankedSearch(index, 'septenary').hits);
      assert.ok(sharedPostingsCache.bytes > before, "the term's postings are kept for the next search");
    } finally {
      reopened.close();
    }
  });

  test("another connection's batch is seen by the next search, never half of it", () => {
    const writer = new SearchIndex(file());
    try {
      writer.writer.upsert(
        [page(9001, 'freshly added words'), page(9002, 'freshly added too')],
        'bundle:test',
      );
      writer.writer.remove(['https://site.example/p/8.html']);
    } finally {
      writer.close();
    }
    assert.equal(rankedSearch(index, 'freshly').hits, 2);
    assert.deepEqual(urls(index, 'number8'), []);
  });
});

describe('segments read from the index file', () => {
  /** 800 pages of `words` in 8 batches of 100, in a new index file. */
  const eightBatches = (name: string): string => {
    const file = path.join(folder, name);
    const index = new SearchIndex(file);
    for (let batch = 0; batch < 8; batch += 1)
      index.writer.upsert(
        Array.from({ length: 100 }, (_, i) => page(batch * 100 + i, `kept words number${batch * 100 + i}`)),
        'bundle:test',
      );
    index.close();
    return file;
  };
  /** Every page rewritten by `writer`: the segments before become mostly deletions and are merged away. */
  const rewriteAll = (writer: SearchIndex) => {
    for (let batch = 0; batch < 8; batch += 1)
      writer.writer.upsert(
        Array.from({ length: 100 }, (_, i) => page(batch * 100 + i, `rewritten words ${batch * 100 + i}`)),
        'bundle:test',
      );
  };

  test('a generation whose segments another connection merged away is no longer readable; the next one is', () => {
    const file = eightBatches('older-generation.db');
    const reader = new SearchIndex(file);
    const writer = new SearchIndex(file);
    try {
      const older = reader.searcher();
      assert.equal(older.stillReadable(), true);
      const segmentsBefore = older.snapshot.segments.map((loaded) => loaded.segment.id);
      rewriteAll(writer);
      const current = new Set(writer.searcher().snapshot.segments.map((loaded) => loaded.segment.id));
      assert.ok(
        segmentsBefore.every((id) => !current.has(id)),
        'every segment before was merged away',
      );
      assert.equal(older.stillReadable(), false);
      const newer = reader.searcher();
      assert.equal(newer.stillReadable(), true);
      assert.equal(rankedSearch(reader, 'kept').hits, 0);
      assert.equal(rankedSearch(reader, 'rewritten').hits, 800);
    } finally {
      writer.close();
      reader.close();
    }
  });

  test('a site search whose segments another process merges away while it reads runs again on the new ones', async () => {
    const file = eightBatches('search-again.db');
    const reader = new SearchIndex(file);
    const writer = new SearchIndex(file);
    const site = new SiteSearch(reader, {}, new SearchActivity(reader.store, systemClock));
    try {
      await site.search(firstPageRequest('number1'));
      // The other process commits its merges right after this search takes its generation.
      const takeSearcher = reader.searcher.bind(reader);
      let interleave: (() => void) | undefined = () => rewriteAll(writer);
      let stale: Searcher | undefined;
      reader.searcher = () => {
        const searcher = takeSearcher();
        const other = interleave;
        interleave = undefined;
        if (other !== undefined) {
          other();
          stale = searcher;
        }
        return searcher;
      };
      const answer = await site.search(firstPageRequest('words'));
      assert.equal(stale?.stillReadable(), false, 'the first generation read was merged away');
      assert.equal(answer.organic.hits, 800);
      assert.match(answer.organic.docs[0]!.title, /^page \d+$/);
    } finally {
      writer.close();
      reader.close();
    }
  });
});

describe('two writers on one index file', () => {
  test("a commit of another connection right after this one's is never overlooked", () => {
    const file = path.join(folder, 'two-writers.db');
    const first = new SearchIndex(file);
    const second = new SearchIndex(file);
    first.writer.upsert(
      Array.from({ length: 10 }, (_, n) => page(n, `shared word${n}`)),
      'bundle:test',
    );
    // The other writer commits just after each of this connection's transactions.
    const commit = first.store.writeTransaction.bind(first.store);
    let interleave: (() => void) | undefined = () => second.writer.remove(['https://site.example/p/3.html']);
    first.store.writeTransaction = <T>(work: () => T): T => {
      const result = commit(work);
      const other = interleave;
      interleave = undefined;
      other?.();
      return result;
    };
    first.writer.remove(['https://site.example/p/none.html']);
    first.writer.remove(['https://site.example/p/5.html']);
    const reader = new SearchIndex(file);
    try {
      assert.equal(reader.documentCount, 8);
      assert.equal(rankedSearch(reader, 'shared').hits, 8);
      assert.deepEqual(urls(reader, 'word3'), []);
    } finally {
      reader.close();
      first.close();
      second.close();
    }
  });
});

describe('ranking', () => {
  let index: SearchIndex;
  before(() => {
    index = new SearchIndex(path.join(folder, 'ranking.db'));
    index.writer.upsert(
      [
        page(1, 'The body mentions kumquat once among many other words of the page text here.', 'A page'),
        page(2, 'Nothing relevant in this body at all, just words.', 'Kumquat'),
        { ...page(3, 'Intro text. Kumquat details follow in the section.', 'Fruit'), headings: 'Kumquat' },
        page(4, 'search tools and a great engine for cars'),
        page(5, 'this search engine indexes pages'),
        page(6, '東京都の天気予報'),
        page(7, '京都のお寺'),
      ],
      'bundle:test',
    );
  });
  after(() => index.close());

  test('a title match ranks above a heading match, which ranks above a body match', () => {
    assert.deepEqual(urls(index, 'kumquat'), [
      'https://site.example/p/2.html',
      'https://site.example/p/3.html',
      'https://site.example/p/1.html',
    ]);
  });

  test('words next to each other rank above the same words apart', () => {
    assert.deepEqual(urls(index, 'search engine'), [
      'https://site.example/p/5.html',
      'https://site.example/p/4.html',
    ]);
  });

  test('a Japanese word of its own ranks above the same characters inside a longer word', () => {
    assert.deepEqual(urls(index, '京都'), ['https://site.example/p/7.html', 'https://site.example/p/6.html']);
  });

  test('a single Japanese character matches inside words, at the start and at the end', () => {
    assert.deepEqual(urls(index, '都').sort(), [
      'https://site.example/p/6.html',
      'https://site.example/p/7.html',
    ]);
    assert.deepEqual(urls(index, '報'), ['https://site.example/p/6.html']);
  });
});

describe('words with a single Japanese character at an edge', () => {
  test('match where the character is part of a longer run of text', () => {
    const index = new SearchIndex(path.join(folder, 'edges.db'));
    try {
      index.writer.upsert(
        [
          page(1, 'X線検査の結果'),
          page(2, '2024年3月期の決算'),
          page(3, '次第1号'),
          page(4, '13月という月はない'),
        ],
        'bundle:test',
      );
      assert.deepEqual(urls(index, 'X線'), ['https://site.example/p/1.html']);
      assert.deepEqual(urls(index, '3月'), ['https://site.example/p/2.html']);
      assert.deepEqual(urls(index, '第1'), ['https://site.example/p/3.html']);
      assert.deepEqual(urls(index, '3月期'), ['https://site.example/p/2.html']);
    } finally {
      index.close();
    }
  });
});

describe('BatchIndexer', () => {
  test('indexes a stream in batches analyzed by worker threads, in order, with the same results as upsert', async () => {
    const documents = Array.from({ length: 1234 }, (_, n) =>
      page(n, `stream words ${n % 3 === 0 ? '東京都の天気' : 'plain'} item${n}`),
    );
    const direct = new SearchIndex(path.join(folder, 'direct.db'));
    direct.writer.upsert(documents, 'bundle:test');
    direct.writer.upsert([page(0, 'replaced in the last batch')], 'bundle:test');
    const streamed = new SearchIndex(path.join(folder, 'streamed.db'));
    const progress: number[] = [];
    const indexer = new BatchIndexer(
      streamed.writer.forFeed('bundle:test'),
      (totals) => progress.push(totals.added),
      { batchSize: 500 },
    );
    for (const document of documents) await indexer.add(document);
    // The last of several documents with one URL counts, also across batches.
    await indexer.add(page(0, 'replaced in the last batch'));
    const totals = await indexer.finish();
    assert.deepEqual(totals, { added: 1234, updated: 1, unchanged: 0 });
    assert.deepEqual(progress, [500, 1000, 1234]);
    for (const query of ['stream', '京都', 'item1233', 'plain']) {
      assert.deepEqual(urls(streamed, query, 20), urls(direct, query, 20), query);
    }
    assert.deepEqual(urls(streamed, 'replaced'), ['https://site.example/p/0.html']);
    direct.close();
    streamed.close();
  });

  test('a large page is analyzed and written in a batch of its own', async () => {
    // The smallest budget: batches of 2 MiB; a page of a quarter of that is large.
    const budget = indexingBudgetOf(128);
    const large = page(3, `large ${'lengthy words '.repeat(Math.ceil(budget.batchBytes / 4 / 14))}`);
    const documents = [page(0, 'small one'), page(1, 'small two'), page(2, 'small three'), large];
    documents.push(page(4, 'small four'), page(5, 'small five'));
    const index = new SearchIndex(path.join(folder, 'large-page.db'));
    const progress: number[] = [];
    const indexer = new BatchIndexer(
      index.writer.forFeed('bundle:test'),
      (totals) => progress.push(totals.added),
      {
        budget,
      },
    );
    for (const document of documents) await indexer.add(document);
    await indexer.finish();
    assert.deepEqual(progress, [3, 4, 6]);
    assert.deepEqual(urls(index, 'lengthy'), [large.url]);
    assert.deepEqual(urls(index, 'five'), ['https://site.example/p/5.html']);
    index.close();
  });

  test("the analysis threads end before the pass's end, which needs none of them", async () => {
    const index = new SearchIndex(path.join(folder, 'pass-threads.db'));
    const target = index.writer.forFeed('bundle:test');
    const alive: number[] = [];
    let aliveAtPassEnd: number | undefined;
    const indexer: BatchIndexer = new BatchIndexer(
      {
        upsert: (documents, analyzed) => target.upsert(documents, analyzed),
        finish: () => {
          aliveAtPassEnd = indexer.analysisThreadsAlive;
          target.finish?.();
        },
      },
      () => alive.push(indexer.analysisThreadsAlive),
      { batchSize: 10 },
    );
    for (let n = 0; n < 40; n += 1) await indexer.add(page(n, `Statement item${n} is described here.`));
    await indexer.finish();
    assert.ok(Math.max(...alive) >= 1, `batches were analyzed in threads (${alive.join(', ')})`);
    assert.equal(aliveAtPassEnd, 0);
    assert.equal(index.documentCount, 40);
    index.close();
  });

  test('a pass splits the template its pages make once it ends, whichever batch a line became template in', async () => {
    const notice = 'Maintenance window on Sunday night';
    const early = 'Early bird discount for members';
    // The notice is on every page from the third batch on; the other line on three of the first
    // batch's pages only (template there, content by the end of the pass).
    const documents = Array.from({ length: 24 }, (_, n) =>
      page(
        n,
        [
          `Statement number ${n} is described here.`,
          ...(n >= 8 ? [notice] : []),
          ...(n < 3 ? [early] : []),
        ].join('\n'),
      ),
    );
    const index = new SearchIndex(path.join(folder, 'pass-template.db'));
    const indexer = new BatchIndexer(index.writer.forFeed('bundle:test'), () => undefined, { batchSize: 4 });
    for (const document of documents) await indexer.add(document);
    await indexer.finish();
    // On 16 of 24 pages the notice is template: no page matches it, the first ones included.
    assert.deepEqual(urls(index, 'maintenance', 30), []);
    // On 3 of 24 pages the other line is content.
    assert.deepEqual(
      urls(index, 'discount', 30).sort(),
      [0, 1, 2].map((n) => `https://site.example/p/${n}.html`),
    );
    // A page indexed alone afterwards is split with the pass's template at once.
    index.writer.upsert([page(99, `Statement 99.\n${notice}`)], 'bundle:test');
    assert.deepEqual(urls(index, 'maintenance', 30), []);
    assert.deepEqual(urls(index, 'statement', 30).length, 25);
    index.close();
  });

  test("a new site's pass adopts its template at 500 pages and ends with the template a pass without it finds", () => {
    const banner = 'Welcome to the example site';
    // On the first 300 pages: template at the adoption (half of 600), content at the end (a
    // quarter of 1,200, below the 30% a line needs unless the host's pages were split with it).
    const aside = 'Related reading list';
    const documents = Array.from({ length: 1_200 }, (_, n) =>
      page(n, [`Statement item${n} is described here.`, banner, ...(n < 300 ? [aside] : [])].join('\n')),
    );
    const index = new SearchIndex(path.join(folder, 'pass-adopts.db'));
    const target = index.writer.forFeed('bundle:test');
    target.upsert(documents.slice(0, 300), []);
    // 300 pages: the pass keeps to the template the host's pages were split with, none.
    assert.equal(rankedSearch(index, 'welcome', 10).hits, 300);
    assert.equal(rankedSearch(index, 'reading', 10).hits, 300);
    target.upsert(documents.slice(300, 600), []);
    // 600 pages: both lines are the host's template now, for the first 300 pages as well.
    assert.equal(rankedSearch(index, 'welcome', 10).hits, 0);
    assert.equal(rankedSearch(index, 'reading', 10).hits, 0);
    target.upsert(documents.slice(600), []);
    const placeOf = (document: IndexedDocument) => {
      const place = index.store.locate(document.url)!;
      return `${place.segmentId}:${place.ordinal}`;
    };
    const before = documents.map(placeOf);
    target.finish?.();
    // The end indexed again the pages holding the aside, which is content, and no other page.
    const after = documents.map(placeOf);
    const moved = documents.filter((_, n) => after[n] !== before[n]).map((document) => document.url);
    assert.deepEqual(
      moved,
      documents.slice(0, 300).map((document) => document.url),
    );
    assert.equal(rankedSearch(index, 'welcome', 10).hits, 0);
    assert.equal(rankedSearch(index, 'reading', 10).hits, 300);
    for (const n of [0, 299, 300, 1_199]) assert.deepEqual(urls(index, `item${n}`), [documents[n]!.url]);
    index.close();
  });

  test('in a pass of several sites, only a new site with 500 pages adopts its template; the others keep their rules', () => {
    const pageOf = (host: string, n: number, lines: readonly string[]): IndexedDocument => ({
      url: `https://${host}/p/${n}.html`,
      title: `${host} page ${n}`,
      description: '',
      body: [`Statement item${n} of ${host.split('.')[0]} is described here.`, ...lines].join('\n'),
    });
    const index = new SearchIndex(path.join(folder, 'pass-hosts.db'));
    // An earlier pass: the members line is template on all 100 pages of the third site.
    const earlier = index.writer.forFeed('bundle:earlier');
    earlier.upsert(
      Array.from({ length: 100 }, (_, n) => pageOf('third.example', n, ['Members area login'])),
      [],
    );
    earlier.finish?.();
    assert.equal(rankedSearch(index, 'members', 10).hits, 0);
    const harbor = (n: number) => pageOf('harbor.example', n, ['Harbor lighthouse welcome']);
    const orchard = (n: number) => pageOf('orchard.example', n, ['Orchard cider welcome']);
    const third = (n: number) => pageOf('third.example', n, []);
    const target = index.writer.forFeed('bundle:test');
    for (const half of [0, 1]) {
      target.upsert(
        [
          ...Array.from({ length: 300 }, (_, n) => harbor(half * 300 + n)),
          ...Array.from({ length: 50 }, (_, n) => orchard(half * 50 + n)),
          ...Array.from({ length: 150 }, (_, n) => third(100 + half * 150 + n)),
        ],
        [],
      );
    }
    // 600 harbor pages: adopted. 100 orchard pages: not yet judged, split without a template.
    assert.equal(rankedSearch(index, 'lighthouse', 10).hits, 0);
    assert.equal(rankedSearch(index, 'cider', 10).hits, 100);
    target.finish?.();
    assert.equal(rankedSearch(index, 'cider', 10).hits, 0);
    assert.equal(rankedSearch(index, 'lighthouse', 10).hits, 0);
    // On 100 of the third site's 400 pages: it was template before the pass and stays so above 20%.
    assert.equal(rankedSearch(index, 'members', 10).hits, 0);
    for (const url of [harbor(0).url, orchard(99).url, third(399).url])
      assert.equal(index.store.locate(url) !== undefined, true, url);
    index.close();
  });

  test('a site is judged once in a pass: a template that shows after its first 500 pages waits for the end', () => {
    const banner = 'Welcome to the example site';
    const index = new SearchIndex(path.join(folder, 'pass-judged.db'));
    const target = index.writer.forFeed('bundle:test');
    target.upsert(
      Array.from({ length: 600 }, (_, n) => page(n, `Statement item${n} is described here.`)),
      [],
    );
    target.upsert(
      Array.from({ length: 600 }, (_, n) =>
        page(600 + n, `Statement item${600 + n} is described here.\n${banner}`),
      ),
      [],
    );
    // Judged at 600 pages with no template line: the banner of the next 600 waits for the end.
    assert.equal(rankedSearch(index, 'welcome', 10).hits, 600);
    target.finish?.();
    assert.equal(rankedSearch(index, 'welcome', 10).hits, 0);
    index.close();
  });

  test('the end of a pass splits again more pages than a chunk, on both schemes of a host, each once', async () => {
    const banner = 'Welcome to the example site';
    const notice = 'Maintenance window on Sunday night';
    // The banner makes the host's template at its first 500 pages; the notice, on the pages after
    // them, becomes template only by the end of the pass, which splits its 600 pages again.
    const documents = Array.from({ length: 1_100 }, (_, n) => ({
      ...page(n, [`Statement item${n} is described here.`, banner, ...(n >= 500 ? [notice] : [])].join('\n')),
      url: `${n % 2 === 0 ? 'https' : 'http'}://site.example/p/${n}.html`,
    }));
    const index = new SearchIndex(path.join(folder, 'pass-chunks.db'));
    const indexer = new BatchIndexer(index.writer.forFeed('bundle:test'), () => undefined, {
      batchSize: 500,
    });
    for (const document of documents) await indexer.add(document);
    await indexer.finish();
    assert.deepEqual(urls(index, 'maintenance', 10), []);
    assert.deepEqual(urls(index, 'welcome', 10), []);
    assert.equal(index.documentCount, 1_100);
    for (const n of [0, 1, 499, 500, 501, 998, 999, 1_099])
      assert.deepEqual(urls(index, `item${n}`), [documents[n]!.url], `item${n}`);
    index.close();
  });
});
