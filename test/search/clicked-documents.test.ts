/**
 * A sort by clicks (docs/design/search-engine.md, Segments): the counts by document id come from
 * the clicked URLs, each looked up once a generation, and follow every click.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { SearchIndex } from '../../src/search/search-index.js';
import { ClickedDocuments } from '../../src/search/site/clicked-documents.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-clicked-documents-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const urlOf = (n: number) => `https://docs.example/page-${n}.html`;
const page = (n: number) => ({
  url: urlOf(n),
  title: `Page ${n}`,
  description: '',
  body: `Text of page ${n}.`,
});

test('clicked URLs are looked up once a generation, and the counts follow each click', () => {
  const index = new SearchIndex(path.join(folder, 'service-1.db'));
  try {
    index.writer.upsert([0, 1, 2].map(page), 'bundle:test');
    const clicks = new Map([
      [urlOf(0), 3],
      [urlOf(2), 1],
      ['https://docs.example/gone.html', 5],
    ]);
    const source = { clickedUrls: () => clicks.entries(), clicksVersion: 0 };
    const looked: string[] = [];
    const clicked = new ClickedDocuments(source, (url) => {
      looked.push(url);
      return index.store.documentIdOf(url);
    });
    const idOf = (n: number) => index.store.documentIdOf(urlOf(n))!;
    const first = index.searcher().snapshot;
    assert.deepEqual(
      clicked.countsOf(first),
      new Map([
        [idOf(0), 3],
        [idOf(2), 1],
      ]),
    );
    assert.equal(looked.length, 3, 'each clicked URL, the one not indexed too');
    // No click since: the same counts, nothing looked up.
    assert.equal(clicked.countsOf(first), clicked.countsOf(first));
    assert.equal(looked.length, 3);
    // A click on a page not clicked before: only that URL is looked up.
    clicks.set(urlOf(1), 7);
    clicks.set(urlOf(0), 4);
    source.clicksVersion = 1;
    assert.deepEqual(
      clicked.countsOf(first),
      new Map([
        [idOf(0), 4],
        [idOf(2), 1],
        [idOf(1), 7],
      ]),
    );
    assert.deepEqual(looked.slice(3), [urlOf(1)]);
    // A new generation in which page 2 went: every clicked URL is looked up again.
    index.writer.remove([urlOf(2)]);
    const second = index.searcher().snapshot;
    assert.notEqual(second.segments, first.segments);
    assert.deepEqual(
      clicked.countsOf(second),
      new Map([
        [idOf(0), 4],
        [idOf(1), 7],
      ]),
    );
    assert.equal(looked.length, 8);
  } finally {
    index.close();
  }
});
