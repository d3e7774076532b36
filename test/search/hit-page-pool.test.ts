/**
 * Result pages cut in the hit threads (src/search/site/hit-page-pool.ts,
 * docs/design/search-engine.md, Search requests) are the pages the answering thread cuts itself,
 * and a thread that cannot answer never fails a search: the page is then cut where the search runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SearchIndex } from '../../src/search/search-index.js';
import { HitPagePool } from '../../src/search/site/hit-page-pool.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import type { SiteSearchRequest } from '../../src/search/site/search-response.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import type { HitTemplates } from '../../src/search/template-blocks.js';
import { systemClock } from '../../src/util/index.js';
import { templateSiteIndex } from '../support/template-site-index.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-hit-pool-'));
const pool = new HitPagePool(2);
const NO_TEMPLATES: HitTemplates = { blocks: new Map(), lineLengths: new Map() };
let index: SearchIndex;

before(async () => {
  // Template lines (menus, breadcrumbs) in English and Japanese, so cutting needs the index's
  // template lines as the thread gets them.
  index = await templateSiteIndex(folder);
});

after(async () => {
  await pool.close();
  index.close();
  rmSync(folder, { recursive: true, force: true });
});

function request(q: string, pageNumber = 1): SiteSearchRequest {
  return {
    q,
    pageNumber,
    numberPerPage: 3,
    sortKeys: [{ field: 'score', order: 'desc' }],
    category: '',
    drilldown: [],
    doctype: ['all'],
  };
}

describe('result pages cut in the hit threads', () => {
  test('are the pages cut on the answering thread, query after query', async () => {
    const here = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock));
    const threaded = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), {
      hitPool: pool,
    });
    const queries = ['index', 'constructs an index', '認証', 'モジュール', 'create -table', 'nothingmatches'];
    let cut = 0;
    for (const q of queries) {
      for (const pageNumber of [1, 2]) {
        const mine = await here.search(request(q, pageNumber));
        const theirs = await threaded.search(request(q, pageNumber));
        assert.deepEqual(theirs, mine, `${q}, page ${pageNumber}`);
        cut += mine.organic.docs.length;
      }
    }
    assert.ok(cut >= 10, `pages held ${cut} hits`);
  });

  test('a thread that cannot read the index answers nothing, and the next page is cut again', async () => {
    const highlighter = { terms: [{ id: 0, runs: [{ text: 'index', japanese: false }] }] };
    const hits = [{ id: 1, ranking: 1, drilldown: [], copyUrls: [] }];
    const missing = { openKey: 'missing', file: path.join(folder, 'missing.db') };
    assert.equal(await pool.render(missing, hits, highlighter.terms, NO_TEMPLATES), undefined);
    const docs = await pool.render(
      { openKey: index.openKey, file: index.store.file },
      hits,
      highlighter.terms,
      NO_TEMPLATES,
    );
    assert.equal(docs?.length, 1);
    assert.equal(docs[0]!.ranking, 1);
    assert.ok(docs[0]!.url.startsWith('https://'), docs[0]!.url);
  });

  test('a closed pool answers nothing: the search cuts its page itself', async () => {
    const closed = new HitPagePool(1);
    await closed.close();
    const hits = [{ id: 1, ranking: 1, drilldown: [], copyUrls: [] }];
    assert.equal(
      await closed.render({ openKey: index.openKey, file: index.store.file }, hits, [], NO_TEMPLATES),
      undefined,
    );
    const site = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), { hitPool: closed });
    const answer = await site.search(request('index'));
    assert.ok(answer.organic.docs.length > 0);
  });
});
