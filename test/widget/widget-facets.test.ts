/**
 * Narrowing and guidance in the widget, in real Chromium against a real `kumo serve`: category
 * tabs, the drill-down tree with its counts, did-you-mean in both forms, and related keywords
 * that search when clicked (docs/reference/widget.md, What a visitor gets, Did-you-mean, Related
 * keywords).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Widget } from '../support/widget-driver.js';
import { COMMON_QUERY, MISSPELLED_QUERY, RARE_SPELLING } from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();

/** Waits until the status line names `hits` results (the count as a word of its own). */
async function waitForHits(page: Page, widget: Widget, hits: number): Promise<void> {
  await page.waitForFunction(
    ([host, count]) => {
      const root = (
        host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
      ).shadowRoot;
      return new RegExp(`(^|\\D)${count}(\\D|$)`).test(
        root.querySelector('[part~="status"]')?.textContent ?? '',
      );
    },
    [await widget.host.elementHandle(), hits] as const,
  );
}

/** `label (count)` of each facet button shown, as the visitor reads them. */
async function facetsShown(widget: Widget): Promise<[string, number][]> {
  const facets: [string, number][] = [];
  for (const facet of await widget.part('facet').all()) {
    const count = ((await facet.locator('[part~="facet-count"]').textContent()) ?? '').replace(/\D/g, '');
    const text = ((await facet.textContent()) ?? '').trim();
    const label = text.replace(/[\s(（]*[\d,]+[)）]?\s*$/, '').trim();
    facets.push([label, Number(count)]);
  }
  return facets;
}

describe('widget categories, drill-down, did-you-mean, related keywords', () => {
  test('category tabs: All and the categories with hits; a tab narrows the results and the URL', async () => {
    const { page, widget } = await suite.open('plain');
    const all = await suite.site.search({ q: COMMON_QUERY });
    const news = await suite.site.search({ q: COMMON_QUERY, category: 'News' });
    await widget.search(COMMON_QUERY);
    assert.equal(await widget.part('tabs').getAttribute('role'), 'tablist');
    const tabs = (await widget.part('tab').allTextContents()).map((text) => text.trim());
    assert.equal(tabs.length, all.category.items.length + 1, JSON.stringify(tabs));
    assert.deepEqual(tabs.slice(1), all.category.items);
    assert.equal(await widget.part('tab').first().getAttribute('aria-selected'), 'true');

    await widget.part('tab').filter({ hasText: 'News' }).click();
    await page.waitForURL((url) => url.searchParams.get('kumo_category') === 'News');
    await waitForHits(page, widget, news.organic.hits);
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      news.organic.docs.map((doc) => doc.title),
    );
    assert.equal(await widget.part('tab').filter({ hasText: 'News' }).getAttribute('aria-selected'), 'true');
    assert.equal(await widget.part('tab').first().getAttribute('aria-selected'), 'false');
  });

  test('drill-down shows counts, narrows on click, opens the children, and un-narrows on a second click', async () => {
    const { page, widget } = await suite.open('plain');
    const all = await suite.site.search({ q: COMMON_QUERY });
    await widget.search(COMMON_QUERY);
    const roots = all.facet_drilldown_roots.map((root) => root.facet_drilldowns[0]!);
    assert.deepEqual(
      await facetsShown(widget),
      roots.map((node) => [node.title, node.count]),
    );
    const guides = roots.find((node) => node.title === 'guides')!;
    const guideFacet = widget.part('facet').filter({ hasText: 'guides' });
    assert.equal(await guideFacet.getAttribute('aria-pressed'), 'false');
    await guideFacet.click();
    await waitForHits(page, widget, guides.count);
    await page.waitForURL((url) => url.searchParams.getAll('kumo_drilldown').includes(guides.path));
    assert.equal(
      await widget.part('facet').filter({ hasText: 'guides' }).getAttribute('aria-pressed'),
      'true',
    );
    // The opened level shows its children with their counts.
    const shown = new Map(await facetsShown(widget));
    for (const child of guides.children ?? []) assert.equal(shown.get(child.title), child.count, child.title);

    const garden = (guides.children ?? []).find((child) => child.title === 'garden')!;
    await widget.part('facet').filter({ hasText: 'garden' }).click();
    await waitForHits(page, widget, garden.count);
    const hrefs = await widget.resultHrefs();
    assert.ok(
      hrefs.length === garden.count && hrefs.every((href) => href.includes('/guides/garden/')),
      JSON.stringify(hrefs),
    );

    await widget.part('facet').filter({ hasText: 'garden' }).click();
    await page.waitForFunction(
      ([host, count]) => {
        const root = (
          host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
        ).shadowRoot;
        return !new RegExp(`(^|\\D)${count}(\\D|$)`).test(
          root.querySelector('[part~="status"]')?.textContent ?? '',
        );
      },
      [await widget.host.elementHandle(), garden.count] as const,
    );
    assert.equal(
      await widget.part('facet').filter({ hasText: 'garden' }).getAttribute('aria-pressed'),
      'false',
    );
  });

  test('a misspelling without hits shows the correction’s results and offers the original', async () => {
    const { page, widget } = await suite.open('plain');
    const corrected = await suite.site.search({ q: COMMON_QUERY });
    await widget.input.fill(MISSPELLED_QUERY);
    await widget.input.press('Enter');
    await waitForHits(page, widget, corrected.organic.hits);
    const correction = widget.part('correction');
    await correction.waitFor({ state: 'visible' });
    const line = (await correction.textContent()) ?? '';
    assert.match(line, new RegExp(COMMON_QUERY));
    assert.match(line, new RegExp(MISSPELLED_QUERY));
    assert.equal(await widget.part('result').count(), 10);
    // "Search instead for tomatto": the original, without correction, finds nothing.
    await widget.part('correction-link').filter({ hasText: MISSPELLED_QUERY }).click();
    assert.equal(await widget.settled(['empty']), 'empty');
    assert.match((await widget.part('empty').textContent()) ?? '', new RegExp(MISSPELLED_QUERY));
  });

  test('a rare spelling with hits shows them and asks “did you mean”, which searches the correction', async () => {
    const { page, widget } = await suite.open('plain');
    const corrected = await suite.site.search({ q: COMMON_QUERY });
    await widget.search(RARE_SPELLING);
    assert.equal(await widget.part('result').count(), 2, 'its page and the page with its form `tomatoes`');
    const link = widget.part('correction-link');
    assert.equal(((await link.textContent()) ?? '').trim(), COMMON_QUERY);
    await link.click();
    await waitForHits(page, widget, corrected.organic.hits);
    assert.equal(await widget.input.inputValue(), COMMON_QUERY);
  });

  test('related keywords show as links that search for the keyword', async () => {
    const { page, widget, log } = await suite.open('plain');
    await widget.search(COMMON_QUERY);
    const links = widget.part('related-link');
    await links.first().waitFor({ state: 'visible' });
    assert.ok(log.of('related_keywords').some((request) => request.q === COMMON_QUERY));
    const word = ((await links.first().textContent()) ?? '').trim();
    assert.ok(word.length > 0);
    await links.first().click();
    await page.waitForURL((url) => url.searchParams.get('kumo_q') === word);
    await widget.settled();
    assert.equal(await widget.input.inputValue(), word);
    assert.match(await widget.statusText(), new RegExp(word));
  });
});
