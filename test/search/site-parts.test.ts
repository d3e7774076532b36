/** Pure parts of the site search layer: facet rules, the drill-down tree, edit distance, configuration checks. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { validateSearchServiceConfig } from '../../src/domain/schemas.js';
import { drilldownTree } from '../../src/search/site/drilldown-tree.js';
import type { DrilldownNode } from '../../src/search/site/facet-index.js';
import { categoriesOf, compileFacetRules, drilldownPathsOf } from '../../src/search/site/facet-rules.js';
import { editDistance } from '../../src/search/site/spellcheck.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { vocabularyWork } from '../../src/search/site/vocabulary.js';
import { systemClock } from '../../src/util/index.js';

/** Runs `use` on a new index in a folder of its own, which goes afterwards. */
async function withTemporaryIndex(prefix: string, use: (index: SearchIndex) => Promise<void>): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  const index = new SearchIndex(path.join(folder, 'index.db'));
  try {
    await use(index);
  } finally {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('facet rules', () => {
  test('without drill-down rules a page is labelled by host and up to two directories, decoded', () => {
    const none = compileFacetRules({});
    assert.deepEqual(drilldownPathsOf('https://example.com/docs/guide/deep/a.html', none), [
      'example.com\tdocs\tguide',
    ]);
    assert.deepEqual(drilldownPathsOf('https://example.com:8443/a.html', none), ['example.com:8443']);
    assert.deepEqual(drilldownPathsOf('https://example.com/%E8%A3%BD%E5%93%81/x.html', none), [
      'example.com\t製品',
    ]);
  });

  test('rules give one path per matching rule, with capture groups, and every matching category', () => {
    const rules = compileFacetRules({
      categories: [
        { name: 'Docs', url_pattern: '/docs/' },
        { name: 'PDF', url_pattern: '\\.pdf$' },
        { name: 'News', url_pattern: '/news/' },
      ],
      drilldowns: [
        { url_pattern: '^https://[^/]+/products/([^/]+)/', path: 'Products\t$1' },
        { url_pattern: '/docs/', path: 'Support\tManuals' },
      ],
    });
    const url = 'https://shop.example/products/cameras/docs/manual.pdf';
    assert.deepEqual(categoriesOf(url, rules), [0, 1]);
    assert.deepEqual(drilldownPathsOf(url, rules), ['Products\tcameras', 'Support\tManuals']);
    assert.deepEqual(drilldownPathsOf('https://shop.example/about.html', rules), []);
  });
});

describe('categories with one name in several rules', () => {
  test('form one category that any of the rules places a page in', () => {
    const rules = compileFacetRules({
      categories: [
        { name: 'Products', url_pattern: '/products/' },
        { name: 'News', url_pattern: '/news/' },
        { name: 'Products', url_pattern: '/shop/' },
      ],
    });
    assert.deepEqual(
      rules.categories.map((category) => category.name),
      ['Products', 'News'],
    );
    assert.deepEqual(categoriesOf('https://x.example/shop/a', rules), [0]);
    assert.deepEqual(categoriesOf('https://x.example/news/a', rules), [1]);
  });
});

describe('sorting by title after a page was renamed', () => {
  test('uses the new title', async () => {
    await withTemporaryIndex('kumo-title-sort-', async (index) => {
      const page = (name: string, title: string) => ({
        url: `https://x.example/${name}`,
        title,
        description: '',
        body: 'fruit',
      });
      index.writer.upsert(
        [page('a', 'Mango'), page('b', 'Kiwi'), page('c', 'Zulu'), page('d', 'Lime')],
        'bundle:test',
      );
      index.writer.upsert([page('c', 'Alpha')], 'bundle:test');
      const search = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock));
      const answer = await search.search({
        q: 'fruit',
        pageNumber: 1,
        numberPerPage: 10,
        sortKeys: [{ field: 'title', order: 'asc' }],
        category: '',
        drilldown: [],
        doctype: ['all'],
      });
      assert.deepEqual(
        answer.organic.docs.map((doc) => doc.title),
        ['Alpha', 'Kiwi', 'Lime', 'Mango'],
      );
    });
  });
});

