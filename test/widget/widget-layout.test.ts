/**
 * No layout shift when results appear, and stable geometry, in real Chromium against a real
 * `kumo serve`: the search box stays where it is while suggestions open, results appear and pages
 * change; the suggestion list overlays the page instead of pushing it down; the panel keeps its
 * height while the next page loads; the browser's own layout-shift entries name no element of the
 * widget; long words fit a 360 px phone (docs/reference/widget.md, What a visitor gets).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { COMMON_QUERY, OVERLONG_QUERY, OVERLONG_TITLE } from '../support/widget-fixture-docs.js';
import { pageHtml, snippet } from '../support/widget-host-page.js';
import { holdSearches } from '../support/widget-driver.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite({
  // The widget with the host's own content right after it.
  below: (site) => ({
    html: pageHtml(
      'en',
      'Garden club',
      '',
      `<div id="kumo-search"></div>\n${snippet(site.kumoUrl, site.services.main)}
<p id="below">Club meetings are on the first Saturday of each month, in the community garden.</p>`,
    ),
  }),
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box in document coordinates (so scrolling does not count as moving). */
const documentBox = (locator: Locator): Promise<Box> =>
  locator.evaluate((element) => {
    const rect = (element as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
    const scope = globalThis as unknown as { scrollX: number; scrollY: number };
    return { x: rect.x + scope.scrollX, y: rect.y + scope.scrollY, width: rect.width, height: rect.height };
  });

interface Shift {
  value: number;
  hadRecentInput: boolean;
  /** What moved: `widget box`, `widget` (another element of it), `page <tag>#<id>`, or `removed`. */
  sources: string[];
}

/**
 * Starts collecting the page's layout-shift entries, those buffered since it loaded included.
 * Chromium names no node inside a shadow root (the attribution's node is null there), so a source
 * without a node is placed by its rectangles: over the search form it is the box, over the
 * widget's host another element of the widget.
 */
const observeShifts = (page: Page) =>
  page.evaluate(() => {
    interface Rect {
      left: number;
      top: number;
      right: number;
      bottom: number;
      width: number;
    }
    interface ShiftElement {
      id: string;
      nodeName: string;
      closest(selector: string): unknown;
      getBoundingClientRect(): Rect;
      shadowRoot: { querySelector(selector: string): ShiftElement | null } | null;
    }
    interface ShiftNode {
      nodeType: number;
      nodeName: string;
      parentElement: ShiftElement | null;
    }
    interface Entry {
      value: number;
      hadRecentInput: boolean;
      sources: { node: ShiftNode | null; previousRect: Rect; currentRect: Rect }[];
    }
    const scope = globalThis as unknown as {
      __shifts: Shift[];
      document: { querySelectorAll(selector: string): ArrayLike<ShiftElement> };
      PerformanceObserver: new (callback: (list: { getEntries(): Entry[] }) => void) => {
        observe(options: object): void;
      };
    };
    const overlaps = (a: Rect, b: Rect) =>
      a.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const describe = (source: Entry['sources'][number]): string => {
      const { node } = source;
      if (node !== null) {
        const element = (node.nodeType === 1 ? node : node.parentElement) as ShiftElement | null;
        if (element?.closest('.kumo-search')) return 'widget host';
        return `page ${element?.nodeName ?? node.nodeName}${element?.id ? `#${element.id}` : ''}`;
      }
      const hosts = Array.from(scope.document.querySelectorAll('.kumo-search'));
      const within = (rect: Rect | undefined) =>
        rect !== undefined && (overlaps(source.previousRect, rect) || overlaps(source.currentRect, rect));
      if (
        hosts.some((host) =>
          within(host.shadowRoot?.querySelector('[part~="form"]')?.getBoundingClientRect()),
        )
      )
        return 'widget box';
      if (hosts.some((host) => within(host.getBoundingClientRect()))) return 'widget';
      return 'removed';
    };
    scope.__shifts = [];
    new scope.PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        scope.__shifts.push({
          value: entry.value,
          hadRecentInput: entry.hadRecentInput,
          sources: entry.sources.map(describe),
        });
    }).observe({ type: 'layout-shift', buffered: true });
  });

/** The collected shifts without recent input (the ones a visitor did not cause). */
async function unexpectedShifts(page: Page): Promise<Shift[]> {
  // Entries are delivered on the next frames.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  const shifts = await page.evaluate(() => (globalThis as unknown as { __shifts: Shift[] }).__shifts);
  return shifts.filter((shift) => !shift.hadRecentInput);
}

