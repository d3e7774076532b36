/**
 * The hosted results page `/search/{contract}/{group}/{service}?q=...`, in real Chromium against
 * a real `kumo serve`: a product page with the service's name in its header and the widget in
 * page layout, its state in unprefixed URL parameters, Japanese by `?lang=ja`, a 404 page for an
 * unknown service, and no serious axe-core violation (docs/reference/widget.md, Hosted search page).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertNoSeriousViolations, seriousAxeViolations } from '../support/widget-driver.js';
import { COMMON_QUERY } from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();
const hosted = (path: string) => `${suite.site.kumoUrl}/search/${path}`;

describe('hosted results page', () => {
  test('shows its own header with the service’s name and the results of ?q=', async () => {
    const { page, widget, pageErrors } = await suite.openUrl(hosted(`1/1/1?q=${COMMON_QUERY}`));
    const expected = await suite.site.search({ q: COMMON_QUERY });
    assert.equal(await widget.settled(), 'ready');
    const header = page.locator('header').first();
    await header.waitFor({ state: 'visible' });
    assert.ok(
      ((await header.textContent()) ?? '').includes(suite.site.mainServiceName),
      await header.innerHTML(),
    );
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.equal(await widget.input.inputValue(), COMMON_QUERY);
    assert.ok((await page.locator('footer').count()) > 0, 'a footer');
    assert.deepEqual(pageErrors, [], 'no CSP report or script error');
  });

  test('paging and categories use unprefixed URL parameters; back restores', async () => {
    const { page, widget } = await suite.openUrl(hosted(`1/1/1?q=${COMMON_QUERY}`));
    await widget.settled();
    await widget
      .part('page')
      .filter({ hasText: /^\s*2\s*$/ })
      .click();
    await page.waitForURL(
      (url) => url.searchParams.get('page') === '2' && url.searchParams.get('q') === COMMON_QUERY,
    );
    await widget.part('tab').filter({ hasText: 'News' }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'News');
    const news = await suite.site.search({ q: COMMON_QUERY, category: 'News' });
    await page.waitForFunction(
      ([host, count]) =>
        (
          host as unknown as { shadowRoot: { querySelectorAll(s: string): { length: number } } }
        ).shadowRoot.querySelectorAll('[part~="result"]').length === count,
      [await widget.host.elementHandle(), news.organic.docs.length] as const,
    );
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && !url.searchParams.has('category'));
    await widget.host.locator('[part~="page"][aria-current="page"]').filter({ hasText: '2' }).waitFor();
  });

  test('page layout: the drill-down sits beside the results on a wide screen', async () => {
    const { widget } = await suite.openUrl(hosted(`1/1/1?q=${COMMON_QUERY}`), {
      viewport: { width: 1280, height: 900 },
    });
    await widget.settled();
    const facets = await widget.part('facets').boundingBox();
    const results = await widget.part('results').boundingBox();
    assert.ok(facets && results, 'facets and results are shown');
    const beside = facets.x + facets.width <= results.x + 1 || results.x + results.width <= facets.x + 1;
    assert.ok(beside, `facets ${JSON.stringify(facets)} results ${JSON.stringify(results)}`);
  });

  test('?lang=ja gives Japanese texts; a 360 px phone needs no sideways scrolling', async () => {
    const { page, widget } = await suite.openUrl(hosted('1/1/1?q=トマト&lang=ja'), {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    assert.equal(await widget.settled(), 'ready');
    assert.match(await widget.statusText(), /「トマト」の検索結果/);
    assert.equal(await page.locator('html').getAttribute('lang'), 'ja');
    const width = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
          .documentElement.scrollWidth,
    );
    assert.ok(width <= 360, `scroll width ${width}`);
  });

  test('axe-core finds no serious violation on the hosted page, with and without results', async () => {
    for (const query of [`q=${COMMON_QUERY}`, '']) {
      const { page, widget } = await suite.openUrl(hosted(`1/1/1?${query}`));
      if (query !== '') assert.equal(await widget.settled(), 'ready');
      assertNoSeriousViolations(await seriousAxeViolations(page), `the hosted page (${query || 'no query'})`);
    }
  });

  test('an unknown service answers a 404 HTML page', async () => {
    const { page } = await suite.browser.newPage();
    const response = await page.goto(hosted('1/1/999?q=tomato'));
    assert.equal(response?.status(), 404);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
    assert.ok(((await page.locator('body').textContent()) ?? '').trim().length > 0);
  });
});
