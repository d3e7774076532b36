/**
 * Related keywords (docs/reference/site-search.md, Related keywords): words found with the query
 * in the matching pages significantly more than in the whole site, whole words only, without the
 * site's template, the query's own words or stop words, filtered by a prefix.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { normalizeText } from '../../src/search/analyzer.js';
import { pageTextOf } from '../../src/search/html-text.js';
import { applyRunToIndex } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { type BundlePage, writeBundle } from '../support/crawl-bundle.js';
import {
  databaseManual,
  FORMER_SAMPLE_CHARS,
  SERVER_TEMPLATE_WORDS,
  serverManual,
} from '../support/related-sites.js';
import { REFERENCE_HOST, referenceHtml } from '../support/template-site.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A site indexed from one complete crawl run, as a scheduled setting indexes it. */
async function siteOf(pages: readonly BundlePage[]): Promise<{ index: SearchIndex; site: SiteSearch }> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-related-'));
  folders.push(folder);
  const index = new SearchIndex(path.join(folder, 'service-1.db'));
  const bundle = path.join(folder, 'run-1.tar.gz');
  writeBundle(bundle, pages);
  await applyRunToIndex(index, 'run-1', 'setting:1', bundle, {
    gone: new Set(),
    failed: new Set(),
    complete: false,
  });
  return { index, site: new SiteSearch(index, {}, new SearchActivity(index.store, systemClock)) };
}

/** Every whole word of the pages' text, normalized. */
function wordsOfPages(pages: readonly BundlePage[]): Set<string> {
  const words = new Set<string>();
  for (const page of pages) {
    const text = pageTextOf(page.html!);
    const all = normalizeText(`${text.title}\n${text.headings}\n${text.body}`);
    for (const match of all.matchAll(/[\p{L}\p{N}\p{M}_]+/gu)) words.add(match[0]);
  }
  return words;
}

describe('related keywords of a database manual', () => {
  test('jsonb gives whole words of the JSON pages, never a word cut short', async () => {
    const pages = databaseManual();
    // The fixture holds what broke: "from" across the end of the part of a body once read.
    const longPage = pageTextOf(pages[0]!.html!).body;
    assert.equal(longPage.slice(FORMER_SAMPLE_CHARS - 3, FORMER_SAMPLE_CHARS), 'fro');
    const { index, site } = await siteOf(pages);
    try {
      const related = site.relatedKeywords('jsonb', '');
      assert.ok(related.length > 0 && related.length <= 10);
      assert.ok(!related.includes('fro'), `related: ${related.join(', ')}`);
      const whole = wordsOfPages(pages);
      assert.deepEqual(
        related.filter((word) => !whole.has(word)),
        [],
        'only whole words of the pages',
      );
      for (const word of ['jsonpath', 'containment', 'json']) {
        assert.ok(related.includes(word), `${word} in: ${related.join(', ')}`);
      }
      // Not the query, no stop word, no template word, not the release notes' authors.
      for (const word of ['jsonb', 'from', 'the', 'prev', 'next', 'home', 'copyright', 'lane', 'paquier']) {
        assert.ok(!related.includes(word), `${word} in: ${related.join(', ')}`);
      }
    } finally {
      index.close();
    }
  });

  test('the prefix keeps the words starting with it', async () => {
    const { index, site } = await siteOf(databaseManual());
    try {
      assert.deepEqual([...site.relatedKeywords('jsonb', 'json')].sort(), ['json', 'jsonpath']);
      const cont = site.relatedKeywords('jsonb', 'CONT');
      assert.ok(cont.includes('containment'), `cont: ${cont.join(', ')}`);
      assert.ok(cont.every((word) => word.startsWith('cont')));
      assert.deepEqual(site.relatedKeywords('jsonb', 'zz'), []);
    } finally {
      index.close();
    }
  });
});