/** The total layout-shift score of those moving an element of the widget. */
const widgetScore = (shifts: readonly Shift[]) =>
  shifts
    .filter((shift) => shift.sources.some((source) => source.startsWith('widget')))
    .reduce((sum, shift) => sum + shift.value, 0);

const overflowing = (page: Page, widthPx: number) =>
  page.evaluate((limit) => {
    interface Element {
      tagName: string;
      textContent: string | null;
      shadowRoot: Root | null;
      getAttribute(name: string): string | null;
      getBoundingClientRect(): { right: number; width: number };
    }
    interface Root {
      querySelectorAll(selector: string): ArrayLike<Element>;
    }
    const scope = globalThis as unknown as { document: Root & { documentElement: { scrollWidth: number } } };
    const found: string[] = [];
    const walk = (root: Root) => {
      for (const element of Array.from(root.querySelectorAll('*'))) {
        const rect = element.getBoundingClientRect();
        if (rect.width > 0 && rect.right > limit + 0.5)
          found.push(
            `${element.tagName} ${element.getAttribute('part') ?? ''} to ${Math.round(rect.right)} px: ` +
              (element.textContent ?? '').trim().slice(0, 30),
          );
        if (element.shadowRoot !== null) walk(element.shadowRoot);
      }
    };
    walk(scope.document);
    const scrollWidth = scope.document.documentElement.scrollWidth;
    if (scrollWidth > limit) found.push(`document scroll width ${scrollWidth} px`);
    return found;
  }, widthPx);

