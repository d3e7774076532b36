/**
 * A visitor who searches a help site for a term lands on the page that explains it, not on a page
 * that only lists it: the back-of-the-book index, the sitemap, the table of contents, the blog
 * archive's excerpts and the glossary (用語集) rank below the pages they link to, while a query
 * that is such a page's own title ("Index", "Sitemap", 用語集) still finds it first, and suggest
 * does not offer phrases that only a listing page's entries hold. The site is crawled over
 * loopback by a scheduled setting feeding the search service, as a customer's site is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ARTICLES,
  CONTENT_PAGES,
  type ContentPage,
  LISTING_PATHS,
  LISTING_TITLES,
  listingSitePages,
  startListingSite,
} from '../support/listing-site.js';
import type { LocalServer } from '../support/local-server.js';
import { createSearchFeedingSetting, downloadRunFile, runSettingOnce } from '../support/scheduled-runs.js';
import { parseCsvText } from '../support/artifact-readers.js';
import { docPath, highlighted, type SearchAnswer, type SuggestAnswer } from '../support/search-fixtures.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

type Listing = keyof typeof LISTING_PATHS;

/** A term a listing page holds, the content page about it, and where that page holds it. */
interface ListedCase {
  query: string;
  page: string;
  /** `body`: only in a paragraph of the page (the hard case); `heading`/`title`: also there. */
  where: 'body' | 'heading' | 'title';
  listings: Listing[];
}

const CASES: readonly ListedCase[] = [
  // Index entries whose page has the term only in a paragraph.
  { query: 'reservoir', page: '/manual/unpacking.html', where: 'body', listings: ['index'] },
  { query: 'burr alignment', page: '/manual/grinding.html', where: 'body', listings: ['index'] },
  { query: 'channeling', page: '/manual/brewing.html', where: 'body', listings: ['index'] },
  { query: 'citric acid', page: '/manual/descaling.html', where: 'body', listings: ['index'] },
  { query: 'backflushing', page: '/manual/cleaning.html', where: 'body', listings: ['index'] },
  { query: 'test strips', page: '/manual/water.html', where: 'body', listings: ['index'] },
  { query: 'thermal fuse', page: '/manual/troubleshooting.html', where: 'body', listings: ['index'] },
  { query: 'serial number', page: '/help/warranty.html', where: 'body', listings: ['index'] },
  { query: 'restocking fee', page: '/help/shipping.html', where: 'body', listings: ['index'] },
  { query: 'dosing funnel', page: '/help/accessories.html', where: 'body', listings: ['index'] },
  // Index entries that are a section heading of their page (the contents list them too).
  { query: 'pre-infusion', page: '/manual/brewing.html', where: 'heading', listings: ['index', 'contents'] },
  { query: 'microfoam', page: '/manual/steaming.html', where: 'heading', listings: ['index', 'contents'] },
  // Page titles as the sitemap (and, for the manual, the contents) lists them.
  {
    query: 'troubleshooting',
    page: '/manual/troubleshooting.html',
    where: 'title',
    listings: ['sitemap', 'contents'],
  },
  {
    query: 'shipping and returns',
    page: '/help/shipping.html',
    where: 'title',
    listings: ['sitemap', 'contents'],
  },
  { query: '毎日のお手入れ', page: '/ja/care.html', where: 'title', listings: ['sitemap'] },
  // Section headings as the table of contents lists them.
  { query: 'descaling schedule', page: '/manual/descaling.html', where: 'heading', listings: ['contents'] },
  { query: 'caring for the burrs', page: '/manual/grinding.html', where: 'heading', listings: ['contents'] },
  { query: 'measuring hardness', page: '/manual/water.html', where: 'heading', listings: ['contents'] },
  // Article titles and words of the excerpts the archive repeats verbatim.
  {
    query: 'latte art for beginners',
    page: '/blog/2025/latte-art.html',
    where: 'title',
    listings: ['archive', 'sitemap'],
  },
  {
    query: 'dialing in light roasts',
    page: '/blog/2025/light-roasts.html',
    where: 'title',
    listings: ['archive', 'sitemap'],
  },
  { query: 'bergamot', page: '/blog/2025/light-roasts.html', where: 'body', listings: ['archive'] },
  { query: 'solvents', page: '/blog/2025/decaf.html', where: 'body', listings: ['archive'] },
  { query: 'rosetta', page: '/blog/2025/latte-art.html', where: 'heading', listings: ['archive'] },
  // Glossary terms, defined in a line of the glossary, explained in a paragraph of their page.
  { query: '逆洗浄', page: '/ja/care.html', where: 'body', listings: ['glossary'] },
  { query: '蒸らし', page: '/ja/extraction.html', where: 'body', listings: ['glossary'] },
  { query: 'スチームワンド', page: '/ja/milk.html', where: 'body', listings: ['glossary'] },
  { query: '焙煎度', page: '/ja/beans.html', where: 'body', listings: ['glossary'] },
  { query: '湯垢', page: '/ja/care.html', where: 'heading', listings: ['glossary'] },
];

