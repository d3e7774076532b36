/**
 * The lengths of template lines are found in the background for a large index
 * (docs/design/search-engine.md, Template lines by length): its first search does not wait for
 * the pages they are read from (a hit whose stored head no longer holds is cut by hashing its
 * lines, main-text-head.test.ts), and the searches after it answer the same.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { applyRunToIndex } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { BUILD_AT_ONCE_DOCUMENTS, SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { writeBundle } from '../support/crawl-bundle.js';
import { REFERENCE_HOST, referenceBundle } from '../support/template-site.js';
import { firstPageRequest } from '../support/site-search-request.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-template-lengths-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The reference site's frame around more pages than an index builds its tables at once for. */
const PAGES = Array.from({ length: BUILD_AT_ONCE_DOCUMENTS + 50 }, (_, n) => ({
  slug: `command-${n}`,
  title: `COMMAND ${n}`,
  text: `Command ${n} changes the storage layout of relation r${n} and rebuilds it.`,
}));

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`${what} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('template line lengths of a large index', () => {
  test('the first search cuts hits as the lengths do, and they are found in the background', async () => {
    const index = new SearchIndex(path.join(folder, 'service-1.db'));
    try {
      const bundle = path.join(folder, 'run.tar.gz');
      writeBundle(bundle, referenceBundle(PAGES));
      await applyRunToIndex(index, 'run-1', 'setting:1', bundle, {
        gone: new Set(),
        failed: new Set(),
        complete: false,
      });
      const host = new URL(REFERENCE_HOST).host;
      const site = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock));
      assert.equal(index.searcher().hitTemplatesIfFound().found, false);
      const request = firstPageRequest('storage layout relation');
      const first = await site.search(request);
      await until(() => index.searcher().hitTemplatesIfFound().found, 'the lengths found');
      const lengths = index.searcher().hitTemplates().lineLengths.get(host);
      assert.ok(lengths !== undefined && lengths.size > 0, `lengths of ${host}`);
      const later = await site.search(request);
      assert.equal(first.organic.docs.length, 10);
      assert.deepEqual(first.organic.docs, later.organic.docs);
      for (const doc of first.organic.docs) {
        const shown = JSON.stringify(doc);
        assert.doesNotMatch(shown, /Copyright|Reference Manual &gt;|Reference Manual >/, doc.url);
        assert.match(shown, /storage layout/, doc.url);
      }
    } finally {
      index.close();
    }
  });
});
