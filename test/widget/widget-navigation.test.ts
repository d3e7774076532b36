/**
 * The widget and the browser's navigation, in real Chromium against a real `kumo serve`: opening
 * a result goes to the page at once and the click endpoint records it (so the clicks sort puts
 * it first); the page URL holds the query and filters, a loaded URL searches at once, and
 * back/forward restore each state (docs/reference/widget.md, URL state).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pollUntil } from '../support/service-harness.js';
import { holdSearches } from '../support/widget-driver.js';
import { COMMON_QUERY } from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();

describe('widget clicks and URL state', () => {
  test('opening a result navigates to the page and the click endpoint records the click', async () => {
    const { page, widget, log } = await suite.open('plain');
    const before = await suite.site.search({ q: COMMON_QUERY, sort_by: 'click desc', number_per_page: 1 });
    await widget.search(COMMON_QUERY);
    // A result other than the one the clicks sort already puts first.
    const hrefs = await widget.resultHrefs();
    const target = hrefs.find((href) => href !== before.organic.docs[0]!.url)!;
    const index = hrefs.indexOf(target);
    await Promise.all([page.waitForURL(target), widget.part('result-title').nth(index).click()]);
    assert.equal(await page.locator('#landed').textContent(), new URL(target).pathname);
    const clicks = log.of('click');
    assert.equal(clicks.length, 1, 'one click report');
    assert.equal(clicks[0]!.url.searchParams.get('url'), target);
    assert.equal(clicks[0]!.q, COMMON_QUERY);
    await pollUntil('the click to count', async () => {
      const answer = await suite.site.search({ q: COMMON_QUERY, sort_by: 'click desc', number_per_page: 1 });
      return answer.organic.docs[0]!.url === target ? true : undefined;
    });
  });

  test('a middle click on a result is reported too, and the page stays', async () => {
    const { context, page, widget, log } = await suite.open('plain');
    await widget.search(COMMON_QUERY);
    const [target] = await widget.resultHrefs();
    const opened = context.waitForEvent('page');
    await widget.part('result-title').first().click({ button: 'middle' });
    await opened;
    await pollUntil('the middle click report', () =>
      log.of('click').some((request) => request.url.searchParams.get('url') === target) ? true : undefined,
    );
    assert.ok(page.url().startsWith(suite.host.origin), page.url());
  });

  test('searches and filters go into the URL; back and forward restore them', async () => {
    const { page, widget } = await suite.open('plain');
    const startUrl = page.url();
    await widget.search(COMMON_QUERY);
    await page.waitForURL((url) => url.searchParams.get('kumo_q') === COMMON_QUERY);
    const firstPage = await widget.resultTitles();
    await widget
      .part('page')
      .filter({ hasText: /^\s*2\s*$/ })
      .click();
    await page.waitForURL((url) => url.searchParams.get('kumo_page') === '2');
    await widget.settled(['ready']);
    await widget.search('basil');
    await page.waitForURL(
      (url) => url.searchParams.get('kumo_q') === 'basil' && !url.searchParams.has('kumo_page'),
    );

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('kumo_page') === '2');
    await page.waitForFunction(
      ([host]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { value: string } | null } }
        ).shadowRoot.querySelector('[part~="input"]')?.value === 'tomato',
      [await widget.host.elementHandle()] as const,
    );
    await widget.host.locator('[part~="page"][aria-current="page"]').filter({ hasText: '2' }).waitFor();

    await page.goBack();
    await page.waitForURL(
      (url) => url.searchParams.get('kumo_q') === COMMON_QUERY && !url.searchParams.has('kumo_page'),
    );
    await widget.host.locator('[part~="page"][aria-current="page"]').filter({ hasText: '1' }).waitFor();
    await page.waitForFunction(
      ([host, title]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
        ).shadowRoot
          .querySelector('[part~="result-title"]')
          ?.textContent?.trim() === title,
      [await widget.host.elementHandle(), firstPage[0]!.trim()] as const,
    );

    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get('kumo_page') === '2');
    await widget.host.locator('[part~="page"][aria-current="page"]').filter({ hasText: '2' }).waitFor();

    await page.goBack();
    await page.goBack();
    await page.waitForURL(startUrl);
    await page.waitForFunction(
      ([host]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { value: string } | null } }
        ).shadowRoot.querySelector('[part~="input"]')?.value === '',
      [await widget.host.elementHandle()] as const,
    );
    // The first entry had no search: back there, the widget is idle again, without results.
    await widget
      .settled(['idle'])
      .catch(async () =>
        assert.fail(
          `state ${await widget.host.getAttribute('data-state')} with ${await widget.part('result').count()} results`,
        ),
      );
    assert.equal(await widget.part('result').filter({ visible: true }).count(), 0, 'no result is shown');
  });

  test('going back to the entry without a search while one is loading leaves the widget idle, not busy', async () => {
    const { page, widget } = await suite.open('plain');
    const startUrl = page.url();
    const release = await holdSearches(page, () => true);
    await widget.input.fill(COMMON_QUERY);
    await widget.input.press('Enter');
    await widget.settled(['loading']);
    const panel = widget.host.locator('[role="region"]');
    assert.equal(await panel.getAttribute('aria-busy'), 'true');
    await page.goBack();
    await page.waitForURL(startUrl);
    release();
    assert.equal(await widget.settled(['idle']), 'idle');
    assert.equal(await panel.getAttribute('aria-busy'), null, 'the panel no longer says it is busy');
    assert.equal(await panel.isVisible(), false, 'the results panel is hidden');
  });

  test('typing alone pushes no history entry', async () => {
    const { page, widget } = await suite.open('plain');
    const length = await page.evaluate(
      () => (globalThis as unknown as { history: { length: number } }).history.length,
    );
    await widget.input.click();
    await widget.typeForSuggestions('tomat');
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { history: { length: number } }).history.length),
      length,
    );
    assert.equal(new URL(page.url()).searchParams.get('kumo_q'), null);
  });

  test('a shared URL with query, category and page searches at once', async () => {
    const expected = await suite.site.search({ q: COMMON_QUERY, category: 'Guides', page_number: 2 });
    const { widget } = await suite.open('plain', `kumo_q=${COMMON_QUERY}&kumo_category=Guides&kumo_page=2`);
    assert.equal(await widget.settled(), 'ready');
    assert.equal(await widget.input.inputValue(), COMMON_QUERY);
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.equal(
      await widget.part('tab').filter({ hasText: 'Guides' }).getAttribute('aria-selected'),
      'true',
    );
  });
});
