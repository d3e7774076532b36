/**
 * Pages with the same main text are one document in search results (docs/reference/site-search.md,
 * Pages with the same text): of the group's pages a search finds, the shortest URL is shown and
 * names the others; the group follows the pages as they change, go, and as template lines change
 * side, through direct writes, staged runs, merges and another connection to the file; the site
 * search's filters and facet counts see one page per group, and a filter finds its own section's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { MIN_SAME_TEXT_CHARS, mainTextKeyOf } from '../../src/search/main-text-key.js';
import { MAX_NAMED_COPIES } from '../../src/search/same-text-copies.js';
import { SAME_TEXT_ROWS } from '../../src/search/storage/display-head-rows.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { registerTemplateFunctions } from '../../src/search/storage/template-block-schema.js';
import { systemClock } from '../../src/util/index.js';
import { rankedSearch } from '../support/ranked-search.js';
import { UNDO_FORMAT_12 } from './format-11-segment.js';
import { undoFormat16 } from './format-15-documents.js';
import { undoFormat17 } from './format-16-heads.js';
import { fileRows } from '../support/index-file-rows.js';

const SITE = 'https://www.example.com';
const FEED = 'bundle:test';
const ARTICLE =
  'The lighthouse keeper climbs one hundred and twelve steps at dusk to light the lamp, ' +
  'then writes the weather into the log before the first ship passes the point.';
const OTHER_ARTICLE =
  'The ferry leaves the northern pier every hour in summer and every second hour in winter, ' +
  'weather permitting; tickets are sold on board and at the harbour office.';
/** A line of the site's navigation, written into the body as some sites do (no nav markup). */
const BREADCRUMB = 'Home > Coast guide > Lighthouses';

const page = (slug: string, body: string, extra: Partial<IndexedDocument> = {}): IndexedDocument => ({
  url: `${SITE}/${slug}`,
  title: `Page ${slug}`,
  description: '',
  body,
  ...extra,
});

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

let file: string;
let index: SearchIndex;
beforeEach(() => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-same-text-'));
  folders.push(folder);
  file = path.join(folder, 'service.db');
  index = new SearchIndex(file);
});
afterEach(() => index.close());

/** The results for a query: each URL with the URLs of the copies it is shown for. */
function results(query: string, on: SearchIndex = index): { hits: number; docs: [string, string[]][] } {
  const found = rankedSearch(on, query, 100);
  return { hits: found.hits, docs: found.docs.map((doc) => [doc.url, [...doc.copyUrls]]) };
}

describe('the main text key', () => {
  test('is the same for the same text however it is spaced, and absent for short or all-template text', () => {
    const blocks = new Map([['www.example.com', new Set<number>()]]);
    const key = mainTextKeyOf(ARTICLE, `${SITE}/a`, blocks);
    assert.ok(key !== null);
    assert.deepEqual(mainTextKeyOf(ARTICLE.replaceAll(' ', '  \n '), `${SITE}/b`, blocks), key);
    assert.notDeepEqual(mainTextKeyOf(OTHER_ARTICLE, `${SITE}/a`, blocks), key);
    assert.equal(mainTextKeyOf('x'.repeat(MIN_SAME_TEXT_CHARS - 1), `${SITE}/a`, blocks), null);
    // Japanese text is counted in characters, not bytes or UTF-16 units.
    assert.ok(mainTextKeyOf('灯'.repeat(MIN_SAME_TEXT_CHARS), `${SITE}/a`, blocks) !== null);
    assert.equal(mainTextKeyOf('𩸽'.repeat(MIN_SAME_TEXT_CHARS - 1), `${SITE}/a`, blocks), null);
  });
});

