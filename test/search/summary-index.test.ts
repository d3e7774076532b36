/**
 * What opening an index reads of every document (docs/design/search-engine.md, Segments): the
 * summary index alone (id, URL, title, date, type), never the documents' rows with their bodies; a
 * file written before that index gains it when opened, and answers as before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { rankedSearch } from '../support/ranked-search.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-summary-index-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const SUMMARY_QUERY =
  'SELECT id, ordinal, url, title, last_modified, doctype FROM documents WHERE segment_id = 1 ORDER BY ordinal';

const page = (n: number): IndexedDocument => ({
  url: `https://docs.example/guide/page-${n}.html`,
  title: `Guide page ${n}`,
  description: '',
  // Bodies long enough to run over overflow pages, as real pages do.
  body: `Chapter ${n} explains tables. ${'Rows and columns fill the page. '.repeat(1500)}`,
  lastModified: 1_700_000_000_000 + n,
});

function planOf(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${SUMMARY_QUERY}`).all() as { detail: string }[];
    return rows.map((row) => row.detail).join('; ');
  } finally {
    db.close();
  }
}

/** A search's ranked pages, and every document's summary as opening the index reads them. */
const answer = (index: SearchIndex) => ({
  ranked: rankedSearch(index, 'chapter tables', 20),
  summaries: index.store.segmentIds().flatMap((id) => index.store.summaries(id)),
});

test('summaries come from the summary index; a file without it gains it when opened', () => {
  const file = path.join(folder, 'service-1.db');
  let index = new SearchIndex(file);
  index.writer.upsert(
    Array.from({ length: 12 }, (_, n) => page(n)),
    'bundle:test',
  );
  const before = answer(index);
  assert.equal(before.ranked.hits, 12);
  const third = before.summaries.find((summary) => summary.url === 'https://docs.example/guide/page-3.html');
  assert.deepEqual(
    { title: third?.title, lastModified: third?.lastModified, doctype: third?.doctype },
    { title: 'Guide page 3', lastModified: 1_700_000_000_003, doctype: 'html' },
  );
  index.close();
  assert.match(planOf(file), /USING COVERING INDEX documents_summary/);

  // As a file written before the summary index.
  const db = new Database(file);
  db.exec('DROP INDEX documents_summary');
  db.close();
  assert.doesNotMatch(planOf(file), /documents_summary/);

  index = new SearchIndex(file);
  try {
    assert.match(planOf(file), /USING COVERING INDEX documents_summary/);
    assert.deepEqual(answer(index), before);
  } finally {
    index.close();
  }
});
