/**
 * SiteSearch's facets computed in facet threads (facet-pool.ts): the same categories and
 * drill-down paths as the rules give on the calling thread, across segments and jobs; searches
 * waiting at once share the jobs; a job over its limit leaves the documents without facets.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { FACET_JOB_URLS, FACET_JOBS_IN_FLIGHT } from '../../src/search/site/facet-index.js';
import { FacetPool } from '../../src/search/site/facet-pool.js';
import { decodeFacets, encodeFacets } from '../../src/search/site/stored-facets.js';
import { categoriesOf, compileFacetRules, drilldownPathsOf } from '../../src/search/site/facet-rules.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import type { SiteSearchRequest } from '../../src/search/site/search-response.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { craftedPath, SLOW_URL_PATTERN } from '../support/crafted-urls.js';

/** Counts the jobs it is given, and the most given and not yet answered at once. */
class CountingPool extends FacetPool {
  jobs = 0;
  mostAtOnce = 0;
  private unanswered = 0;

  override async run(...args: Parameters<FacetPool['run']>): ReturnType<FacetPool['run']> {
    this.jobs += 1;
    this.unanswered += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.unanswered);
    try {
      return await super.run(...args);
    } finally {
      this.unanswered -= 1;
    }
  }
}

const REQUEST: SiteSearchRequest = {
  q: 'orchard',
  pageNumber: 1,
  numberPerPage: 100,
  sortKeys: [{ field: 'score', order: 'desc' }],
  category: '',
  drilldown: [],
  doctype: [],
};

const CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'Even', url_pattern: '/[0-9]*[02468]\\.html$' },
    { name: 'Apples', url_pattern: '/apples/' },
    { name: 'Sevens', url_pattern: '7' },
    { name: 'Even', url_pattern: '/pears/1' },
  ],
  drilldowns: [
    { url_pattern: '^https://([^/]+)/([a-z]+)/', path: '$1\t$2' },
    { url_pattern: '/pears/(1)', path: 'Pears\tfrom one' },
  ],
};

/** More documents than one job takes, in two segments. */
const PAGES = 2 * FACET_JOB_URLS + 100;

function orchardPage(number: number): IndexedDocument {
  const fruit = ['apples', 'pears', 'plums'][number % 3]!;
  const host = number % 2 === 0 ? 'a.example' : 'b.example';
  return {
    url: `https://${host}/${fruit}/${number}.html`,
    title: `Page ${number}`,
    description: '',
    body: 'orchard',
  };
}

let folder: string;
let index: SearchIndex;
const pools: FacetPool[] = [];

before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-facet-threads-'));
  index = new SearchIndex(path.join(folder, 'facets.db'));
  const pages = Array.from({ length: PAGES }, (_, number) => orchardPage(number));
  index.writer.upsert(pages.slice(0, PAGES - 50), 'bundle:test');
  index.writer.upsert(pages.slice(PAGES - 50), 'bundle:test');
});

after(async () => {
  index.close();
  rmSync(folder, { recursive: true, force: true });
  await Promise.all(pools.map((pool) => pool.close()));
});

function siteSearch(
  config: SearchServiceConfig,
  pool: FacetPool,
  warnings: string[] = [],
  on: SearchIndex = index,
): SiteSearch {
  pools.push(pool);
  return new SiteSearch(on, config, new SearchActivity(on.store, systemClock), {
    name: 'search service 7',
    facetPool: pool,
    warn: (message) => warnings.push(message),
  });
}

