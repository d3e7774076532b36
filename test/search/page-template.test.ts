/**
 * Page templates (docs/reference/site-search.md, Page templates): the navigation, breadcrumbs and
 * footers that frame every page of a documentation site stay out of what a visitor reads
 * (snippets, start_text, description), out of related keywords and suggestions, and out of the
 * ranking; sites are indexed from crawl bundles as a scheduled run indexes them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { validateSearchServiceConfig } from '../../src/domain/schemas.js';
import { contentSelectorsOf } from '../../src/search/content-selectors.js';
import { pageTextOf } from '../../src/search/html-text.js';
import { applyRunToIndex } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchActivity } from '../../src/search/site/search-activity.js';
import type { OrganicDoc } from '../../src/search/site/search-response.js';
import { SiteSearch } from '../../src/search/site/site-search.js';
import { systemClock } from '../../src/util/index.js';
import { type BundlePage, writeBundle } from '../support/crawl-bundle.js';
import {
  JAPANESE_MENU,
  landmarkBundle,
  manualBundle,
  REFERENCE_HOST,
  REFERENCE_PAGES,
  referenceBundle,
  referenceHtml,
} from '../support/template-site.js';
import { rankedSearch } from '../support/ranked-search.js';
import { firstPageRequest } from '../support/site-search-request.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

let runs = 0;
/** Indexes `pages` as one complete run of a scheduled setting. */
async function indexRun(
  index: SearchIndex,
  pages: readonly BundlePage[],
  gone: string[] = [],
): Promise<void> {
  runs += 1;
  const bundle = path.join(folders.at(-1)!, `run-${runs}.tar.gz`);
  writeBundle(bundle, pages);
  await applyRunToIndex(index, `run-${runs}`, 'setting:1', bundle, {
    gone: new Set(gone),
    failed: new Set(),
    complete: false,
  });
}

async function siteOf(pages: readonly BundlePage[]): Promise<{ index: SearchIndex; site: SiteSearch }> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-template-'));
  folders.push(folder);
  const index = new SearchIndex(path.join(folder, 'service-1.db'));
  await indexRun(index, pages);
  return { index, site: new SiteSearch(index, {}, new SearchActivity(index.store, systemClock)) };
}

async function docsFor(site: SiteSearch, q: string): Promise<OrganicDoc[]> {
  const answer = await site.search(firstPageRequest(q));
  return answer.organic.docs;
}

const snippetOf = (doc: OrganicDoc): string =>
  doc.highlight.document_text_parts.map((part) => part.text).join('');

describe('landmarks at extraction', () => {
  test('nav, page header and footer, aside and role=navigation are template; an article header is not', () => {
    const text = pageTextOf(landmarkBundle()[0]!.html!);
    assert.equal(
      text.body,
      'Installing the tool\nDownload the archive, unpack it and run the installer as an administrator.\nLast reviewed in spring',
    );
    assert.equal(text.headings, 'Installing the tool');
    assert.match(
      text.template,
      /^Guide Home\nPrev Up Home Next\nGuide › Chapters › Installing the tool\nOn this page/,
    );
    assert.match(text.template, /Copyright Landmark Guides/);
  });

  test('with a main element, text outside it is template', () => {
    const text = pageTextOf(
      '<div class="related">Index Modules Next</div><div role="main"><h1>json</h1><p>Encoder</p></div>' +
        '<div class="sphinxsidebar"><h3>Previous topic</h3></div>',
    );
    assert.equal(text.body, 'json\nEncoder');
    assert.equal(text.headings, 'json');
    assert.equal(text.template, 'Index Modules Next\nPrevious topic');
  });

  test('a page that is all navigation keeps its text as its body', () => {
    const text = pageTextOf('<title>Site map</title><nav><ul><li>Install</li><li>Configure</li></ul></nav>');
    assert.equal(text.body, 'Install\nConfigure');
    assert.equal(text.template, '');
  });
});

describe('a site framed by landmarks', () => {
  test('snippets, start_text and descriptions hold the article, and template words find nothing', async () => {
    const { index, site } = await siteOf(landmarkBundle());
    try {
      const [doc] = await docsFor(site, 'installer');
      assert.equal(doc!.title, 'Installing the tool');
      assert.match(doc!.start_text, /^Installing the tool Download the archive/);
      assert.match(doc!.description, /^Installing the tool Download the archive/);
      assert.doesNotMatch(snippetOf(doc!), /Prev|Home|Copyright|On this page/);
      // Landmark text is not indexed: the footer's words are on every page and mean nothing.
      assert.equal((await docsFor(site, 'privacy')).length, 0);
      assert.deepEqual(site.suggest('priv', 10), []);
    } finally {
      index.close();
    }
  });
});

