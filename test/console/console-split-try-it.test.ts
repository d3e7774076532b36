/**
 * The console of a cluster whose API process does not serve search (docs/console.md, Site search;
 * docs/operations.md, Roles), in real Chromium: told KUMO_SEARCH_PUBLIC_URL, its search service
 * page gives the search node's address in the snippet and the hosted page link, and Try it, framed
 * from the search node in its sandbox, finds the crawled pages; an API process not told it explains
 * that search is served elsewhere and names the setting, with no frame answering an error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clusterBackends, CLUSTER_ADMIN_TOKEN } from '../support/cluster-processes.js';
import type { ServeProcess } from '../support/serve-process.js';
import {
  SEARCHED_SITE_PAGES,
  type SplitSearchCluster,
  startSplitSearchCluster,
} from '../support/split-search-cluster.js';
import { launchWidgetBrowser, type WidgetBrowser } from '../support/widget-browser.js';

const backends = clusterBackends();
let cluster: SplitSearchCluster;
let browser: WidgetBrowser;

/** The demo search service's console page, signed in as the operator on `api`; page errors recorded. */
async function openSearchService(api: ServeProcess): Promise<{ page: Page; errors: string[] }> {
  const { context, page } = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const signIn = await context.request.post(`${api.url}/admin/v1/operator_session`, {
    data: { admin_token: CLUSTER_ADMIN_TOKEN },
  });
  assert.equal(signIn.status(), 200, await signIn.text());
  await page.goto(`${api.url}/console/contracts/1/groups/1/search/1`);
  await page.getByRole('heading', { name: /^Search service: / }).waitFor({ timeout: 15_000 });
  return { page, errors };
}

describe('console try it on a split cluster', () => {
  // Inside the suite: they run after the file's database and bucket servers have started.
  before(async () => {
    browser = await launchWidgetBrowser();
    cluster = await startSplitSearchCluster(backends, { tellSearchAddress: true });
  });
  after(async () => {
    await browser?.close();
  });

  test("Try it searches on the search node and the snippet names the node's address", async () => {
    const { api, search } = cluster;
    const { page, errors } = await openSearchService(api);

    const snippet = await page.locator('.copy-block code').first().textContent();
    assert.ok(
      snippet?.includes(`<script src="${search.url}/widget/v1/kumo-search.js" data-service="1/1/1"`),
      snippet ?? '',
    );
    assert.equal(
      await page.locator('.copy-block code').nth(1).textContent(),
      `${search.url}/search/1/1/1?q=`,
    );
    const frameElement = page.locator('iframe.try-it');
    assert.equal(await frameElement.getAttribute('src'), `${search.url}/search/1/1/1`);
    assert.deepEqual(((await frameElement.getAttribute('sandbox')) ?? '').split(/\s+/).sort(), [
      'allow-forms',
      'allow-same-origin',
      'allow-scripts',
    ]);

    const started = Date.now();
    const frame = page.frameLocator('iframe.try-it');
    await frame.locator('[part~="input"]').fill('page');
    await frame.locator('[part~="input"]').press('Enter');
    await frame.getByRole('link', { name: 'Page 3' }).first().waitFor({ timeout: 15_000 });
    const searchedMs = Date.now() - started;
    const shown = (await frame.locator('body').textContent()) ?? '';
    assert.ok(!shown.includes('"status"'), `the frame shows results, not JSON: ${shown.slice(0, 200)}`);
    const links = await frame.getByRole('link', { name: /^Page \d+$/ }).count();
    assert.equal(links, SEARCHED_SITE_PAGES, 'every crawled page is a result');
    assert.ok(searchedMs < 15_000, `results in ${searchedMs} ms`);
    process.stdout.write(`# try it on the search node: ${links} results in ${searchedMs} ms\n`);
    assert.deepEqual(errors, []);
  });

  test('an API process not told where search is says it is served elsewhere and names the setting', async () => {
    const untold = await cluster.start('api');
    const { page, errors } = await openSearchService(untold);
    const note = page.getByRole('note');
    await note.waitFor();
    assert.match(
      (await note.textContent()) ?? '',
      /served by other processes of this cluster.*KUMO_SEARCH_PUBLIC_URL/,
    );
    assert.equal(await page.locator('iframe.try-it').count(), 0, 'no frame of an address answering 404');
    assert.equal(await page.locator('.copy-block').count(), 0, 'no snippet naming such an address');
    assert.deepEqual(errors, []);
  });
});