describe('facets in threads', () => {
  test('give the categories and drill-down paths the rules give, in one job per 500 URLs, shared by waiting searches', async () => {
    assert.ok(index.searcher().snapshot.segments.length >= 2);
    const pool = new CountingPool();
    const search = siteSearch(CONFIG, pool);
    const [first, second] = await Promise.all([search.search(REQUEST), search.search(REQUEST)]);
    assert.deepEqual(first, second);
    const segments = index.searcher().snapshot.segments;
    const expectedJobs = segments.reduce(
      (sum, loaded) => sum + Math.max(1, Math.ceil(loaded.segment.docCount / FACET_JOB_URLS)),
      0,
    );
    assert.equal(pool.jobs, expectedJobs);

    const rules = compileFacetRules(CONFIG);
    const counts = new Map<string, number>();
    for (let number = 0; number < PAGES; number += 1)
      for (const category of categoriesOf(orchardPage(number).url, rules))
        counts.set(rules.categories[category]!.name, (counts.get(rules.categories[category]!.name) ?? 0) + 1);
    assert.equal(first.organic.hits, PAGES);
    assert.deepEqual(first.category.items, ['Even', 'Apples', 'Sevens']);
    for (const doc of first.organic.docs) assert.deepEqual(doc.drilldown, drilldownPathsOf(doc.url, rules));

    const rootCounts = new Map<string, number>();
    for (let number = 0; number < PAGES; number += 1) {
      const paths = drilldownPathsOf(orchardPage(number).url, rules);
      for (const top of new Set(paths.map((one) => one.split('\t')[0]!)))
        rootCounts.set(top, (rootCounts.get(top) ?? 0) + 1);
    }
    const roots = Object.fromEntries(
      first.facet_drilldown_roots.map((root) => [
        root.facet_drilldowns[0]!.path,
        root.facet_drilldowns[0]!.count,
      ]),
    );
    assert.deepEqual(roots, Object.fromEntries(rootCounts));
    assert.ok(rootCounts.get('Pears')! > 0);
    const pearsFromOne = await search.search({ ...REQUEST, drilldown: ['Pears\tfrom one'] });
    assert.equal(pearsFromOne.organic.hits, rootCounts.get('Pears'));
    assert.equal(pool.jobs, expectedJobs, 'later searches reuse the facets');
  });

  test("a large segment's URLs go to the threads a few jobs at a time, all of them counted", async () => {
    const large = new SearchIndex(path.join(folder, 'large.db'));
    try {
      const count = 4 * FACET_JOB_URLS + 10;
      const pages = Array.from({ length: count }, (_, number) => orchardPage(number));
      large.writer.upsert(pages, 'bundle:test');
      assert.equal(large.searcher().snapshot.segments.length, 1);
      const pool = new CountingPool();
      const answer = await siteSearch(CONFIG, pool, [], large).search({ ...REQUEST, category: 'Apples' });
      assert.equal(pool.jobs, 5);
      assert.ok(pool.mostAtOnce <= FACET_JOBS_IN_FLIGHT, `${pool.mostAtOnce} jobs at once`);
      assert.equal(answer.organic.hits, pages.filter((page) => page.url.includes('/apples/')).length);
      const rules = compileFacetRules(CONFIG);
      for (const doc of answer.organic.docs)
        assert.deepEqual(doc.drilldown, drilldownPathsOf(doc.url, rules));
    } finally {
      large.close();
    }
  });

  test('a job over its limit: documents without facets, one warning naming the service, a fresh thread next', async () => {
    const pool = new FacetPool({ jobLimitMs: 300 });
    const warnings: string[] = [];
    // Long crafted URLs, on which the rule below takes about 0.1 s each.
    const craftedIndex = new SearchIndex(path.join(folder, 'crafted.db'));
    try {
      craftedIndex.writer.upsert(
        Array.from({ length: 40 }, (_, page) => ({
          url: `https://c.example/${page}/${craftedPath(page + 1, 8000)}`,
          title: `Crafted ${page}`,
          description: '',
          body: 'orchard',
        })),
        'bundle:test',
      );
      const slowRules = { categories: [{ name: 'Slow', url_pattern: SLOW_URL_PATTERN }] };
      const hostile = siteSearch(slowRules, pool, warnings, craftedIndex);
      const started = performance.now();
      const answer = await hostile.search(REQUEST);
      assert.ok(performance.now() - started < 5000, 'the job was stopped at its limit');
      assert.equal(answer.organic.hits, 40);
      assert.equal(answer.organic.docs.length, 40);
      assert.ok(answer.organic.docs.every((doc) => doc.drilldown.length === 0));
      assert.deepEqual(answer.category.items, []);
      assert.deepEqual(answer.facet_drilldown_roots, []);
      assert.equal((await hostile.search({ ...REQUEST, category: 'Slow' })).organic.hits, 0);
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!,
        /^search service 7: categories and drill-down are unavailable until its rules change: matching took over 0.3 s/,
      );

      // The same pool goes on with a fresh thread; new rules for the service get facets again.
      hostile.configure({ categories: [{ name: 'Crafted', url_pattern: '^https://c\\.example/' }] });
      const ordinary = await hostile.search(REQUEST);
      assert.deepEqual(ordinary.category.items, ['Crafted']);
      assert.equal(ordinary.facet_drilldown_roots[0]?.facet_drilldowns[0]?.count, 40);
      assert.equal(warnings.length, 1);
    } finally {
      craftedIndex.close();
    }
  });
});