describe('pages with the same main text', () => {
  test('are one result under the shortest URL, which names the others', () => {
    index.writer.upsert(
      [
        page('coast/lighthouse-keeper.html', ARTICLE),
        page('lighthouse.html', ARTICLE),
        page('print/lighthouse.html', ARTICLE),
        page('ferry.html', OTHER_ARTICLE),
        // A text on 3 pages of 4 would be the site's template: the site has more pages.
        ...Array.from({ length: 8 }, (_, at) => page(`timetable-${at}.html`, `timetable ${at}`)),
      ],
      FEED,
    );
    assert.deepEqual(results('lighthouse keeper'), {
      hits: 1,
      docs: [
        [
          `${SITE}/lighthouse.html`,
          [`${SITE}/print/lighthouse.html`, `${SITE}/coast/lighthouse-keeper.html`],
        ],
      ],
    });
    // A word of every page counts each group once, and a page of its own stays itself.
    assert.equal(results('weather').hits, 2);
    // A word only one page of the group has (its title) finds that page, naming the others.
    assert.deepEqual(results('coast').docs, [
      [`${SITE}/coast/lighthouse-keeper.html`, [`${SITE}/lighthouse.html`, `${SITE}/print/lighthouse.html`]],
    ]);
    assert.deepEqual(
      results('weather')
        .docs.map(([url]) => url)
        .sort(),
      [`${SITE}/ferry.html`, `${SITE}/lighthouse.html`],
    );
    // Every copy is still held, and claimed by its feed.
    assert.deepEqual(index.writer.feedsOf(`${SITE}/print/lighthouse.html`), [FEED]);
  });

  test('short pages and pages of another type are never taken for copies', () => {
    index.writer.upsert(
      [
        page('contact.html', 'Write to us lighthouse'),
        page('contact-us.html', 'Write to us lighthouse'),
        page('lighthouse.html', ARTICLE),
        page('lighthouse.pdf', ARTICLE, { doctype: 'pdf' }),
      ],
      FEED,
    );
    assert.deepEqual(
      results('lighthouse')
        .docs.map(([url]) => url)
        .sort(),
      [
        `${SITE}/contact-us.html`,
        `${SITE}/contact.html`,
        `${SITE}/lighthouse.html`,
        `${SITE}/lighthouse.pdf`,
      ],
    );
  });

  test('a copy shows again when the page shown goes or when its own text changes', () => {
    index.writer.upsert([page('lighthouse.html', ARTICLE), page('a/lighthouse.html', ARTICLE)], FEED);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/a/lighthouse.html`]]]);
    index.writer.remove([`${SITE}/lighthouse.html`]);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/a/lighthouse.html`, []]]);
    index.writer.upsert([page('lighthouse.html', ARTICLE)], FEED);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/a/lighthouse.html`]]]);
    index.writer.upsert([page('a/lighthouse.html', `${ARTICLE} Updated in May.`)], FEED);
    assert.deepEqual(
      results('lamp')
        .docs.map(([url, copies]) => [url, copies])
        .sort(),
      [
        [`${SITE}/a/lighthouse.html`, []],
        [`${SITE}/lighthouse.html`, []],
      ],
    );
  });

  test('a merge of segments keeps the copies, so the page shown can still give way to one', () => {
    index.writer.upsert([page('lighthouse.html', ARTICLE)], FEED);
    index.writer.upsert([page('b/lighthouse.html', ARTICLE)], FEED);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/b/lighthouse.html`]]]);
    // Enough batches for the merge policy to merge the segments holding both pages.
    for (let batch = 0; batch < 30; batch += 1)
      index.writer.upsert([page(`filler-${batch}.html`, `filler ${batch}`)], FEED);
    assert.ok(index.searcher().snapshot.segments.length < 32, 'the segments were merged');
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/b/lighthouse.html`]]]);
    index.writer.remove([`${SITE}/lighthouse.html`]);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/b/lighthouse.html`, []]]);
  });

  test('another connection to the file sees the same groups', () => {
    index.writer.upsert([page('lighthouse.html', ARTICLE), page('c/lighthouse.html', ARTICLE)], FEED);
    const reader = new SearchIndex(file);
    try {
      assert.deepEqual(results('lamp', reader).docs, [
        [`${SITE}/lighthouse.html`, [`${SITE}/c/lighthouse.html`]],
      ]);
      index.writer.remove([`${SITE}/lighthouse.html`]);
      assert.deepEqual(results('lamp', reader).docs, [[`${SITE}/c/lighthouse.html`, []]]);
    } finally {
      reader.close();
    }
  });
});

