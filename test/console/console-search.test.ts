/**
 * Site search in the console, in real Chromium against a real `kumo serve` (docs/console.md, Site
 * search): an editor creates a search service, a crawl setting feeds it, the page shows the index,
 * the category and drill-down editors preview the facets of the indexed pages and show the API's
 * reasons inline, the configuration is saved, the widget runs against the service in the try-it
 * panel, and the snippet names the service. A viewer reads the page without a Save button.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;

const PAGES: Record<string, string> = {
  '/': 'Garden handbook',
  '/guide/soil': 'Soil guide for tomatoes',
  '/guide/water': 'Watering guide',
  '/guide/light': 'Light guide',
  '/news/spring': 'Spring news',
};

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      const title = PAGES[request.url ?? ''];
      if (title === undefined) {
        response.writeHead(404, { 'content-type': 'text/html' });
        response.end('missing');
        return;
      }
      const links =
        request.url === '/'
          ? Object.keys(PAGES)
              .map((path) => `<a href="${path}">${path}</a>`)
              .join(' ')
          : '';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1><p>${title} tomato text.</p>${links}</html>`,
      );
    }),
    '127.0.0.10',
  );
});
after(async () => {
  await site?.close();
});

describe('console site search', () => {
  test('an editor creates a service, feeds it, previews facets, saves rules and tries the widget', async () => {
    const tenant = await suite.tenant('search-console');
    await suite.account(tenant.contractId, 'editor@search.example', 'editor');
    const { page, pageErrors } = await suite.signIn('editor@search.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/search`,
    });
    await page.getByLabel('Name of the new search service').fill('Garden search');
    await page.getByRole('button', { name: 'Create search service' }).click();
    await page.getByRole('status').getByText('Search service "Garden search" created.').waitFor();
    const listed = await suite.operator('GET', `${tenant.groupPath}/search_services`);
    const serviceId = listed.json.search_services[0].id as number;

    // A crawl setting feeds the service; its run ends before the page is opened.
    const setting = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Garden',
      setting: { seed_urls: [`${site.baseUrl}/`] },
      schedule: { interval: 0 },
      service_id: serviceId,
    });
    const settingId = setting.json.service_setting_id as number;
    const run = await suite.operator('POST', `${tenant.groupPath}/service_settings/${settingId}/run`);
    assert.equal(run.status, 200, JSON.stringify(run.json));
    await pollUntil(
      'the feed to end',
      async () => {
        const status = await suite.operator('GET', `${tenant.groupPath}/search_services/${serviceId}/status`);
        return status.json.last_feed !== null && status.json.documents === 5 ? status : undefined;
      },
      60_000,
    );

    await page.getByRole('link', { name: 'Garden search' }).click();
    await page.getByRole('heading', { name: 'Search service: Garden search' }).waitFor();
    const index = page.getByRole('region', { name: 'Index' });
    await index.getByText('5', { exact: true }).waitFor();
    await index.getByRole('link', { name: `Run ${run.json.run_id}` }).waitFor();

    // The default drill-down: the host, then directories.
    const preview = page.getByRole('region', { name: 'Preview of the facets' });
    const tree = preview.getByRole('list', { name: 'Drill-down tree' });
    await tree.getByText('127.0.0.10').waitFor();
    // The tree starts collapsed: the host's directories show once it is opened.
    assert.equal(await tree.locator('details[open]').count(), 0);
    assert.equal(await tree.getByText('guide', { exact: true }).isVisible(), false);
    await tree.locator('summary', { hasText: '127.0.0.10' }).click();
    await tree.getByText('guide', { exact: true }).waitFor();
    assert.equal(
      await tree.locator('summary', { hasText: '127.0.0.10' }).locator('.facet-count').textContent(),
      '5 pages',
    );
    await page.getByRole('button', { name: 'Add a category' }).click();
    await page.getByLabel('Category 1', { exact: true }).fill('Guides');
    await page.getByLabel('URL pattern 1', { exact: true }).first().fill('/guide/(');
    const patternError = page.locator('#category-pattern-0-error');
    await patternError.waitFor();
    const refused = await suite.operator(
      'POST',
      `${tenant.groupPath}/search_services/${serviceId}/facet_preview`,
      {
        config: { categories: [{ name: 'Guides', url_pattern: '/guide/(' }] },
      },
    );
    assert.equal(refused.status, 400);
    assert.equal(await patternError.textContent(), refused.json.errors[0].reason);
    await page.getByLabel('URL pattern 1', { exact: true }).first().fill('/guide/');
    await patternError.waitFor({ state: 'detached' });
    const counts = preview.getByRole('list', { name: 'Pages per category' });
    await counts.getByText('Guides').waitFor();
    await pollUntil('the category count', async () =>
      ((await counts.locator('li').first().textContent()) ?? '').includes('3 pages') ? true : undefined,
    );

    await page.getByRole('button', { name: 'Add a drill-down rule' }).click();
    await page.locator('#drilldown-pattern-0').fill('/(guide|news)/');
    await page.locator('#drilldown-path-0').fill('Site > $1');
    const siteBranch = tree.locator('summary', { hasText: /^Site/ });
    await siteBranch.click();
    await tree.getByText('guide', { exact: true }).waitFor();
    // Counts with the right plural: the one news page is "1 page".
    const news = tree.locator('li', { hasText: /^news/ });
    assert.equal(await news.locator('.facet-count').textContent(), '1 page');
    const pageHeight = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    assert.ok(pageHeight < 5000, `the page is ${pageHeight} px high`);
    await page.getByRole('textbox', { name: 'Allowed origins' }).fill('https://garden.example');
    await assertAccessible(page, 'the search service page');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByRole('status').getByText('Saved. The next search uses it.').waitFor();
    const saved = await suite.operator('GET', `${tenant.groupPath}/search_services/${serviceId}`);
    assert.deepEqual(saved.json.search_service.config, {
      categories: [{ name: 'Guides', url_pattern: '/guide/' }],
      drilldowns: [{ url_pattern: '/(guide|news)/', path: 'Site\t$1' }],
      allowed_origins: ['https://garden.example'],
    });

    const snippet = page.getByRole('region', { name: 'Put search on your site' }).locator('pre').first();
    assert.match(
      (await snippet.textContent()) ?? '',
      new RegExp(`data-service="${tenant.contractId}/${tenant.groupId}/${serviceId}"`),
    );

    const frame = page.frameLocator('iframe.try-it');
    await frame.locator('[part~="input"]').fill('soil');
    await frame.locator('[part~="input"]').press('Enter');
    await frame.getByText('Soil guide for tomatoes').first().waitFor({ timeout: 15_000 });
    // The click is reported before the frame leaves (the console's frame-src keeps it from opening
    // the fixture site, which changes nothing for the click).
    await frame.getByRole('link', { name: 'Soil guide for tomatoes' }).first().click();
    await pollUntil('the click to be counted', async () => {
      const report = await suite.operator(
        'GET',
        `${tenant.groupPath}/search_services/${serviceId}/analytics`,
      );
      return report.json.totals.clicks === 1 ? report : undefined;
    });

    // The search and the click appear in the analytics, with a search that found nothing.
    const searched = await fetch(
      `${suite.kumo.url}/api/v1.0/finder_service/documents/${tenant.contractId}/${tenant.groupId}/${serviceId}/search?q=zzzqqq`,
    );
    assert.equal(searched.status, 200);
    await page
      .getByRole('navigation', { name: 'Console navigation' })
      .getByRole('link', { name: 'Search analytics' })
      .click();
    const top = page.getByRole('region', { name: 'Top queries' });
    await top.getByRole('cell', { name: 'soil', exact: true }).waitFor();
    const soilRow = top.getByRole('row').filter({ hasText: 'soil' });
    assert.deepEqual(await soilRow.getByRole('cell').allTextContents(), ['soil', '1', '0', '100.0%']);
    await page
      .getByRole('region', { name: 'Queries without results' })
      .getByRole('cell', { name: 'zzzqqq' })
      .waitFor();
    const clicked = page.getByRole('region', { name: 'Most clicked results' });
    await clicked.getByRole('cell', { name: `${site.baseUrl}/guide/soil` }).waitFor();
    const searches = page.locator('.stat', { hasText: 'Searches' }).locator('.stat-value');
    assert.equal(await searches.textContent(), '2');
    await assertAccessible(page, 'the search analytics page');
    const csvHref = (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')) ?? '';
    const { bom, csv } = await page.evaluate(async (address) => {
      const bytes = new Uint8Array(await (await fetch(address)).arrayBuffer());
      return { bom: Array.from(bytes.slice(0, 3)), csv: new TextDecoder().decode(bytes) };
    }, csvHref);
    assert.deepEqual(bom, [0xef, 0xbb, 0xbf], 'a byte order mark for spreadsheets');
    assert.match(csv, /^"day","query","searches","no_results","clicks","click_through_rate"\r\n/);
    assert.match(csv, /"soil","1","0","1","1"\r\n/);
    assert.match(csv, /"zzzqqq","1","1","0","0"\r\n/);
    assert.deepEqual(pageErrors, []);
  });

  test('a viewer reads the configuration without a Save button', async () => {
    const tenant = await suite.tenant('search-viewer');
    const created = await suite.operator('POST', `${tenant.groupPath}/search_services`, {
      name: 'Read only',
      config: { categories: [{ name: 'Docs', url_pattern: '/docs/' }] },
    });
    const serviceId = created.json.service_id as number;
    await suite.account(tenant.contractId, 'viewer@search.example', 'viewer');
    const { page } = await suite.signIn('viewer@search.example', {
      locale: 'ja-JP',
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/search/${serviceId}`,
    });
    await page.getByRole('heading', { name: '検索サービス: Read only' }).waitFor();
    assert.equal(await page.getByLabel('カテゴリー 1', { exact: true }).inputValue(), 'Docs');
    assert.equal(await page.getByLabel('カテゴリー 1', { exact: true }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: '設定を保存' }).count(), 0);
    await page
      .getByText('インデックスにまだページがありません。クロールで登録されるとプレビューを表示します。')
      .waitFor();
    await assertAccessible(page, 'the search service page for a viewer');
  });
});
