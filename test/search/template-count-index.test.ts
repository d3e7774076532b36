/**
 * The counts of page-template lines (docs/design/search-engine.md, Page templates) keep an index
 * only of the lines on enough pages to be template: a file written with an index of every count
 * gets the smaller one when opened, and detects the same template lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { applyRunToIndex } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { writeBundle } from '../support/crawl-bundle.js';
import { referenceBundle } from '../support/template-site.js';
import { rankedSearch } from '../support/ranked-search.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-template-index-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function indexesOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'template_blocks' ORDER BY name",
      )
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

const sortedBlocks = (index: SearchIndex): [string, number[]][] =>
  [...index.searcher().templateBlocks()].map(([host, blocks]) => [host, [...blocks].sort((a, b) => a - b)]);

test('only lines on three pages or more are indexed by count; an older file is given that index', async () => {
  const file = path.join(folder, 'service-1.db');
  const bundle = path.join(folder, 'run.tar.gz');
  writeBundle(bundle, referenceBundle());
  let index = new SearchIndex(file);
  await applyRunToIndex(index, 'run-1', 'setting:1', bundle, {
    gone: new Set(),
    failed: new Set(),
    complete: false,
  });
  const detected = sortedBlocks(index);
  assert.ok(detected.length === 1 && detected[0]![1].length >= 5, JSON.stringify(detected));
  index.close();

  const db = new Database(file);
  const partial = db
    .prepare("SELECT sql FROM sqlite_master WHERE name = 'template_blocks_candidates'")
    .pluck()
    .get() as string;
  assert.match(partial, /WHERE pages >= 3/);
  // Counted lines on one page (the entries' own text) are not in it.
  const counted = db.prepare('SELECT count(*) FROM template_blocks').pluck().get() as number;
  const indexed = db
    .prepare('SELECT count(*) FROM template_blocks INDEXED BY template_blocks_candidates WHERE pages >= 3')
    .pluck()
    .get() as number;
  assert.ok(indexed < counted, `${indexed} of ${counted}`);
  // As a file written before it: an index of every count.
  db.exec(
    'DROP INDEX template_blocks_candidates; CREATE INDEX template_blocks_pages ON template_blocks (host_id, pages)',
  );
  db.close();

  index = new SearchIndex(file);
  try {
    assert.deepEqual(indexesOf(file), ['template_blocks_candidates']);
    assert.deepEqual(sortedBlocks(index), detected);
    assert.equal(rankedSearch(index, 'constructs').hits, 1);
  } finally {
    index.close();
  }
});