describe('links pointing at pages with the same text', () => {
  const shortUrl = `${SITE}/lighthouse.html`;
  const linkedUrl = `${SITE}/guide/lighthouse.html`;
  /** A page of its own text linking to `targets`. */
  const linking = (slug: string, ...targets: string[]): IndexedDocument =>
    page(slug, `Notes of ${slug} on the coast.`, { linksTo: targets });

  test('a run gives its pages the counts of its links, pages it does not hold keep theirs', () => {
    index.writer.stage('run-1', [
      page('lighthouse.html', ARTICLE),
      page('guide/lighthouse.html', ARTICLE),
      linking('a.html', linkedUrl),
      linking('b.html', linkedUrl, shortUrl),
      linking('c.html', linkedUrl),
    ]);
    // Staged counts are not seen before the run is applied.
    assert.deepEqual(results('lighthouse keeper').docs, []);
    index.writer.applyStaged('run-1', { feed: FEED, gone: [], release: () => false });
    // Three pages link to the longer URL, one to the shorter.
    assert.deepEqual(results('lighthouse keeper').docs, [[linkedUrl, [shortUrl]]]);

    // A second run holds the shorter URL (unchanged) and four pages linking to it; the longer URL
    // is not in it and keeps its three.
    index.writer.stage('run-2', [
      page('lighthouse.html', ARTICLE),
      ...['d', 'e', 'f', 'g'].map((name) => linking(`${name}.html`, shortUrl)),
    ]);
    index.writer.applyStaged('run-2', { feed: FEED, gone: [], release: () => false });
    assert.deepEqual(results('lighthouse keeper').docs, [[shortUrl, [linkedUrl]]]);

    // A discarded run's links count for nothing.
    index.writer.stage('run-3', [
      page('guide/lighthouse.html', ARTICLE),
      ...['h', 'i', 'j', 'k', 'l', 'm'].map((name) => linking(`${name}.html`, linkedUrl)),
    ]);
    index.writer.discardStaged('run-3');
    assert.deepEqual(results('lighthouse keeper').docs, [[shortUrl, [linkedUrl]]]);
  });

  test('a pass of upserts counts when it finishes, each linking page once, and never a page itself', () => {
    const pass = { key: 'bundle-pass', judged: new Set<string>(), adopted: new Set<string>() };
    index.writer.upsert(
      [
        page('lighthouse.html', ARTICLE, { linksTo: [shortUrl, linkedUrl] }),
        page('guide/lighthouse.html', ARTICLE, { linksTo: [linkedUrl] }),
        linking('a.html', shortUrl),
      ],
      FEED,
      undefined,
      pass,
    );
    // Before the pass ends no page has links: the shorter URL is shown.
    assert.deepEqual(results('lighthouse keeper').docs, [[shortUrl, [linkedUrl]]]);
    index.writer.upsert([linking('b.html', linkedUrl), linking('c.html', linkedUrl)], FEED, undefined, pass);
    index.writer.finishPass(pass);
    // The longer URL: linked from the shorter one, b and c (3); the shorter one from a (1).
    assert.deepEqual(results('lighthouse keeper').docs, [[linkedUrl, [shortUrl]]]);
    // Another connection to the file reads the same counts.
    const reader = new SearchIndex(file);
    try {
      assert.deepEqual(results('lighthouse keeper', reader).docs, [[linkedUrl, [shortUrl]]]);
    } finally {
      reader.close();
    }
  });
});