/**
 * Suggest cases, both completions of one prefix: an index entry whose page has it only in a
 * paragraph, and a content page's title. `water` starts phrases of several pages, since suggest
 * leaves out a phrase that only adds a word to a shorter one found on the same pages. This file
 * never searches either phrase, so no query log offers them.
 */
const INDEX_ONLY_PHRASE = { prefix: 'water', phrase: 'water hardness', page: '/manual/water.html' };
const TITLE_PHRASE = { prefix: 'water', phrase: 'water quality', page: '/manual/water.html' };

let site: LocalServer;
let kumo: TestService;
let crawledPaths: string[];

before(async () => {
  site = await startListingSite();
  kumo = await startTestService();
  const history = await runSettingOnce(kumo, await createSearchFeedingSetting(kumo, `${site.baseUrl}/`), 1);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, history.message);
  const rows = parseCsvText((await downloadRunFile(kumo, history, 'url_list.csv.gz')).toString('utf8'));
  crawledPaths = rows
    .slice(1)
    .map((row) => new URL(row[0]!).pathname)
    .sort();
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

/** The paths of the ranked results of `q`, best first. */
async function search(q: string): Promise<string[]> {
  const response = await kumo.inject({
    method: 'GET',
    url: `${docPath()}/search?q=${encodeURIComponent(q)}&number_per_page=50`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json as SearchAnswer).organic.docs.map((doc) => new URL(doc.url).pathname);
}

async function suggest(q: string): Promise<string[]> {
  const response = await kumo.inject({
    method: 'GET',
    url: `${docPath()}/suggest?q=${encodeURIComponent(q)}&number_per_suggestion=100`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json as SuggestAnswer).suggestions.map((suggestion) => suggestion.word);
}

const ranking = (ranked: string[]) => (ranked.length === 0 ? '(no results)' : ranked.join(', '));
const pageAt = (path: string): ContentPage => CONTENT_PAGES.find((page) => page.path === path)!;
const lower = (text: string) => text.toLowerCase();

describe('the fixture and its crawl', () => {
  test('each listed term sits where its case says, on one content page, and on its listing pages', () => {
    const pages = listingSitePages();
    for (const { query, page, where, listings } of CASES) {
      const term = lower(query);
      const holders = CONTENT_PAGES.filter((content) =>
        lower(
          [content.title, ...content.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n'),
        ).includes(term),
      ).map((content) => content.path);
      assert.deepEqual(holders, [page], `content pages holding "${query}"`);
      const content = pageAt(page);
      const inTitle = lower(content.title).includes(term);
      const inHeading = content.sections.some((section) => lower(section.heading).includes(term));
      assert.equal(
        inTitle ? 'title' : inHeading ? 'heading' : 'body',
        where,
        `where ${page} holds "${query}"`,
      );
      for (const listing of listings)
        assert.ok(
          lower(pages.get(LISTING_PATHS[listing])!).includes(term),
          `${LISTING_PATHS[listing]} lists "${query}"`,
        );
    }
    // The suggest cases: an index entry its page holds only in a paragraph, and a page title.
    const phrase = INDEX_ONLY_PHRASE.phrase;
    assert.ok(lower(pages.get(LISTING_PATHS.index)!).includes(phrase));
    const described = pageAt(INDEX_ONLY_PHRASE.page).sections.flatMap((section) => section.paragraphs);
    assert.ok(described.some((paragraph) => lower(paragraph).includes(phrase)));
    const titled = CONTENT_PAGES.flatMap((content) => [
      content.title,
      ...content.sections.map((s) => s.heading),
    ]);
    assert.ok(!titled.some((heading) => lower(heading).includes(phrase)));
    assert.equal(lower(pageAt(TITLE_PHRASE.page).title), TITLE_PHRASE.phrase);
    // Searches are logged and suggest offers logged queries: none of this file's may complete the prefix.
    assert.ok(!CASES.some((listed) => lower(listed.query).startsWith(INDEX_ONLY_PHRASE.prefix)));
    // Archive excerpts are the articles' first paragraphs, verbatim.
    for (const article of ARTICLES)
      assert.ok(pages.get(LISTING_PATHS.archive)!.includes(article.sections[0]!.paragraphs[0]!));
  });

  test('the scheduled run crawls every page, and each query finds the pages its case ranks', async () => {
    assert.deepEqual(crawledPaths, [...listingSitePages().keys()].sort());
    // Finding the page at all is the plumbing; where it ranks is the other tests' business.
    for (const { query, page } of CASES) {
      const ranked = await search(query);
      assert.ok(ranked.includes(page), `"${query}" finds ${page}: ${ranking(ranked)}`);
    }
    for (const listing of Object.keys(LISTING_PATHS) as Listing[]) {
      const ranked = await search(LISTING_TITLES[listing]);
      assert.ok(ranked.includes(LISTING_PATHS[listing]), `"${LISTING_TITLES[listing]}": ${ranking(ranked)}`);
    }
  });
});

describe('suggest leaves out what only a listing page holds', () => {
  test(`"${INDEX_ONLY_PHRASE.phrase}", only in index entries and a paragraph, is not offered for "${INDEX_ONLY_PHRASE.prefix}"`, async () => {
    const words = await suggest(INDEX_ONLY_PHRASE.prefix);
    assert.ok(
      !words.includes(INDEX_ONLY_PHRASE.phrase),
      `suggestions for "${INDEX_ONLY_PHRASE.prefix}": ${words.join(', ')}`,
    );
  });

  test(`the title "${TITLE_PHRASE.phrase}" of a content page is offered for "${TITLE_PHRASE.prefix}"`, async () => {
    const words = await suggest(TITLE_PHRASE.prefix);
    assert.ok(
      words.includes(TITLE_PHRASE.phrase),
      `suggestions for "${TITLE_PHRASE.prefix}": ${words.join(', ')}`,
    );
  });
});

describe('a listed term finds the page about it first, above the pages listing it', () => {
  for (const { query, page, where, listings } of CASES) {
    const listed = listings.map((listing) => LISTING_PATHS[listing]).join(', ');
    test(`"${query}" (${where} of ${page}; listed on ${listed})`, async () => {
      const ranked = await search(query);
      // First place implies every listing page found is below it; the ranking says where they are.
      assert.equal(ranked[0], page, `ranking for "${query}": ${ranking(ranked)}`);
    });
  }
});

describe("a listing page's own title finds it first", () => {
  for (const listing of Object.keys(LISTING_PATHS) as Listing[]) {
    const title = LISTING_TITLES[listing];
    test(`"${title}" finds ${LISTING_PATHS[listing]}`, async () => {
      const ranked = await search(title);
      assert.equal(ranked[0], LISTING_PATHS[listing], `ranking for "${title}": ${ranking(ranked)}`);
    });
  }
});

describe('a listing page found by its entries shows the entry that matched', () => {
  test('the index, found for "restocking fee", shows that entry highlighted in its snippet', async () => {
    const response = await kumo.inject({
      method: 'GET',
      url: `${docPath()}/search?q=${encodeURIComponent('restocking fee')}&number_per_page=50`,
    });
    assert.equal(response.statusCode, 200, response.body);
    const docs = (response.json as SearchAnswer).organic.docs;
    const index = docs.find((doc) => new URL(doc.url).pathname === LISTING_PATHS.index);
    assert.ok(index !== undefined, `the index among: ${docs.map((doc) => doc.url).join(', ')}`);
    const parts = index.highlight.document_text_parts;
    assert.deepEqual(
      highlighted(parts).map(lower),
      ['restocking', 'fee'],
      parts.map((part) => part.text).join(''),
    );
  });
});

describe("a search service's weight of the links field", () => {
  test('weighed above the body, the index wins its own entry; weighed as by default again, the page about it does', async () => {
    const put = (config: object) =>
      kumo.inject({
        method: 'PUT',
        url: '/admin/v1/contracts/1/servicegroups/1/search_services/1',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: { config },
      });
    // One word: no proximity or title bonus, the field weights alone decide.
    const query = 'reservoir';
    const page = CASES.find((entry) => entry.query === query)!.page;
    try {
      assert.equal((await put({ weights: { links: 10, body: 0.1 } })).statusCode, 200);
      const weighed = await search(query);
      assert.equal(weighed[0], LISTING_PATHS.index, `ranking for "${query}": ${ranking(weighed)}`);
    } finally {
      assert.equal((await put({})).statusCode, 200);
    }
    const ranked = await search(query);
    assert.equal(ranked[0], page, `ranking for "${query}": ${ranking(ranked)}`);
  });
});