describe('repeated blocks of a site without landmarks', () => {
  test('the navigation table, breadcrumb and footer are left out of what a visitor reads', async () => {
    const { index, site } = await siteOf(referenceBundle());
    try {
      const [doc] = await docsFor(site, 'constructs');
      assert.equal(doc!.title, 'CREATE INDEX');
      assert.doesNotMatch(doc!.start_text, /Prev|Up|Home|Next|SQL Commands|Reference Manual|Copyright/);
      assert.equal(
        doc!.start_text,
        'CREATE INDEX CREATE INDEX CREATE INDEX constructs an index on the specified column of a relation. Indexes speed up retrieval.',
      );
      assert.equal(doc!.description, doc!.start_text);
      assert.doesNotMatch(snippetOf(doc!), /Prev|Home|Copyright/);
      assert.equal(
        site
          .relatedKeywords('index', '')
          .some((word) => ['prev', 'home', 'next', 'copyright', 'commands', 'fonts'].includes(word)),
        false,
      );
    } finally {
      index.close();
    }
  });

  test('a line becomes template once enough pages carry it, and stops being when they are gone', async () => {
    const notice = 'Maintenance window on Sunday night';
    const withNotice = (page: (typeof REFERENCE_PAGES)[number]): BundlePage => ({
      url: `${REFERENCE_HOST}/sql-${page.slug}.html`,
      status: 200,
      html: referenceHtml({ ...page, text: `${page.text}</p><p>${notice}` }),
    });
    const [first, second, ...others] = REFERENCE_PAGES;
    const { index, site } = await siteOf([withNotice(first!), ...referenceBundle([second!, ...others])]);
    try {
      const shown = async () => (await docsFor(site, 'constructs'))[0]!.start_text.includes(notice);
      const found = async () => (await docsFor(site, 'maintenance')).map((doc) => doc.title);
      assert.equal(await shown(), true, 'on one page of eight, the notice is content');
      assert.deepEqual(await found(), ['CREATE INDEX']);
      await indexRun(index, [second!, others[0]!, others[1]!].map(withNotice));
      assert.equal(await shown(), false, 'on four pages of eight, the notice is template');
      // The first page was indexed before the notice became template: it was indexed again.
      assert.deepEqual(await found(), []);
      await indexRun(index, referenceBundle([second!, others[0]!, others[1]!]));
      assert.equal(await shown(), true, 'back on one page, it is content again');
      assert.deepEqual(await found(), ['CREATE INDEX']);
      await indexRun(
        index,
        [],
        [2, 3, 4, 5, 6, 7].map((n) => `${REFERENCE_HOST}/sql-${REFERENCE_PAGES[n]!.slug}.html`),
      );
      // Two pages left: no line of a site that small counts as template.
      const [doc] = await docsFor(site, 'constructs');
      assert.match(doc!.start_text, /Prev/);
    } finally {
      index.close();
    }
  });

  test('a line becomes template on 30% of the pages and stays so down to 20%', async () => {
    const notice = 'Maintenance window on Sunday night';
    const pages = Array.from({ length: 20 }, (_, n) => ({
      slug: `page-${n}`,
      title: `Statement ${n}`,
      text: `Statement number ${n} is described here.`,
    }));
    const carrying = (n: number): BundlePage[] =>
      pages.map((page, at) => ({
        url: `${REFERENCE_HOST}/sql-${page.slug}.html`,
        status: 200,
        html: referenceHtml(at < n ? { ...page, text: `${page.text}</p><p>${notice}` } : page),
      }));
    const { index, site } = await siteOf(carrying(5));
    try {
      const found = async () => (await docsFor(site, 'maintenance')).length;
      assert.equal(await found(), 5, 'on 25% of the pages: content');
      await indexRun(index, carrying(6));
      assert.equal(await found(), 0, 'on 30%: template');
      await indexRun(index, carrying(4));
      assert.equal(await found(), 0, 'on 20%: still template');
      await indexRun(index, carrying(3));
      assert.equal(await found(), 3, 'on 15%: content again');
    } finally {
      index.close();
    }
  });

  test('a page whose whole text is template still gets a description', async () => {
    const pages = referenceBundle();
    const bare = `${REFERENCE_HOST}/sql-commands.html`;
    const html = referenceHtml({ slug: 'x', title: 'SQL Commands', text: '' }).replace(
      /<div class="refentry">.*?<\/div>/s,
      '',
    );
    const { index, site } = await siteOf([...pages, { url: bare, status: 200, html }]);
    try {
      const doc = (await docsFor(site, 'commands')).find((candidate) => candidate.url === bare);
      assert.ok(doc);
      assert.match(doc.description, /^SQL Commands Prev Up SQL Commands Home Next/);
    } finally {
      index.close();
    }
  });
});

