/**
 * The results a visitor sees, in real Chromium against a real `kumo serve`: the hit count line,
 * ranked results with highlighted title, URL and snippet, document type badges, paging and the
 * sort choices, each compared with what the site search API answers for the same request
 * (docs/reference/widget.md, What a visitor gets).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMON_QUERY } from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();

describe('widget results', () => {
  test('a search shows the hit count and the first page of results in the API’s order', async () => {
    const { widget } = await suite.open('plain');
    const expected = await suite.site.search({ q: COMMON_QUERY });
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    const status = await widget.statusText();
    assert.match(status, new RegExp(`\\b${expected.organic.hits}\\b`), status);
    assert.match(status, new RegExp(COMMON_QUERY), status);
    assert.equal(await widget.part('status').getAttribute('aria-live'), 'polite');
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.equal(await widget.part('result').count(), 10);
    assert.equal(await widget.part('results').evaluate((element) => element.tagName), 'OL');
  });

  test('titles and snippets carry the highlights as <mark> elements; the title links to the page', async () => {
    const { widget } = await suite.open('plain');
    const expected = await suite.site.search({ q: COMMON_QUERY });
    await widget.search(COMMON_QUERY);
    const first = widget.part('result').first();
    const doc = expected.organic.docs[0]!;
    const titleMarks = await first.locator('[part~="result-title"] mark').allTextContents();
    assert.deepEqual(
      titleMarks,
      doc.highlight.title_parts.filter((part) => part.is_highlighted).map((part) => part.text),
    );
    assert.ok(titleMarks.length > 0, 'the title has a highlight');
    assert.match(
      (await first.locator('[part~="result-title"] mark').first().getAttribute('part')) ?? '',
      /\bmark\b/,
    );
    const snippetMarks = await first.locator('[part~="result-snippet"] mark').allTextContents();
    // The query word, or its plural found as a form of it (docs/reference/site-search.md, Word
    // forms).
    assert.ok(
      snippetMarks.length > 0 &&
        snippetMarks.every((text) => [COMMON_QUERY, `${COMMON_QUERY}es`].includes(text.toLowerCase())),
      JSON.stringify(snippetMarks),
    );
    const link = first.locator('a[part~="result-title"], [part~="result-title"] a').first();
    assert.equal(await link.getAttribute('href'), doc.url);
    // The URL line may shorten the scheme or the middle, never the host and the page's name.
    const shownUrl = ((await first.locator('[part~="result-url"]').textContent()) ?? '').trim();
    const { host, pathname } = new URL(doc.url);
    assert.ok(shownUrl.includes(host) && shownUrl.includes(pathname.split('/').pop()!), shownUrl);
  });

  test('PDF and Word results carry a badge; HTML results none', async () => {
    const { widget } = await suite.open('plain');
    const query = 'harvest OR committee';
    const expected = await suite.site.search({ q: query });
    assert.deepEqual(expected.organic.docs.map((doc) => doc.doctype).sort(), ['doc', 'html', 'pdf']);
    await widget.search(query);
    const badges: [string, string][] = [];
    for (const result of await widget.part('result').all()) {
      const href = (await result.locator('a').first().getAttribute('href')) ?? '';
      const badge = result.locator('[part~="badge"]');
      badges.push([href, (await badge.count()) === 0 ? '' : ((await badge.textContent()) ?? '').trim()]);
    }
    const wanted = { pdf: 'PDF', doc: 'Word', html: '' } as Record<string, string>;
    assert.deepEqual(
      badges,
      expected.organic.docs.map((doc) => [doc.url, wanted[doc.doctype]]),
    );
  });

  test('the pager moves to page 2 (aria-current), shows the rest, and writes the page into the URL', async () => {
    const { page, widget } = await suite.open('plain');
    await widget.search(COMMON_QUERY);
    const second = await suite.site.search({ q: COMMON_QUERY, page_number: 2 });
    await widget
      .part('page')
      .filter({ hasText: /^\s*2\s*$/ })
      .click();
    await page.waitForURL((url) => url.searchParams.get('kumo_page') === '2');
    await widget.settled(['ready']);
    await page.waitForFunction(
      ([host, title]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
        ).shadowRoot
          .querySelector('[part~="result-title"]')
          ?.textContent?.trim() === title,
      [await widget.host.elementHandle(), second.organic.docs[0]!.title] as const,
    );
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      second.organic.docs.map((doc) => doc.title),
    );
    const current = widget.host.locator('[part~="page"][aria-current="page"]');
    assert.equal(((await current.textContent()) ?? '').trim(), '2');
    assert.equal(new URL(page.url()).searchParams.get('kumo_q'), COMMON_QUERY);
  });

  test('the sort select orders by newest as the API does', async () => {
    const { page, widget } = await suite.open('plain');
    await widget.search(COMMON_QUERY);
    const newest = await suite.site.search({ q: COMMON_QUERY, sort_by: 'last_modified desc' });
    const select = widget.part('sort');
    const values = await select
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    assert.equal(values.length, 4, `sort choices: ${JSON.stringify(values)}`);
    const newestValue = values.find((value) => /last_modified|newest|date/.test(value));
    assert.ok(newestValue, `a newest-first choice among ${JSON.stringify(values)}`);
    await select.selectOption(newestValue);
    await page.waitForURL((url) => url.searchParams.has('kumo_sort'));
    await page.waitForFunction(
      ([host, title]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
        ).shadowRoot
          .querySelector('[part~="result-title"]')
          ?.textContent?.trim() === title,
      [await widget.host.elementHandle(), newest.organic.docs[0]!.title] as const,
    );
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      newest.organic.docs.map((doc) => doc.title),
    );
  });

  test('a query without hits shows the empty state naming the query', async () => {
    const { widget } = await suite.open('plain');
    assert.equal(await widget.search('zyxwvut'), 'empty');
    const empty = widget.part('empty');
    await empty.waitFor({ state: 'visible' });
    assert.match((await empty.textContent()) ?? '', /zyxwvut/);
    assert.equal(await widget.part('result').count(), 0);
  });
});
