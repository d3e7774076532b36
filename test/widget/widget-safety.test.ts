/**
 * The widget on a stranger's page, in real Chromium against a real `kumo serve`: markup in a
 * document's title and text shows as text and runs nothing; the host's aggressive CSS does not
 * break it; an origin the service does not allow gets the error state; a CSP that forbids
 * connections to Kumo falls back to JSONP; two widgets live on one page; one global name
 * (docs/reference/widget.md, Parts, Transports).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Widget } from '../support/widget-driver.js';
import {
  BAKERY_QUERY,
  COMMON_QUERY,
  HOSTILE_QUERY,
  HOSTILE_SCRIPT,
  HOSTILE_TITLE,
  SCRIPT_URL,
  SCRIPT_URL_QUERY,
} from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();

describe('widget safety on the host page', () => {
  test('a hostile title and snippet show as text, with highlights, and run nothing', async () => {
    const { page, widget, pageErrors, failedLoads } = await suite.open('plain');
    const imageLoads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/x') imageLoads.push(request.url());
    });
    await widget.search(HOSTILE_QUERY);
    const title = widget.part('result-title').first();
    assert.equal(((await title.textContent()) ?? '').trim(), HOSTILE_TITLE);
    assert.deepEqual(await title.locator('mark').allTextContents(), [HOSTILE_QUERY]);
    const snippet = (await widget.part('result-snippet').first().textContent()) ?? '';
    assert.ok(snippet.includes(HOSTILE_SCRIPT), snippet);
    // Nothing the API said became an element: no img, no script in the widget.
    assert.equal(await widget.host.locator('img, script, iframe').count(), 0);
    await page.waitForTimeout(200);
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
      undefined,
    );
    assert.deepEqual(imageLoads, [], 'the <img src=x> of the title was never loaded');
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(failedLoads, []);
  });

  test('a result whose address is not http(s) is no link a click could run', async () => {
    const { page, widget, pageErrors } = await suite.open('plain');
    await widget.search(SCRIPT_URL_QUERY);
    const title = widget.part('result-title').first();
    assert.equal(await title.getAttribute('href'), '#');
    assert.ok(((await widget.part('result-url').first().textContent()) ?? '').includes(SCRIPT_URL));
    await title.click();
    await page.waitForTimeout(200);
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
      undefined,
    );
    assert.deepEqual(pageErrors, []);
  });

  test('the host’s aggressive CSS leaves the widget usable: sizes, fonts and results intact', async () => {
    const { widget } = await suite.open('aggressive');
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    const box = await widget.input.boundingBox();
    assert.ok(box && box.height >= 24 && box.height <= 80, `input box ${JSON.stringify(box)}`);
    assert.ok(box.width >= 150, `input box ${JSON.stringify(box)}`);
    const fontPx = (locator: typeof widget.input) =>
      locator.evaluate((element) => {
        const scope = globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } };
        return Number.parseFloat(scope.getComputedStyle(element).fontSize);
      });
    const titleFont = await fontPx(widget.part('result-title').first());
    const inputFont = await fontPx(widget.input);
    assert.ok(titleFont >= 12 && titleFont <= 28, `result title font ${titleFont}px`);
    assert.ok(inputFont >= 12 && inputFont <= 28, `input font ${inputFont}px`);
    const results = widget.part('result');
    assert.equal(await results.count(), 10);
    for (const result of (await results.all()).slice(0, 3)) {
      const shape = await result.boundingBox();
      assert.ok(shape && shape.height > 10 && shape.height < 400, `result ${JSON.stringify(shape)}`);
      assert.ok(await result.isVisible());
    }
    // The results are listed one under another, not run together on one line.
    const first = await results.nth(0).boundingBox();
    const second = await results.nth(1).boundingBox();
    assert.ok(
      first && second && second.y >= first.y + first.height - 1,
      `${JSON.stringify([first, second])}`,
    );
  });

  test('an origin the service does not allow gets the documented error state, not a broken page', async () => {
    const { widget, pageErrors, failedLoads } = await suite.open('refused');
    await widget.input.fill(BAKERY_QUERY);
    await widget.input.press('Enter');
    assert.equal(await widget.settled(['error']), 'error');
    const error = widget.part('error');
    await error.waitFor({ state: 'visible' });
    assert.equal(await error.getAttribute('data-error'), 'origin');
    assert.match((await error.textContent()) ?? '', /not allowed/i);
    assert.equal(await widget.part('result').count(), 0);
    assert.deepEqual(pageErrors, []);
    assert.ok(
      failedLoads.every((load) => load.startsWith('403 ')),
      `only the refused API calls fail: ${failedLoads.join(', ')}`,
    );
  });

  test('a CSP without Kumo in connect-src: the widget falls back to JSONP and shows results', async () => {
    const { widget, log } = await suite.open('csp');
    const expected = await suite.site.search({ q: COMMON_QUERY });
    assert.equal(await widget.search(COMMON_QUERY), 'ready');
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    const searches = log.of('search').filter((request) => request.q === COMMON_QUERY);
    assert.ok(
      searches.some((request) => request.url.searchParams.has('callback')),
      `a JSONP search: ${searches.map((request) => request.url.search).join(' ')}`,
    );
    assert.ok((await widget.part('mark').count()) > 0, 'highlights render under the CSP');
  });

  test('two widgets for two services work independently on one page', async () => {
    const { page } = await suite.open('two');
    const garden = new Widget(page, 0);
    const bakery = new Widget(page, 1);
    await bakery.host.waitFor({ state: 'attached' });
    assert.equal(await page.locator('#garden .kumo-search').count(), 1, 'the first mounts in #kumo-search');
    assert.equal(await page.locator('#bakery .kumo-search').count(), 1, 'the second mounts after its script');

    const expected = await suite.site.search({ q: BAKERY_QUERY }, suite.site.services.bakery);
    await garden.search(COMMON_QUERY);
    await bakery.search(BAKERY_QUERY);
    assert.deepEqual(
      (await bakery.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    assert.equal(await garden.input.inputValue(), COMMON_QUERY);
    assert.equal(await garden.part('result').count(), 10, 'the first widget kept its results');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('kumo_q'), COMMON_QUERY);
    assert.equal(
      url.searchParams.get('kumo2_q'),
      BAKERY_QUERY,
      'the second widget takes the next free prefix',
    );

    // Back restores each widget from its own parameters.
    await page.goBack();
    await bakery.part('result').first().waitFor({ state: 'hidden' });
    assert.equal(await garden.part('result').count(), 10, 'the first widget still shows its results');

    // Suggestions of one box open only its own list.
    await bakery.input.fill('');
    await bakery.typeForSuggestions('sour');
    assert.equal(await garden.part('option').filter({ visible: true }).count(), 0);
  });

  test('the widget adds one global name, KumoSearch', async () => {
    const { page } = await suite.open('plain');
    const globals = () =>
      page.evaluate(() =>
        Object.getOwnPropertyNames(globalThis).filter((name) => !name.startsWith('__playwright')),
      );
    const added = await globals();
    const { page: blank } = await suite.browser.newPage();
    await blank.goto(`${suite.host.origin}/nothing-here`);
    const baseline = new Set(await blank.evaluate(() => Object.getOwnPropertyNames(globalThis)));
    assert.deepEqual(
      added.filter((name) => !baseline.has(name)),
      ['KumoSearch'],
    );
  });
});
