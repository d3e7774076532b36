/**
 * A page crawled again is the same document while its text is (docs/reference/site-search.md,
 * Indexed documents): a site that sends no Last-Modified header gives each page the time it was
 * crawled, and a later crawl of the same text neither re-indexes it nor moves that date, so a
 * re-crawl changes only the pages whose text changed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { applyRunToIndex } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { type BundlePage, writeBundle } from '../support/crawl-bundle.js';
import { fileRows } from '../support/index-file-rows.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-recrawl-dates-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const JUNE = '2026-06-01T09:30:00.000000+09:00';
const JULY = '2026-07-01T09:30:00.000000+09:00';
const seconds = (at: string) => Math.floor(Date.parse(at) / 1000);
const html = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><main><p>${text}</p></main></body></html>`;

function crawl(crawledAt: string, secondText: string): BundlePage[] {
  return [
    {
      url: 'https://dates.example/same.html',
      status: 200,
      crawledAt,
      html: html('Same', 'Pears ripen slowly.'),
    },
    { url: 'https://dates.example/edited.html', status: 200, crawledAt, html: html('Edited', secondText) },
    {
      url: 'https://dates.example/dated.html',
      status: 200,
      crawledAt,
      lastModified: 'Mon, 04 May 2026 10:00:00 GMT',
      html: html('Dated', 'Quinces keep for months.'),
    },
  ];
}

test('a re-crawl without Last-Modified headers re-indexes only the pages whose text changed', async () => {
  const file = path.join(folder, 'service-1.db');
  const index = new SearchIndex(file);
  const run = async (key: string, pages: BundlePage[]) => {
    const bundle = path.join(folder, `${key}.tar.gz`);
    writeBundle(bundle, pages);
    return applyRunToIndex(index, key, 'setting:1', bundle, {
      gone: new Set(),
      failed: new Set(),
      complete: true,
    });
  };
  try {
    const first = await run('run-1', crawl(JUNE, 'Apples fall in autumn.'));
    assert.equal(first.added, 3);
    const second = await run('run-2', crawl(JULY, 'Apples fall in late autumn.'));
    assert.deepEqual([second.added, second.updated, second.unchanged], [0, 1, 2]);
  } finally {
    index.close();
  }
  const dates = new Map(
    fileRows<{ url: string; last_modified: number }>(file, 'SELECT url, last_modified FROM documents').map(
      (row) => [row.url, row.last_modified],
    ),
  );
  assert.equal(
    dates.get('https://dates.example/same.html'),
    seconds(JUNE),
    'unchanged: the first crawl found its text',
  );
  assert.equal(
    dates.get('https://dates.example/edited.html'),
    seconds(JULY),
    'changed: the crawl that found the new text',
  );
  assert.equal(dates.get('https://dates.example/dated.html'), seconds('2026-05-04T10:00:00Z'), 'its header');
});