describe('SearchActivity', () => {
  test('holds a bounded number of queries, keeping the often asked ones', async () => {
    await withTemporaryIndex('kumo-activity-', async (index) => {
      index.writer.upsert(
        [{ url: 'https://x.example/a', title: 'Popular topic', description: '', body: 'words' }],
        'bundle:test',
      );
      const activity = new SearchActivity(index.store, systemClock);
      for (let i = 0; i < 5; i += 1) activity.recordQuery('popular topic', 1);
      for (let i = 0; i < 200_001; i += 1) activity.recordQuery(`probe ${i}`, 1);
      assert.ok(activity.trackedQueries <= 200_000, String(activity.trackedQueries));
      const sources = {
        vocabulary: () => vocabularyWork(index.searcher().snapshot),
        templateBlocks: () => index.searcher().templateBlocks(),
      };
      // So many queries are sorted in the background (docs/design/search-engine.md, Suggest).
      activity.suggester(index.searcher().snapshot, sources);
      await activity.built();
      const suggester = activity.suggester(index.searcher().snapshot, sources);
      assert.equal(suggester.suggest('popular t', 1)[0]?.word, 'popular topic');
    });
  });
});

describe('drilldownTree', () => {
  const node = (
    id: number,
    parent: number | undefined,
    depth: number,
    path: string,
    children: number[] = [],
  ) => ({
    id,
    parent,
    depth,
    label: path.split('\t').pop()!,
    path,
    children,
  });
  const nodes: DrilldownNode[] = [
    node(0, undefined, 1, 'site', [1, 2]),
    node(1, 0, 2, 'site\tdocs', [3]),
    node(2, 0, 2, 'site\tnews'),
    node(3, 1, 3, 'site\tdocs\tapi'),
    node(4, undefined, 1, 'other'),
  ];

  test('selected and opened flags follow the path down; nodes without hits are left out', () => {
    const counts = Int32Array.from([5, 3, 2, 1, 0]);
    const [root, ...rest] = drilldownTree(nodes, counts, ['site\tdocs']);
    assert.equal(rest.length, 0, 'the root without hits is left out');
    assert.equal(root!.is_selected, false);
    assert.equal(root!.is_opened, true);
    const top = root!.facet_drilldowns[0]!;
    assert.equal(top.count, 5);
    assert.deepEqual(
      top.children!.map((child) => [child.path, child.count, child.is_selected, child.is_opened]),
      [
        ['site\tdocs', 3, true, true],
        ['site\tnews', 2, false, false],
      ],
    );
    const api = top.children![0]!.children![0]!;
    assert.deepEqual([api.depth, api.title, api.is_selected, api.is_opened], [3, 'api', false, false]);
    assert.equal(top.children![1]!.children, undefined);
  });
});

describe('editDistance', () => {
  test('counts insertions, deletions, substitutions and adjacent transpositions, bounded', () => {
    assert.equal(editDistance('search', 'search', 2), 0);
    assert.equal(editDistance('serch', 'search', 2), 1);
    assert.equal(editDistance('pyhton', 'python', 2), 1);
    assert.equal(editDistance('engin', 'engines', 2), 2);
    assert.equal(editDistance('search', 'html', 2), 3);
  });
});

describe('validateSearchServiceConfig', () => {
  test('accepts a full configuration and names every bad field', () => {
    assert.deepEqual(
      validateSearchServiceConfig({
        categories: [{ name: 'Docs', url_pattern: '/docs/' }],
        drilldowns: [{ url_pattern: '/(x)/', path: 'A\t$1' }],
        allowed_origins: ['https://www.example.com'],
        weights: { title: 10 },
      }),
      [],
    );
    const errors = validateSearchServiceConfig({
      categories: [{ name: 'Bad', url_pattern: '([' }],
      allowed_origins: ['https://www.example.com/path'],
    });
    assert.deepEqual(
      errors.map((error) => error.field),
      ['categories[0].url_pattern', 'allowed_origins[0]'],
    );
    assert.deepEqual(
      validateSearchServiceConfig({ category: [] }).map((error) => error.field),
      ['category'],
    );
  });
});

describe('pages tied on score', () => {
  test('come in the order they were first indexed, a page written again in a later segment too', async () => {
    await withTemporaryIndex('kumo-score-ties-', async (index) => {
      // Bodies of one length with the word once: every page scores the same.
      const page = (name: string, other: string) => ({
        url: `https://x.example/${name}`,
        title: `Page ${name}`,
        description: '',
        body: `fruit ${other}`,
      });
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      index.writer.upsert(
        names.map((name) => page(name, `${name}pple`)),
        'bundle:test',
      );
      index.writer.upsert([page('a', 'melon')], 'bundle:test');
      const search = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock));
      const urlsOf = async (pageNumber: number) =>
        (
          await search.search({
            q: 'fruit',
            pageNumber,
            numberPerPage: 4,
            sortKeys: [{ field: 'score', order: 'desc' }],
            category: '',
            drilldown: [],
            doctype: ['all'],
          })
        ).organic.docs.map((doc) => doc.url.slice('https://x.example/'.length));
      assert.deepEqual(await urlsOf(1), ['a', 'b', 'c', 'd']);
      assert.deepEqual(await urlsOf(2), ['e', 'f']);
    });
  });
});