/** Three pages about triggers among three about other subjects, of a database manual. */
function triggerManual(): BundlePage[] {
  const pages = [
    [
      'plpgsql-trigger',
      'Trigger Functions',
      'A trigger function runs when a trigger fires on an event table row.',
    ],
    [
      'sql-createtrigger',
      'CREATE TRIGGER',
      'Triggers fire before or after an event; a trigger names its function.',
    ],
    ['event-triggers', 'Event Triggers', 'Event triggers fire on DDL commands, unlike a row trigger.'],
    ['datatype-json', 'JSON Types', 'The json and jsonb types store documents as text or decomposed.'],
    ['indexes-types', 'Index Types', 'B-tree, hash and GiST indexes serve different operators.'],
    ['functions-string', 'String Functions', 'Functions that concatenate, trim and split strings.'],
  ];
  return pages.map(([slug, title, text]) => ({
    url: `${REFERENCE_HOST}/${slug}.html`,
    status: 200,
    html: referenceHtml({ slug: slug!, title: title!, text: text! }),
  }));
}

describe('related keywords and word forms', () => {
  test('a form of the query word is the query, not a keyword related to it', async () => {
    const pages = triggerManual();
    const { index, site } = await siteOf(pages);
    try {
      const related = site.relatedKeywords('triggers', '');
      assert.ok(related.includes('event'), `related: ${related.join(', ')}`);
      for (const form of ['trigger', 'triggers']) {
        assert.ok(!related.includes(form), `${form} in: ${related.join(', ')}`);
      }
    } finally {
      index.close();
    }
  });
});

describe('related keywords of a Japanese server manual', () => {
  test('認証 gives the words of the authentication pages, none of the menu and breadcrumb', async () => {
    const { index, site } = await siteOf(serverManual());
    try {
      const related = site.relatedKeywords('認証', '');
      assert.deepEqual(
        related.filter((word) => SERVER_TEMPLATE_WORDS.includes(word)),
        [],
        `related: ${related.join(', ')}`,
      );
      for (const word of ['承認', 'アクセス制御', 'パスワード']) {
        assert.ok(related.includes(word), `${word} in: ${related.join(', ')}`);
      }
      // Compounds are whole: no part a segmenter cut off (アクセス of アクセス制御), no particle.
      for (const word of ['アクセス', '制御', 'は', 'を', '認証']) {
        assert.ok(!related.includes(word), `${word} in: ${related.join(', ')}`);
      }
      assert.deepEqual(site.relatedKeywords('認証', 'パス'), ['パスワード']);
    } finally {
      index.close();
    }
  });
});

describe('related keywords and listing pages', () => {
  test("an index's entries name other pages' subjects: their words are not related to the query", async () => {
    const pages = triggerManual();
    // A back-of-the-book index pairing the query with a word no page treats
    // (docs/reference/site-search.md, Listing pages).
    const entries = Array.from(
      { length: 12 },
      (_, number) =>
        `<dt>trigger marmalade ${number}, <a href="plpgsql-trigger.html#s${number}">Trigger Functions</a></dt>`,
    );
    // And a list of links naming it as well: two matching pages hold the word, as related keywords ask.
    const links = Array.from(
      { length: 6 },
      (_, number) =>
        `<li><a href="event-triggers.html#m${number}">Trigger marmalade recipe ${number}</a></li>`,
    );
    pages.push(
      {
        url: `${REFERENCE_HOST}/bookindex.html`,
        status: 200,
        html: `<html><head><title>Index</title></head><body><main><h1>Index</h1><dl>${entries.join('')}</dl></main></body></html>`,
      },
      {
        url: `${REFERENCE_HOST}/see-also.html`,
        status: 200,
        html: `<html><head><title>See also</title></head><body><main><h1>See also</h1><ul>${links.join('')}</ul></main></body></html>`,
      },
    );
    const { index, site } = await siteOf(pages);
    try {
      const related = site.relatedKeywords('trigger', '');
      assert.ok(related.includes('event'), `related: ${related.join(', ')}`);
      assert.ok(!related.includes('marmalade'), `related: ${related.join(', ')}`);
    } finally {
      index.close();
    }
  });
});