describe('facets kept in the index file', () => {
  const OTHER_RULES: SearchServiceConfig = { categories: [{ name: 'Plums', url_pattern: '/plums/' }] };

  const rowsOf = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare(
          'SELECT segment_id AS segmentId, hex(rules_digest) AS digest FROM segment_facets ORDER BY segment_id',
        )
        .all() as { segmentId: number; digest: string }[];
    } finally {
      db.close();
    }
  };

  test('an index opened again reads its facets instead of matching its URLs; other rules take their place', async () => {
    const file = path.join(folder, 'kept.db');
    let kept = new SearchIndex(file);
    const pages = Array.from({ length: FACET_JOB_URLS + 30 }, (_, number) => orchardPage(number));
    kept.writer.upsert(pages.slice(0, FACET_JOB_URLS), 'bundle:test');
    kept.writer.upsert(pages.slice(FACET_JOB_URLS), 'bundle:test');
    const segmentIds = kept.store.segmentIds();
    assert.equal(segmentIds.length, 2);

    const computing = new CountingPool();
    const computed = await siteSearch(CONFIG, computing, [], kept).search(REQUEST);
    assert.ok(computing.jobs >= 2);
    assert.ok(computed.facet_drilldown_roots.length > 0);
    assert.deepEqual(computed.category.items, ['Even', 'Apples', 'Sevens']);
    const stored = rowsOf(file);
    assert.deepEqual(
      stored.map((row) => row.segmentId),
      segmentIds,
    );
    kept.close();

    kept = new SearchIndex(file);
    try {
      const reading = new CountingPool();
      const read = await siteSearch(CONFIG, reading, [], kept).search(REQUEST);
      assert.equal(reading.jobs, 0, 'no URL was matched again');
      assert.deepEqual(read, computed);
      const drilled = await siteSearch(CONFIG, reading, [], kept).search({
        ...REQUEST,
        drilldown: ['Pears\tfrom one'],
      });
      assert.ok(drilled.organic.hits > 0);
      assert.ok(drilled.organic.docs.every((doc) => doc.drilldown.includes('Pears\tfrom one')));

      // Other rules are matched, and their rows replace the first ones: one row per segment.
      const other = new CountingPool();
      const plums = await siteSearch(OTHER_RULES, other, [], kept).search({ ...REQUEST, category: 'Plums' });
      assert.ok(other.jobs >= 2);
      assert.equal(plums.organic.hits, pages.filter((page) => page.url.includes('/plums/')).length);
      const replaced = rowsOf(file);
      assert.deepEqual(
        replaced.map((row) => row.segmentId),
        segmentIds,
      );
      assert.ok(replaced.every((row) => !stored.some((old) => old.digest === row.digest)));
    } finally {
      kept.close();
    }

    // A segment's facets go with it.
    const db = new Database(file);
    db.prepare('DELETE FROM segments WHERE id = ?').run(segmentIds[0]);
    db.close();
    assert.deepEqual(
      rowsOf(file).map((row) => row.segmentId),
      segmentIds.slice(1),
    );
  });

  test('a row never gives a segment the facets of other URLs (an id given again)', async () => {
    const file = path.join(folder, 'reused.db');
    let kept = new SearchIndex(file);
    // Two segments of 20 pages each, on other paths.
    kept.writer.upsert(
      Array.from({ length: 20 }, (_, number) => orchardPage(number)),
      'bundle:test',
    );
    kept.writer.upsert(
      Array.from({ length: 20 }, (_, number) => orchardPage(number + 100)),
      'bundle:test',
    );
    const [firstId, secondId] = kept.store.segmentIds();
    const computed = await siteSearch(CONFIG, new FacetPool(), [], kept).search(REQUEST);
    kept.close();
    // The first segment's row, as if written for the second before its id was given again.
    const db = new Database(file);
    db.prepare('DELETE FROM segment_facets WHERE segment_id = ?').run(secondId);
    db.prepare(
      'INSERT INTO segment_facets (segment_id, rules_digest, data) SELECT ?, rules_digest, data FROM segment_facets WHERE segment_id = ?',
    ).run(secondId, firstId);
    db.close();

    kept = new SearchIndex(file);
    try {
      const pool = new CountingPool();
      assert.deepEqual(await siteSearch(CONFIG, pool, [], kept).search(REQUEST), computed);
      assert.equal(pool.jobs, 1, 'the second segment was matched again');
    } finally {
      kept.close();
    }
  });

  test('a stored row that cannot be read, or points outside itself, is computed again', async () => {
    const file = path.join(folder, 'unfit.db');
    let kept = new SearchIndex(file);
    kept.writer.upsert(
      Array.from({ length: 20 }, (_, number) => orchardPage(number)),
      'bundle:test',
    );
    const first = await siteSearch(CONFIG, new FacetPool(), [], kept).search(REQUEST);
    kept.close();
    const stored = rowsOf(file);
    assert.equal(stored.length, 1);
    const db = new Database(file);
    const data = db.prepare('SELECT data FROM segment_facets').pluck().get() as Buffer;
    db.close();
    // The row's own digest, from its header, so that only the arrays are wrong.
    const header = JSON.parse(data.toString('utf8', 12, 12 + data.readUInt32LE(8))) as { documents: string };
    const facets = decodeFacets(data, 20, header.documents);
    assert.ok(facets !== undefined);
    const outside = encodeFacets(
      { ...facets, pathIds: facets.pathIds.map((id) => id + 1000) },
      header.documents,
    );

    for (const damaged of [data.subarray(0, data.length - 4), outside]) {
      const writing = new Database(file);
      writing.prepare('UPDATE segment_facets SET data = ?').run(damaged);
      writing.close();
      kept = new SearchIndex(file);
      try {
        const pool = new CountingPool();
        assert.deepEqual(await siteSearch(CONFIG, pool, [], kept).search(REQUEST), first);
        assert.equal(pool.jobs, 1);
      } finally {
        kept.close();
      }
    }
  });
});