describe('an index file of format 11 to 15 written before inbound links were counted', () => {
  test('gets the count when opened, its pages at 0 until a pass holds them', () => {
    index.writer.upsert([page('lighthouse.html', ARTICLE), page('guide/lighthouse.html', ARTICLE)], FEED);
    index.close();
    const db = new Database(file);
    // The triggers counting template lines name the table function a store registers.
    registerTemplateFunctions(db);
    undoFormat16(db);
    db.exec('ALTER TABLE documents DROP COLUMN inbound_links');
    db.close();
    index = new SearchIndex(file);
    const reader = new Database(file, { readonly: true });
    try {
      assert.deepEqual(
        reader.prepare('SELECT DISTINCT inbound_links FROM document_state').pluck().all(),
        [0],
      );
      assert.equal(reader.prepare('SELECT count(*) FROM document_state').pluck().get(), 2);
    } finally {
      reader.close();
    }
    assert.deepEqual(results('lighthouse keeper').docs, [
      [`${SITE}/lighthouse.html`, [`${SITE}/guide/lighthouse.html`]],
    ]);
  });
});

describe('pages that differ only by template lines', () => {
  /** Pages of the site that hold the breadcrumb and text of their own. */
  const others = (from: number, to: number): IndexedDocument[] =>
    Array.from({ length: to - from }, (_, offset) =>
      page(`section-${from + offset}.html`, `${BREADCRUMB}\nsection ${from + offset} of the coast guide`),
    );
  const withBreadcrumb = page('guide/lighthouse.html', `${BREADCRUMB}\n${ARTICLE}`);
  const bare = page('lighthouse.html', ARTICLE);

  test('become one when the line becomes template, and two again when it stops being so', () => {
    // On 2 of 3 pages: a site of so few pages has no template, so the texts differ.
    index.writer.upsert([withBreadcrumb, bare, ...others(0, 1)], FEED);
    assert.equal(results('lamp').hits, 2);
    // On 5 of 6 pages: the breadcrumb is template, and the two pages have the same main text.
    index.writer.upsert(others(1, 4), FEED);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/guide/lighthouse.html`]]]);
    // Most pages go: the line is no longer template, and each page is itself again.
    index.writer.remove(others(0, 4).map((other) => other.url));
    assert.equal(results('lamp').hits, 2);
  });

  test('a staged run applied after the line became template is grouped by the template as it is then', () => {
    index.writer.stage('run-1', [withBreadcrumb, bare]);
    // Meanwhile, another feed's pages make the breadcrumb template.
    index.writer.upsert(others(0, 5), 'bundle:other');
    index.writer.applyStaged('run-1', { feed: 'setting:1', gone: [], release: () => false });
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/guide/lighthouse.html`]]]);
  });

  test('the same, with the line past what result pages show of the page', () => {
    // The stored display head is cut from the first 20,000 characters; the breadcrumb ends the page.
    const logbook = Array.from(
      { length: 500 },
      (_, at) => `Logbook entry ${at}: wind from the west, sea calm.`,
    );
    const long = `${ARTICLE}\n${logbook.join('\n')}`;
    index.writer.stage('run-1', [
      page('guide/lighthouse.html', `${long}\n${BREADCRUMB}`),
      page('lighthouse.html', long),
    ]);
    index.writer.upsert(
      Array.from({ length: 5 }, (_, at) => page(`section-${at}.html`, `section ${at}\n${BREADCRUMB}`)),
      'bundle:other',
    );
    index.writer.applyStaged('run-1', { feed: 'setting:1', gone: [], release: () => false });
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/guide/lighthouse.html`]]]);
  });
});

describe('the counts of main text keys', () => {
  /** The counts kept by the triggers, and the heads' keys counted afresh. */
  const counts = () => ({
    kept: fileRows<{ key: string; pages: number }>(
      file,
      'SELECT hex(main_key) AS key, pages FROM same_text_keys ORDER BY key',
    ),
    counted: fileRows<{ key: string; pages: number }>(
      file,
      `SELECT hex(main_key) AS key, count(*) AS pages FROM display_heads WHERE main_key IS NOT NULL
       GROUP BY main_key ORDER BY key`,
    ),
  });
  const assertCounted = (step: string) => {
    const { kept, counted } = counts();
    assert.deepEqual(kept, counted, step);
  };

  /** Pages of other texts: a text on most pages of a site would be its template. */
  const timetables = Array.from({ length: 8 }, (_, at) => page(`timetable-${at}.html`, `timetable ${at}`));

  test('follow the heads through writes, changes, removals and staged runs', () => {
    index.writer.upsert(
      [page('lighthouse.html', ARTICLE), page('a/lighthouse.html', ARTICLE), ...timetables],
      FEED,
    );
    assertCounted('two pages of one text');
    assert.deepEqual(counts().kept.filter((row) => row.pages > 1).length, 1);
    index.writer.upsert([page('a/lighthouse.html', OTHER_ARTICLE)], FEED);
    assertCounted('a page changed its text');
    index.writer.upsert([page('a/lighthouse.html', OTHER_ARTICLE)], FEED);
    assertCounted('the same page written again');
    index.writer.stage('run-1', [page('b/lighthouse.html', ARTICLE), page('a/lighthouse.html', ARTICLE)]);
    index.writer.applyStaged('run-1', { feed: 'setting:1', gone: [], release: () => false });
    assertCounted('a staged run applied');
    assert.deepEqual(results('lamp').docs, [
      [`${SITE}/lighthouse.html`, [`${SITE}/a/lighthouse.html`, `${SITE}/b/lighthouse.html`]],
    ]);
    index.writer.remove([`${SITE}/lighthouse.html`, `${SITE}/a/lighthouse.html`]);
    assertCounted('pages removed');
    assert.deepEqual(counts().kept.filter((row) => row.pages > 1).length, 0);
  });

  test('a new generation reads its groups from indexes alone', () => {
    const plan = fileRows<{ detail: string }>(file, `EXPLAIN QUERY PLAN ${SAME_TEXT_ROWS}`)
      .map((row) => row.detail)
      .join('; ');
    assert.match(plan, /SCAN k USING COVERING INDEX same_text_keys_shared/);
    assert.match(plan, /SEARCH d USING COVERING INDEX documents_heads/);
  });

  test('a file of format 16 counts the keys of its heads when opened', () => {
    index.writer.upsert(
      [
        page('lighthouse.html', ARTICLE),
        page('e/lighthouse.html', ARTICLE),
        page('ferry.html', OTHER_ARTICLE),
      ],
      FEED,
    );
    index.close();
    const db = new Database(file);
    undoFormat17(db);
    db.close();
    index = new SearchIndex(file);
    assertCounted('counted by the upgrade');
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/e/lighthouse.html`]]]);
  });
});

