/**
 * The phrase counts suggest is built from (docs/design/search-engine.md, Suggest), on a real
 * index file: documents of titles and headings per phrase over the live pages, section labels
 * left out, and a count after a merge, which copies the merged documents' phrases from the
 * count before it, equal to a count read afresh.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { type CountedPhrases, PhraseCounter } from '../../src/search/site/phrase-counts.js';
import { runNow } from '../../src/search/site/work-slices.js';

let folder: string;
let index: SearchIndex;

const TOPICS = ['Replication setup', 'Vacuum tuning', 'Index types', 'Backup and restore'];

const page = (n: number, title = `${TOPICS[n % TOPICS.length]!} part ${n}`): IndexedDocument => ({
  url: `https://manual.example/docs/page-${n}.html`,
  title,
  description: '',
  headings: `${TOPICS[(n + 1) % TOPICS.length]!}\nParameters`,
  body: `Page ${n} of the manual explains ${TOPICS[n % TOPICS.length]!.toLowerCase()} in detail.`,
});

/** Batches of ten pages: each its own segment, until the eighth merges them. */
function addBatch(batch: number, pages = Array.from({ length: 10 }, (_, n) => page(batch * 10 + n))): void {
  index.writer.upsert(pages, `bundle:${batch}`);
}

function count(counter: PhraseCounter): CountedPhrases {
  const searcher = index.searcher();
  return runNow(counter.count(searcher.snapshot, searcher.templateBlocks()));
}

/** The phrases any live document holds, by text. */
function phrasesOf(
  counted: CountedPhrases,
): Map<string, { documents: number; titles: number; head?: string }> {
  const phrases = new Map<string, { documents: number; titles: number; head?: string }>();
  for (let id = 0; id < counted.texts.size; id += 1) {
    if (counted.documents[id] === 0) continue;
    const head = counted.heads[id]!;
    phrases.set(counted.texts.textOf(id), {
      documents: counted.documents[id]!,
      titles: counted.titles[id]!,
      ...(head < 0 ? {} : { head: counted.texts.textOf(head) }),
    });
  }
  return phrases;
}

function sorted(counted: CountedPhrases): unknown {
  return {
    phrases: [...phrasesOf(counted)].sort(([a], [b]) => a.localeCompare(b)),
    template: [...counted.template].sort(),
  };
}

before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-phrase-counts-'));
  index = new SearchIndex(path.join(folder, 'index.db'));
});

after(() => {
  index.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('phrase counts', () => {
  test('a merged segment counts as the segments it was merged from, a changed page as it is now', () => {
    for (let batch = 0; batch < 7; batch += 1) addBatch(batch);
    assert.equal(index.searcher().snapshot.segments.length, 7);
    const counter = new PhraseCounter(index.store);
    const before = count(counter);
    // 70 pages: each topic is the title of 17 or 18. It is a heading of as many others, which
    // makes it a section label there (on 5% of the pages or more): those count for nothing.
    assert.equal(phrasesOf(before).get('replication setup')?.documents, 18);
    assert.equal(phrasesOf(before).get('replication setup')?.titles, 18);
    assert.equal(phrasesOf(before).get('backup and restore part')?.documents, 17);
    // "Parameters" heads every page: a section label, counted nowhere and never offered.
    assert.equal(phrasesOf(before).get('parameters'), undefined);
    assert.ok(before.template.has('parameters'));

    // The eighth batch rewrites page 3 under another title and merges the eight segments.
    addBatch(7, [...Array.from({ length: 9 }, (_, n) => page(71 + n)), page(3, 'Replication setup revised')]);
    assert.equal(index.searcher().snapshot.segments.length, 1);
    const after = count(counter);
    assert.deepEqual(sorted(after), sorted(count(new PhraseCounter(index.store))));
    assert.equal(phrasesOf(after).get('replication setup revised')?.documents, 1);
    // Pages 3, 7, …, 79 but page 3, which was one of them.
    assert.equal(phrasesOf(after).get('backup and restore part')?.documents, 19);
    assert.equal(phrasesOf(after).get('replication setup')?.titles, 21);
    assert.equal(phrasesOf(after).get('replication setup revised')?.head, 'replication setup');
  });
});