describe('long pages', () => {
  // A header of 60 long template lines (about 17,000 characters) and a body longer than what a
  // hit's page reads of it: the snippet's passage lies past that start in the body yet within
  // the 20,000 characters of main text searched for it, so it is found only from the whole body.
  const HOST = 'https://long.example';
  const header = Array.from(
    { length: 60 },
    (_, line) => `<p>Menu ${line} ${'section link '.repeat(21)}</p>`,
  ).join('');
  const paragraph = (slug: string, at: number) =>
    `<p>Paragraph ${at} of the ${slug} text ${'plain filler words '.repeat(14)}</p>`;
  const pageHtml = (slug: string, deepWord: string) =>
    `<html><head><title>${slug}</title></head><body>${header}` +
    `<p>${slug} opens here.</p>${Array.from({ length: 60 }, (_, at) => paragraph(slug, at)).join('')}` +
    `<p>The ${deepWord} setting lies deep in the page.</p>` +
    `${Array.from({ length: 40 }, (_, at) => paragraph(slug, 100 + at)).join('')}</body></html>`;

  test('the snippet passage past the start read of a body with a long template header is found', async () => {
    const pages = ['alpha', 'beta', 'gamma', 'delta'].map((slug) => ({
      url: `${HOST}/${slug}.html`,
      status: 200,
      html: pageHtml(slug, slug === 'alpha' ? 'zephyrine' : 'ordinary'),
    }));
    const { index, site } = await siteOf(pages);
    try {
      const [doc] = await docsFor(site, 'zephyrine');
      assert.equal(doc!.url, `${HOST}/alpha.html`);
      assert.match(doc!.start_text, /^alpha opens here\. Paragraph 0 of the alpha text/);
      assert.ok(
        doc!.highlight.document_text_parts.some((part) => part.is_highlighted && part.text === 'zephyrine'),
        snippetOf(doc!),
      );
      assert.equal(doc!.highlight.document_text_parts.at(-1)!.text, '…');
    } finally {
      index.close();
    }
  });
});

describe('a Japanese manual with its English twin', () => {
  test('the menu is in no snippet, and related keywords of 認証 are about authentication', async () => {
    const { index, site } = await siteOf(manualBundle());
    try {
      const docs = await docsFor(site, '認証');
      assert.ok(docs.length >= 3);
      for (const doc of docs) {
        assert.doesNotMatch(doc.start_text, /モジュール|サイトマップ|ドキュメンテーション/);
        assert.doesNotMatch(snippetOf(doc), /モジュール \| ディレクティブ/);
      }
      assert.ok(!docs[0]!.start_text.includes(JAPANESE_MENU));
      const related = site.relatedKeywords('認証', '');
      const template = [
        'サイト',
        'サーバ',
        'ディレクティブ',
        'ドキュメンテーション',
        'バージョン',
        'マップ',
        'モジュール',
      ];
      assert.deepEqual(
        related.filter((word) => template.includes(word)),
        [],
      );
      // Whole compounds: the pages speak of パスワードファイル.
      assert.ok(related.includes('パスワードファイル'), `related: ${related.join(', ')}`);
      assert.deepEqual(site.suggest('モジ', 10), []);
      assert.deepEqual(site.suggest('ディレ', 10), []);
    } finally {
      index.close();
    }
  });
});

describe('content selectors of a search service', () => {
  test('exclude leaves parts out, main marks the content; the rest is template', async () => {
    const config = {
      content_selectors: {
        main: ['div.refentry'],
        exclude: ['div.refentry > p.advert', '[data-nosearch]'],
      },
    };
    assert.deepEqual(validateSearchServiceConfig(config), []);
    const html = referenceHtml({
      slug: 'x',
      title: 'CREATE INDEX',
      text: 'Indexes speed up retrieval.</p><p class="advert">Try our hosted database</p><p data-nosearch="">Internal note',
    });
    const text = pageTextOf(html, contentSelectorsOf(config));
    assert.equal(text.body, 'CREATE INDEX\nIndexes speed up retrieval.');
    assert.match(text.template, /^CREATE INDEX\nPrev\nUp\nSQL Commands/);
    assert.doesNotMatch(`${text.body}\n${text.template}`, /hosted database|Internal note/);

    // As a scheduled run indexes the service's pages: the excluded text finds nothing.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-selectors-'));
    folders.push(folder);
    const index = new SearchIndex(path.join(folder, 'service-1.db'));
    try {
      const bundle = path.join(folder, 'run.tar.gz');
      writeBundle(bundle, [{ url: `${REFERENCE_HOST}/sql-create-index.html`, status: 200, html }]);
      const outcomes = { gone: new Set<string>(), failed: new Set<string>(), complete: false };
      await applyRunToIndex(index, 'run-1', 'setting:1', bundle, outcomes, {
        selectors: contentSelectorsOf(config),
      });
      assert.equal(rankedSearch(index, 'hosted').hits, 0);
      assert.equal(rankedSearch(index, 'retrieval').hits, 1);
    } finally {
      index.close();
    }
  });

  test('a selector the extraction cannot apply is refused, naming the field', () => {
    const errors = validateSearchServiceConfig({
      content_selectors: { main: ['article', 'div..x'], exclude: ['li:first-child', 'div + p', '#ok'] },
    });
    assert.deepEqual(
      errors.map((error) => error.field),
      ['content_selectors.main[1]', 'content_selectors.exclude[0]', 'content_selectors.exclude[1]'],
    );
    assert.match(errors[1]!.reason, /pseudo-classes and sibling combinators are not supported/);
    assert.deepEqual(
      validateSearchServiceConfig({ content_selectors: { exclude: [''] } }).map((error) => error.field),
      ['content_selectors.exclude[0]'],
    );
  });
});