describe('the site search', () => {
  const request = (q: string, extra: { category?: string; drilldown?: string[] } = {}) => ({
    q,
    pageNumber: 1,
    numberPerPage: 10,
    sortKeys: [{ field: 'score' as const, order: 'desc' as const }],
    category: extra.category ?? '',
    drilldown: extra.drilldown ?? [],
    doctype: ['all' as const],
  });

  test('counts a group once per category and node, and a filter finds its own section’s page', async () => {
    index.writer.upsert(
      [
        page('lighthouse.html', ARTICLE),
        page('support/lighthouse.html', ARTICLE),
        page('support/ferry.html', OTHER_ARTICLE),
      ],
      FEED,
    );
    const search = new SiteSearch(
      index,
      {
        categories: [
          { name: 'Support', url_pattern: '/support/' },
          { name: 'All', url_pattern: '/' },
        ],
        drilldowns: [
          { url_pattern: '/support/', path: 'Help' },
          { url_pattern: '/', path: 'Site' },
        ],
      },
      new SearchActivity(index.store, systemClock),
    );
    {
      const all = await search.search(request('weather'));
      assert.equal(all.organic.hits, 2);
      assert.deepEqual(all.organic.docs.map((doc) => [doc.url, doc.duplicate_urls]).sort(), [
        [`${SITE}/lighthouse.html`, [`${SITE}/support/lighthouse.html`]],
        [`${SITE}/support/ferry.html`, undefined],
      ]);
      assert.deepEqual(all.category.items, ['Support', 'All']);
      // Site holds both pages of the group and the ferry page: it counts the group once.
      const nodes = all.facet_drilldown_roots.flatMap((root) => root.facet_drilldowns);
      assert.deepEqual(nodes.map((node) => [node.title, node.count]).sort(), [
        ['Help', 2],
        ['Site', 2],
      ]);
      // In the Support category the group's page there is the result, still naming the other.
      const support = await search.search(request('lamp', { category: 'Support' }));
      assert.deepEqual(
        support.organic.docs.map((doc) => [doc.url, doc.duplicate_urls]),
        [[`${SITE}/support/lighthouse.html`, [`${SITE}/lighthouse.html`]]],
      );
      const drilled = await search.search(request('lamp', { drilldown: ['Help'] }));
      assert.deepEqual(
        drilled.organic.docs.map((doc) => doc.url),
        [`${SITE}/support/lighthouse.html`],
      );
      // A category or a drill-down path the service does not have finds nothing.
      assert.equal((await search.search(request('lamp', { drilldown: ['Nowhere'] }))).organic.hits, 0);
      assert.equal((await search.search(request('lamp', { category: 'Nowhere' }))).organic.hits, 0);
    }
  });

  test('names at most MAX_NAMED_COPIES other pages of a large group', async () => {
    const copies = Array.from({ length: MAX_NAMED_COPIES + 5 }, (_, at) =>
      page(`copy-${String(at).padStart(2, '0')}.html`, ARTICLE),
    );
    // The site has enough other pages for the text not to be its template.
    const others = Array.from({ length: 3 * copies.length }, (_, at) =>
      page(`other-${at}.html`, `other page ${at}`),
    );
    index.writer.upsert([...copies, ...others], FEED);
    const found = results('lamp');
    assert.equal(found.hits, 1);
    assert.equal(found.docs[0]![0], `${SITE}/copy-00.html`);
    assert.deepEqual(
      found.docs[0]![1],
      copies.slice(1, 1 + MAX_NAMED_COPIES).map((copy) => copy.url),
    );
  });
});