describe('widget layout', () => {
  test('the search box stays put while suggestions open, results appear and the page changes', async () => {
    const { widget } = await suite.open('below');
    const second = await suite.site.search({ q: COMMON_QUERY, page_number: 2 });
    await widget.input.click();
    // The box is the form; the input inside it narrows when the clear button appears, in place.
    const form = widget.part('form');
    const before = await documentBox(form);
    const inputAt = async () => {
      const { x, y, height } = await documentBox(widget.input);
      return { x, y, height };
    };
    const inputBefore = await inputAt();
    const submitBefore = await documentBox(widget.part('submit'));
    await widget.typeForSuggestions('tom');
    assert.deepEqual(await documentBox(form), before, 'suggestions open');
    assert.deepEqual(await inputAt(), inputBefore, 'suggestions open: the input');
    await widget.search(COMMON_QUERY);
    assert.deepEqual(await documentBox(form), before, 'results appeared');
    assert.deepEqual(await inputAt(), inputBefore, 'results appeared: the input');
    await widget.host
      .locator('[part="page"]')
      .filter({ hasText: /^\s*2\s*$/ })
      .click();
    await widget.waitForFirstTitle(second.organic.docs[0]!.title);
    assert.deepEqual(await documentBox(form), before, 'page 2');
    assert.deepEqual(await inputAt(), inputBefore, 'page 2: the input');
    assert.deepEqual(await documentBox(widget.part('submit')), submitBefore, 'the button too');
  });

  test('the suggestion list overlays: the page’s content after the widget does not move', async () => {
    const { page, widget } = await suite.open('below');
    const below = page.locator('#below');
    const before = await documentBox(below);
    await widget.input.click();
    await widget.typeForSuggestions('tom');
    const listbox = widget.part('listbox');
    const list = await documentBox(listbox);
    assert.ok(list.y + list.height > before.y, `the list reaches over the content: ${JSON.stringify(list)}`);
    assert.deepEqual(await documentBox(below), before);
    assert.equal(await widget.part('panel').isVisible(), false);
  });

  test('while the next page loads, the results panel keeps at least its height', async () => {
    const { page, widget } = await suite.open('below');
    const second = await suite.site.search({ q: COMMON_QUERY, page_number: 2 });
    await widget.search(COMMON_QUERY);
    const panel = widget.part('panel');
    const firstHeight = (await documentBox(panel)).height;
    const release = await holdSearches(page, (url) => url.searchParams.get('page_number') === '2');
    // Every frame during the load, the panel's height.
    await panel.evaluate((element) => {
      const scope = globalThis as unknown as {
        __heights: number[];
        requestAnimationFrame(callback: () => void): void;
      };
      const panelElement = element as unknown as { getBoundingClientRect(): Box };
      scope.__heights = [];
      const sample = () => {
        scope.__heights.push(panelElement.getBoundingClientRect().height);
        scope.requestAnimationFrame(sample);
      };
      sample();
    });
    await widget.host
      .locator('[part="page"]')
      .filter({ hasText: /^\s*2\s*$/ })
      .click();
    assert.equal(await widget.settled(['loading']), 'loading');
    await sleep(300);
    const during = await page.evaluate(() => (globalThis as unknown as { __heights: number[] }).__heights);
    release();
    await widget.waitForFirstTitle(second.organic.docs[0]!.title);
    assert.ok(during.length > 5, `frames sampled: ${during.length}`);
    const lowest = Math.min(...during);
    assert.ok(
      lowest >= firstHeight - 0.5,
      `the panel shrank from ${firstHeight} to ${lowest} px while loading`,
    );
  });

  for (const [screen, viewport] of [
    ['a desktop', { width: 1280, height: 900 }],
    ['a 360 px phone', { width: 360, height: 740 }],
  ] as const) {
    test(`layout-shift entries on ${screen}: a typed search whose results arrive late moves no element of the widget`, async () => {
      const { page, widget } = await suite.open('below', undefined, { viewport });
      await observeShifts(page);
      // The answer comes after the 500 ms in which the browser counts a shift as caused by the input.
      const release = await holdSearches(page, () => true);
      await widget.input.click();
      await widget.input.pressSequentially(COMMON_QUERY, { delay: 20 });
      await widget.part('option').first().waitFor({ state: 'visible' });
      await widget.input.press('Enter');
      await widget.settled(['loading']);
      await sleep(800);
      release();
      assert.equal(await widget.settled(), 'ready');
      await widget.part('related-link').first().waitFor({ state: 'visible' });
      const shifts = await unexpectedShifts(page);
      assert.ok(
        shifts.some((shift) => shift.sources.includes('page P#below')),
        `the observer sees the late results push the page's content down: ${JSON.stringify(shifts)}`,
      );
      assert.equal(widgetScore(shifts), 0, `shifts: ${JSON.stringify(shifts)}`);
    });
  }

  test('layout-shift entries: a page loaded with a search in its URL moves neither the search box nor the rest of the widget', async () => {
    const { page, widget } = await suite.open('below', `kumo_q=${COMMON_QUERY}`);
    await observeShifts(page);
    assert.equal(await widget.settled(), 'ready');
    await widget.part('related-link').first().waitFor({ state: 'visible' });
    const shifts = await unexpectedShifts(page);
    const boxShifts = shifts.filter((shift) =>
      shift.sources.some((source) => source === 'widget box' || source === 'widget host'),
    );
    assert.deepEqual(boxShifts, [], `shifts of the search box: ${JSON.stringify(shifts)}`);
    assert.equal(widgetScore(shifts), 0, `shifts: ${JSON.stringify(shifts)}`);
  });

  test('a 360 px phone: overlong unbroken titles, addresses, queries and keywords wrap inside the screen', async () => {
    const { page, widget } = await suite.open('below', undefined, {
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    assert.equal(await widget.search(OVERLONG_QUERY), 'ready');
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      [OVERLONG_TITLE],
    );
    // Related keywords come after the results; the overlong words are among them.
    await widget.part('related-link').first().waitFor({ state: 'visible' });
    assert.deepEqual(await overflowing(page, 360), [], 'the results of the overlong page');
    for (const part of ['result-title', 'result-url', 'result-snippet', 'result', 'panel', 'form']) {
      const shape = await documentBox(widget.part(part).first());
      assert.ok(shape.x >= 0 && shape.x + shape.width <= 360, `${part}: ${JSON.stringify(shape)}`);
    }
    const title = await documentBox(widget.part('result-title').first());
    assert.ok(title.height > 40, `the title wraps onto several lines: ${JSON.stringify(title)}`);

    // A pasted address as the query: the status line and the empty state repeat it.
    assert.equal(await widget.search(OVERLONG_TITLE), 'ready');
    assert.deepEqual(await overflowing(page, 360), [], 'the status line of an overlong query');
    assert.equal(await widget.search(`${OVERLONG_TITLE}xyz`), 'empty');
    assert.deepEqual(await overflowing(page, 360), [], 'the empty state of an overlong query');
    // Misspelt: "Showing results for <overlong>. Search instead for <overlong>".
    await widget.input.fill(`${OVERLONG_TITLE.slice(0, -1)}z`);
    await widget.input.press('Enter');
    await widget.part('correction-link').waitFor({ state: 'visible' });
    assert.equal(await widget.settled(), 'ready');
    assert.deepEqual(await overflowing(page, 360), [], 'the correction line of an overlong query');
  });
});
