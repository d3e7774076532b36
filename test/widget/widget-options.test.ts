/**
 * What a site owner configures, as a visitor sees it, in real Chromium against a real `kumo serve`:
 * texts, placeholder and language; results per page; a header box sending to a results page and a
 * panel rendered elsewhere; where the widget mounts, also from page script; the error state of a
 * bad option; suggestions turned off; theming through custom properties and `::part`
 * (docs/reference/widget.md, Options, Theming).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { Widget } from '../support/widget-driver.js';
import { COMMON_QUERY } from '../support/widget-fixture-docs.js';
import { pageHtml, snippet } from '../support/widget-host-page.js';
import type { WidgetSite } from '../support/widget-site.js';
import { widgetSuite } from '../support/widget-suite.js';

/** A host page holding `#kumo-search` and the snippet with `attributes`, then `after`. */
const boxPage =
  (attributes: string, after = '', head = '', lang = 'en') =>
  (site: WidgetSite) => ({
    html: pageHtml(
      lang,
      'Garden club',
      head,
      `<div id="kumo-search"></div>\n${snippet(site.kumoUrl, site.services.main, attributes)}\n${after}`,
    ),
  });

/** Set by the page's own script once the document is loaded, after the widget's script ran. */
const LATER_SCRIPT =
  "<script>document.addEventListener('DOMContentLoaded', () => { document.body.dataset.later = 'ran'; });</script>";

const THEME_CSS =
  '#kumo-search { --kumo-accent: rgb(200, 10, 20); --kumo-font-size: 20px; --kumo-radius: 10px; ' +
  '--kumo-font: Georgia, serif; } .kumo-search::part(result-title) { color: rgb(1, 2, 3); }';

const suite = widgetSuite({
  texts: boxPage(
    ` data-texts='{"placeholder":"Find a garden page","submit":"Go","status":"{count} pages match {q}"}'`,
  ),
  'lang-ja': boxPage(' data-lang="ja" data-placeholder="庭のページを探す"'),
  'per-page': boxPage(' data-per-page="5"'),
  header: boxPage(' data-results-url="/results.html"'),
  results: boxPage(' data-param-prefix=""'),
  'results-target': boxPage(
    ' data-results-target="#results-here"',
    '<p id="between">Opening hours and news.</p>\n<aside id="results-here"></aside>',
  ),
  target: boxPage(' data-target="#elsewhere"', '<div id="elsewhere"></div>'),
  mount: (site) => ({
    html: pageHtml(
      'en',
      'Mounted by script',
      '',
      `<div id="custom-box"></div>
<script src="${site.kumoUrl}/widget/v1/kumo-search.js" defer></script>
<script>document.addEventListener('DOMContentLoaded', () => {
  KumoSearch.mount(document.getElementById('custom-box'), { service: '1/1/1', perPage: 3, texts: { submit: 'Find' } });
});</script>`,
    ),
  }),
  'bad-service': (site) => ({
    html: pageHtml(
      'en',
      'Mistyped service',
      '',
      `<div id="kumo-search"></div>\n${snippet(site.kumoUrl, '1/x')}
<div id="second"></div>\n${snippet(site.kumoUrl, site.services.main, ' data-target="#second"')}\n${LATER_SCRIPT}`,
    ),
  }),
  'bad-option': boxPage(' data-per-page="500"', LATER_SCRIPT),
  'no-suggest': boxPage(' data-suggest-count="0"'),
  themed: boxPage('', '', `<style>${THEME_CSS}</style>`),
});

const trimmed = async (locator: Locator) => ((await locator.textContent()) ?? '').trim();

/** A computed style property of the element. */
const computed = (locator: Locator, property: string) =>
  locator.evaluate(
    (element, name) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(
        element,
      )[name] ?? '',
    property,
  );

const titlesOf = async (widget: Widget) => (await widget.resultTitles()).map((title) => title.trim());