describe('an index file of format 9', () => {
  test('gains the keys: its pages become one result as the writes that follow store their heads again', () => {
    index.writer.upsert([page('lighthouse.html', ARTICLE), page('d/lighthouse.html', ARTICLE)], FEED);
    index.close();
    // The file as format 9 left it: heads without keys.
    const db = new Database(file);
    db.exec(`${UNDO_FORMAT_12}
      DROP TABLE same_text_keys;
      PRAGMA legacy_alter_table = ON;
      CREATE TABLE heads_9 (
        id INTEGER PRIMARY KEY, content_hash BLOB NOT NULL, head TEXT NOT NULL, more INTEGER NOT NULL,
        lines BLOB NOT NULL
      );
      INSERT INTO heads_9 SELECT id, content_hash, head, more, lines FROM display_heads;
      DROP TABLE display_heads;
      ALTER TABLE heads_9 RENAME TO display_heads;
      CREATE TABLE staged_heads_9 (
        run_key TEXT NOT NULL, id INTEGER NOT NULL, content_hash BLOB NOT NULL, head TEXT NOT NULL,
        more INTEGER NOT NULL, lines BLOB NOT NULL, PRIMARY KEY (run_key, id)
      );
      DROP TABLE staged_display_heads;
      ALTER TABLE staged_heads_9 RENAME TO staged_display_heads;
      UPDATE index_meta SET value = '9' WHERE key = 'schema';
    `);
    db.close();
    index = new SearchIndex(file);
    const reader = new Database(file, { readonly: true });
    assert.equal(reader.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get(), '17');
    reader.close();
    // Not grouped until the heads are stored again; the pages are found as before.
    assert.equal(results('lamp').hits, 2);
    // A write, even of an unchanged page, stores the missing heads with their keys.
    index.writer.upsert([page('lighthouse.html', ARTICLE)], FEED);
    assert.deepEqual(results('lamp').docs, [[`${SITE}/lighthouse.html`, [`${SITE}/d/lighthouse.html`]]]);
  });
});
