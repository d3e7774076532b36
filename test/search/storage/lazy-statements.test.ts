/**
 * An index file's statements are prepared when first used, once (docs/design/search-engine.md,
 * Many services on one node): a service opened only to be searched prepares few of them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SearchIndex } from '../../../src/search/search-index.js';
import { lazyStatements } from '../../../src/search/storage/lazy-statements.js';
import { rankedSearch } from '../../support/ranked-search.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-lazy-statements-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('a statement is made at its first use and kept', () => {
  const made: string[] = [];
  const statements = lazyStatements({
    first: () => (made.push('first'), { name: 'first' }),
    second: () => (made.push('second'), { name: 'second' }),
  });
  assert.deepEqual(made, []);
  assert.equal(statements.second.name, 'second');
  assert.equal(statements.second, statements.second);
  assert.deepEqual(made, ['second']);
  assert.deepEqual(Object.keys(statements), ['first', 'second']);
});

test('opening an index and searching it prepares a fraction of its statements', () => {
  const file = path.join(folder, 'service-1.db');
  const writer = new SearchIndex(file);
  writer.writer.upsert(
    [1, 2, 3].map((n) => ({
      url: `https://site.example/${n}.html`,
      title: `Lighthouse ${n}`,
      description: '',
      body: `The keeper of lighthouse ${n} writes the log.`,
    })),
    'bundle:test',
  );
  writer.close();
  const prepare = Database.prototype.prepare;
  let prepared = 0;
  Database.prototype.prepare = function (this: Database.Database, ...args: Parameters<typeof prepare>) {
    prepared += 1;
    return prepare.apply(this, args);
  } as typeof prepare;
  try {
    const index = new SearchIndex(file);
    try {
      assert.equal(rankedSearch(index, 'lighthouse keeper').hits, 3);
    } finally {
      index.close();
    }
  } finally {
    Database.prototype.prepare = prepare;
  }
  // Every open prepared 104 statements before, whatever it was opened for.
  assert.ok(prepared <= 30, `${prepared} statements prepared`);
});
