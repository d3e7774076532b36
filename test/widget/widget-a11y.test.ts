/**
 * Accessibility of the widget, in real Chromium against a real `kumo serve`: axe-core finds no
 * serious or critical violation with suggestions open and with results; a visitor reaches,
 * searches and opens a result with the keyboard alone, seeing where the focus is; the widget
 * fits a 360 px phone and a 200% zoom without sideways scrolling; reduced motion turns
 * transitions off (docs/reference/widget.md, What a visitor gets).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertNoSeriousViolations, seriousAxeViolations } from '../support/widget-driver.js';
import { COMMON_QUERY } from '../support/widget-fixture-docs.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();

/** The focused element across shadow roots: its part attribute and the focus ring drawn for it. */
async function focused(
  page: Page,
): Promise<{ part: string; outline: string; boxShadow: string; tag: string }> {
  return page.evaluate(() => {
    interface Focusable {
      tagName: string;
      shadowRoot: { activeElement: Focusable | null } | null;
      parentElement: Focusable | null;
      getAttribute(name: string): string | null;
    }
    const scope = globalThis as unknown as {
      document: { activeElement: Focusable | null };
      getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string };
    };
    let element = scope.document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element) return { part: '', outline: '', boxShadow: '', tag: '' };
    // The ring may be drawn by the element or by its field around it (:focus-within).
    let outline = 'none 0px';
    let boxShadow = 'none';
    for (
      let ring: Focusable | null = element, level = 0;
      ring && level < 3;
      ring = ring.parentElement, level += 1
    ) {
      const style = scope.getComputedStyle(ring);
      if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) {
        outline = `${style.outlineStyle} ${style.outlineWidth}`;
      }
      if (style.boxShadow !== 'none' && boxShadow === 'none') boxShadow = style.boxShadow;
    }
    return { part: element.getAttribute('part') ?? '', outline, boxShadow, tag: element.tagName };
  });
}

const visibleFocus = (focus: { outline: string; boxShadow: string }) =>
  !focus.outline.startsWith('none') || focus.boxShadow !== 'none';

/** Widest scroll width of the document, in CSS px. */
const scrollWidth = (page: Page) =>
  page.evaluate(() => {
    const scope = globalThis as unknown as { document: { documentElement: { scrollWidth: number } } };
    return scope.document.documentElement.scrollWidth;
  });

describe('widget accessibility', () => {
  test('axe-core: no serious violation with suggestions open, with results, and in the empty state', async () => {
    const { page, widget } = await suite.open('plain');
    await widget.input.click();
    await widget.typeForSuggestions('tom');
    await widget.input.press('ArrowDown');
    assertNoSeriousViolations(await seriousAxeViolations(page), 'the widget with suggestions open');
    await widget.search(COMMON_QUERY);
    assertNoSeriousViolations(await seriousAxeViolations(page), 'the widget with results');
    await widget.search('zyxwvut');
    assertNoSeriousViolations(await seriousAxeViolations(page), 'the widget’s empty state');
  });

  test('axe-core: no serious violation on the Japanese page and the JSONP (strict CSP) page', async () => {
    for (const variant of ['ja', 'csp'] as const) {
      const { page, widget } = await suite.open(
        variant,
        `kumo_q=${variant === 'ja' ? 'トマト' : COMMON_QUERY}`,
      );
      assert.equal(await widget.settled(), 'ready');
      assertNoSeriousViolations(await seriousAxeViolations(page), `the ${variant} page`);
    }
  });

  test('keyboard alone: Tab to the box, type, pick a suggestion, Tab to a result and open it', async () => {
    const { page, widget } = await suite.open('plain');
    await page.keyboard.press('Tab');
    let focus = await focused(page);
    assert.match(focus.part, /\binput\b/, `Tab lands on the search box (${focus.tag} ${focus.part})`);
    assert.ok(visibleFocus(focus), `the box shows focus: ${JSON.stringify(focus)}`);
    await page.keyboard.type('tom');
    await widget.part('option').first().waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await widget.settled(), 'ready');

    // Tab on through the widget until a result link has the focus; each stop shows it.
    let steps = 0;
    for (;;) {
      await page.keyboard.press('Tab');
      focus = await focused(page);
      steps += 1;
      assert.ok(
        focus.tag !== '' && steps < 40,
        `a result link is reachable by Tab (now ${focus.tag} ${focus.part})`,
      );
      assert.ok(visibleFocus(focus), `visible focus on ${focus.tag} ${focus.part}: ${JSON.stringify(focus)}`);
      if (/\bresult-title\b/.test(focus.part)) break;
    }
    const [href] = await widget.resultHrefs();
    await Promise.all([page.waitForURL(href!), page.keyboard.press('Enter')]);
  });

  test('a 360 px phone: the box and results fit without sideways scrolling', async () => {
    const { page, widget } = await suite.open('plain', undefined, {
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await widget.search(COMMON_QUERY);
    assert.ok((await scrollWidth(page)) <= 360, `document scroll width ${await scrollWidth(page)} px`);
    const input = await widget.input.boundingBox();
    assert.ok(
      input && input.x >= 0 && input.x + input.width <= 360 && input.width >= 150,
      JSON.stringify(input),
    );
    for (const result of (await widget.part('result').all()).slice(0, 3)) {
      const shape = await result.boundingBox();
      assert.ok(shape && shape.x >= 0 && shape.x + shape.width <= 360, JSON.stringify(shape));
    }
    // Touch: a tap on a suggestion picks it.
    await widget.input.fill('');
    await widget.typeForSuggestions('bas');
    const option = widget.part('option').first();
    const word = ((await option.textContent()) ?? '').trim();
    await option.tap();
    await page.waitForURL((url) => url.searchParams.get('kumo_q') === word);
  });

  test('200% zoom (640 CSS px at twice the density) keeps the widget within the page', async () => {
    const { page, widget } = await suite.open('plain', `kumo_q=${COMMON_QUERY}`, {
      viewport: { width: 640, height: 450 },
      deviceScaleFactor: 2,
    });
    assert.equal(await widget.settled(), 'ready');
    assert.ok((await scrollWidth(page)) <= 640, `document scroll width ${await scrollWidth(page)} px`);
  });

  test('reduced motion: no element of the widget has a transition or animation', async () => {
    const { widget } = await suite.open('plain', `kumo_q=${COMMON_QUERY}`, { reducedMotion: 'reduce' });
    assert.equal(await widget.settled(), 'ready');
    const moving = await widget.host.evaluate((host) => {
      interface Node {
        tagName: string;
        getAttribute(name: string): string | null;
      }
      const scope = globalThis as unknown as {
        getComputedStyle(element: unknown): { transitionDuration: string; animationDuration: string };
      };
      const root = (host as unknown as { shadowRoot: { querySelectorAll(s: string): ArrayLike<Node> } })
        .shadowRoot;
      return Array.from(root.querySelectorAll('*'))
        .filter((element) => {
          const style = scope.getComputedStyle(element);
          const durations = `${style.transitionDuration},${style.animationDuration}`.split(',');
          return durations.some((duration) => Number.parseFloat(duration) > 0);
        })
        .map((element) => `${element.tagName} ${element.getAttribute('part') ?? ''}`);
    });
    assert.deepEqual(moving, []);
  });
});