describe('widget options', () => {
  test('data-texts overrides the placeholder, the button and the status line; other texts keep their defaults', async () => {
    const { widget } = await suite.open('texts');
    const hits = (await suite.site.search({ q: COMMON_QUERY })).organic.hits;
    assert.equal(await widget.input.getAttribute('placeholder'), 'Find a garden page');
    assert.equal(await trimmed(widget.part('submit')), 'Go');
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    assert.equal(await widget.statusText(), `${hits} pages match ${COMMON_QUERY}`);
    assert.equal(await trimmed(widget.part('label')), 'Search this site');
    assert.equal(await widget.part('clear').getAttribute('aria-label'), 'Clear the search box');
    assert.equal(
      await widget.host.locator('[part~="page"][part~="next"]').getAttribute('aria-label'),
      'Next',
    );
  });

  test('data-lang="ja" on an English page gives Japanese texts; data-placeholder sets the placeholder', async () => {
    const { widget } = await suite.open('lang-ja');
    const hits = (await suite.site.search({ q: COMMON_QUERY })).organic.hits;
    assert.equal(await widget.input.getAttribute('placeholder'), '庭のページを探す');
    assert.equal(await trimmed(widget.part('submit')), '検索');
    assert.equal(await trimmed(widget.part('label')), 'サイト内検索');
    assert.equal(await widget.part('root').getAttribute('lang'), 'ja');
    await widget.search(COMMON_QUERY);
    assert.equal(await widget.statusText(), `「${COMMON_QUERY}」の検索結果 ${hits} 件`);
  });

  test('data-per-page="5": five results a page, a pager over all the hits, page 3 holds the rest', async () => {
    const { page, widget, log } = await suite.open('per-page');
    const first = await suite.site.search({ q: COMMON_QUERY, number_per_page: 5 });
    const pages = Math.ceil(first.organic.hits / 5);
    assert.ok(pages >= 3, `hits: ${first.organic.hits}`);
    await widget.search(COMMON_QUERY);
    assert.deepEqual(
      await titlesOf(widget),
      first.organic.docs.map((doc) => doc.title),
    );
    assert.equal(await widget.part('result').count(), 5);
    assert.equal(log.of('search').at(-1)?.url.searchParams.get('number_per_page'), '5');
    await widget.part('pager').waitFor({ state: 'visible' });
    const numbers = widget.host.locator('[part="page"]');
    assert.deepEqual(
      (await numbers.allTextContents()).map((text) => text.trim()),
      Array.from({ length: pages }, (_, index) => String(index + 1)),
    );
    const last = await suite.site.search({ q: COMMON_QUERY, number_per_page: 5, page_number: pages });
    await numbers.last().click();
    await page.waitForURL((url) => url.searchParams.get('kumo_page') === String(pages));
    await widget.waitForFirstTitle(last.organic.docs[0]!.title);
    assert.deepEqual(
      await titlesOf(widget),
      last.organic.docs.map((doc) => doc.title),
    );
  });

  test('data-results-url: the header box sends to the results page, which shows the results', async () => {
    const { page, widget } = await suite.open('header');
    const expected = await suite.site.search({ q: COMMON_QUERY });
    await widget.input.fill(COMMON_QUERY);
    await Promise.all([
      page.waitForURL(`${suite.host.origin}/results.html?q=${COMMON_QUERY}`),
      widget.input.press('Enter'),
    ]);
    const results = new Widget(page);
    assert.equal(await results.settled(), 'ready');
    assert.equal(await results.input.inputValue(), COMMON_QUERY);
    assert.deepEqual(
      await titlesOf(results),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.match(await results.statusText(), new RegExp(`\\b${expected.organic.hits}\\b`));
  });

  test('data-results-target: the results panel renders in the named element, not under the box', async () => {
    const { page, widget } = await suite.open('results-target');
    const target = new Widget(page, 1);
    assert.equal(await target.host.getAttribute('id'), 'results-here');
    await widget.input.fill(COMMON_QUERY);
    await widget.input.press('Enter');
    assert.equal(await target.settled(), 'ready');
    assert.equal(await target.part('result').count(), 10);
    assert.equal(await widget.part('panel').count(), 0, 'no panel under the box');
    const between = await page.locator('#between').boundingBox();
    const firstResult = await target.part('result').first().boundingBox();
    assert.ok(between && firstResult && firstResult.y > between.y, 'the results are where the page put them');
  });

  test('data-target mounts in the named element; #kumo-search is left alone', async () => {
    const { page, widget } = await suite.open('target');
    assert.equal(await widget.host.getAttribute('id'), 'elsewhere');
    assert.equal(await page.locator('.kumo-search').count(), 1);
    assert.equal(
      await page
        .locator('#kumo-search')
        .evaluate((element) => (element as unknown as { shadowRoot: unknown }).shadowRoot),
      null,
    );
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
  });

  test('KumoSearch.mount from page script mounts a widget with its options, and it searches', async () => {
    const { page, widget, pageErrors } = await suite.open('mount');
    const expected = await suite.site.search({ q: COMMON_QUERY, number_per_page: 3 });
    assert.equal(await widget.host.getAttribute('id'), 'custom-box');
    assert.equal(
      await page.locator('.kumo-search').count(),
      1,
      'the tag without data-service mounts nothing',
    );
    assert.equal(await trimmed(widget.part('submit')), 'Find');
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    assert.deepEqual(
      await titlesOf(widget),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.deepEqual(pageErrors, []);
  });

  test('a bad data-service shows the config error naming it; the page’s other widget and scripts run', async () => {
    const { page, widget, pageErrors } = await suite.open('bad-service');
    assert.equal(await widget.settled(['error']), 'error');
    const error = widget.part('error');
    assert.equal(await error.getAttribute('data-error'), 'config');
    const message = await trimmed(error);
    assert.ok(message.includes('data-service') && message.includes('1/x'), message);
    assert.equal(await page.locator('body').getAttribute('data-later'), 'ran');
    assert.equal(await new Widget(page, 1).search(COMMON_QUERY), 'ready');
    assert.deepEqual(pageErrors, []);
  });

  test('data-per-page="500" shows the config error naming the attribute and the range', async () => {
    const { page, widget, log, pageErrors } = await suite.open('bad-option');
    assert.equal(await widget.settled(['error']), 'error');
    const error = widget.part('error');
    assert.equal(await error.getAttribute('data-error'), 'config');
    const message = await trimmed(error);
    assert.ok(/data-per-page/.test(message) && /500/.test(message) && /1 to 50/.test(message), message);
    assert.equal(await page.locator('body').getAttribute('data-later'), 'ran');
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(log.requests, [], 'a misconfigured widget calls nothing');
  });

  test('data-suggest-count="0": typing sends no suggest request and opens no list; Enter still searches', async () => {
    const { page, widget, log } = await suite.open('no-suggest');
    await widget.input.click();
    await widget.input.pressSequentially('tom', { delay: 30 });
    await page.waitForTimeout(400);
    assert.deepEqual(log.of('suggest'), []);
    assert.equal(await widget.part('listbox').isVisible(), false);
    assert.equal(await widget.input.getAttribute('aria-expanded'), 'false');
    await widget.input.pressSequentially('ato');
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    assert.deepEqual(log.of('suggest'), []);
  });

  test('theming: the page’s custom properties and ::part rule style the matching parts', async () => {
    const { widget: plain } = await suite.open('plain', `kumo_q=${COMMON_QUERY}`);
    await plain.settled(['ready']);
    const plainTitleColor = await computed(plain.part('result-title').first(), 'color');
    const plainSubmit = await computed(plain.part('submit'), 'backgroundColor');

    const { widget } = await suite.open('themed', `kumo_q=${COMMON_QUERY}`);
    assert.equal(await widget.settled(['ready']), 'ready');
    const submit = widget.part('submit');
    assert.equal(await computed(submit, 'backgroundColor'), 'rgb(200, 10, 20)');
    assert.notEqual(plainSubmit, 'rgb(200, 10, 20)');
    assert.equal(
      await computed(widget.host.locator('[part~="page"][aria-current="page"]'), 'backgroundColor'),
      'rgb(200, 10, 20)',
    );
    assert.equal(await computed(widget.input, 'fontSize'), '20px');
    assert.match(await computed(widget.input, 'fontFamily'), /Georgia/);
    // Sizes follow the widget's font size: the title is 1.125em of it.
    assert.equal(await computed(widget.part('result-title').first(), 'fontSize'), '22.5px');
    assert.equal(await computed(widget.part('listbox'), 'borderTopLeftRadius'), '10px');
    assert.equal(await computed(submit, 'borderTopLeftRadius'), '8px');
    assert.equal(await computed(widget.part('result-title').first(), 'color'), 'rgb(1, 2, 3)');
    assert.notEqual(plainTitleColor, 'rgb(1, 2, 3)');
  });
});
