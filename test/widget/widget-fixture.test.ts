/**
 * The fixture the widget tests stand on, checked through the site search API and the browser:
 * the answers the Chromium tests expect to see rendered (paging, categories, drill-down,
 * did-you-mean, badges, the hostile page, related keywords, suggestions) really come from the
 * service, and the browser starts. A failure here is the fixture's, not the widget's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startedTogether } from '../support/started-together.js';
import { launchWidgetBrowser, type WidgetBrowser } from '../support/widget-browser.js';
import {
  COMMON_QUERY,
  HOSTILE_QUERY,
  HOSTILE_TITLE,
  MISSPELLED_QUERY,
  RARE_SPELLING,
} from '../support/widget-fixture-docs.js';
import { startWidgetSite, type WidgetSite } from '../support/widget-site.js';

let site: WidgetSite;
let browser: WidgetBrowser;

before(async () => {
  [site, browser] = await startedTogether(startWidgetSite(), launchWidgetBrowser());
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const api = (path: string) => fetch(`${site.kumoUrl}/api/v1.0/finder_service/documents/${path}`);

describe('the widget tests’ fixture', () => {
  test('the common word has more than one page of hits, in categories and a drill-down tree', async () => {
    const answer = await site.search({ q: COMMON_QUERY });
    assert.ok(answer.organic.hits > 10, `hits: ${answer.organic.hits}`);
    assert.deepEqual(answer.category.items, ['Guides', 'News', 'Files']);
    const roots = answer.facet_drilldown_roots.map((root) => {
      const node = root.facet_drilldowns[0]!;
      return [node.title, node.count, (node.children ?? []).map((child) => [child.title, child.count])];
    });
    assert.deepEqual(roots, [
      [
        'guides',
        11,
        [
          ['garden', 7],
          ['kitchen', 4],
        ],
      ],
      ['files', 2, []],
      ['news', 1, []],
    ]);
    const files = await site.search({ q: COMMON_QUERY, doctype: 'pdf,doc' });
    assert.deepEqual(files.organic.docs.map((doc) => doc.doctype).sort(), ['doc', 'pdf']);
  });

  test('a misspelling finds nothing and has a correction; a rare spelling has hits and a correction', async () => {
    const missing = await site.search({ q: MISSPELLED_QUERY });
    assert.equal(missing.organic.hits, 0);
    assert.equal(missing.spellcheck.main_phrase, COMMON_QUERY);
    // The page with the rare spelling, and the one with its form `tomatoes` (word forms).
    const rare = await site.search({ q: RARE_SPELLING });
    assert.equal(rare.organic.hits, 2);
    assert.equal(rare.spellcheck.main_phrase, COMMON_QUERY);
  });

  test('the hostile page is found with its markup title as text', async () => {
    const answer = await site.search({ q: HOSTILE_QUERY });
    assert.equal(answer.organic.hits, 1);
    assert.equal(answer.organic.docs[0]!.title, HOSTILE_TITLE);
  });

  test('Japanese pages, related keywords and suggestions answer', async () => {
    const japanese = await site.search({ q: 'トマト' });
    assert.equal(japanese.organic.hits, 4);
    const related = (await (await api(`1/1/1/related_keywords?q=${COMMON_QUERY}`)).json()) as {
      related_keywords: { word: string }[];
    };
    assert.ok(related.related_keywords.length > 0, JSON.stringify(related));
    const suggest = (await (await api('1/1/1/suggest?q=tom')).json()) as { suggestions: { word: string }[] };
    assert.ok(suggest.suggestions.length > 0, JSON.stringify(suggest));
    assert.ok(
      suggest.suggestions.every((one) => one.word.startsWith('tom')),
      JSON.stringify(suggest),
    );
  });

  test('the refusing service answers 403 to the host pages’ origin', async () => {
    const refused = await fetch(
      `${site.kumoUrl}/api/v1.0/finder_service/documents/${site.services.refused}/search?q=sourdough`,
      { headers: { origin: 'http://127.0.0.2:1' } },
    );
    assert.equal(refused.status, 403);
  });

  test('Chromium starts and renders a page', async () => {
    const { page } = await browser.newPage();
    await page.setContent('<p id="x">ok</p>');
    assert.equal(await page.locator('#x').textContent(), 'ok');
    await browser.closeContexts();
  });
});
