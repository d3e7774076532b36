/**
 * The run page's details in real Chromium against a real `kumo serve` and real crawls of a
 * loopback fixture site (docs/console.md, Run page): a run that took no screenshots asks for no
 * image; the screenshot dialog names the page and steps to the next one by button and arrow key;
 * a URL row opens its detail with status, referrer and links; a run stopped by its page limit
 * says so; words in the URL table never break inside at 1280 px; Run now in the setting editor
 * starts a run of the saved setting and shows it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;

/** Long path segments: a table that squeezes its URL column would break them inside. */
const LONG = '/documentation-handbook-for-administrators/installation-and-configuration-reference';
const LINKS = [
  `${LONG}/overview.html?edition=enterprise`,
  '/guide/one',
  '/guide/two',
  '/guide/three',
  '/about',
];

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const links =
        request.url === '/' ? LINKS.map((link) => `<a href="${link}">Link ${link}</a>`).join(' ') : '';
      response.end(`<!doctype html><title>Page ${request.url}</title><h1>${request.url}</h1>${links}`);
    }),
    '127.0.0.11',
  );
});

after(async () => {
  await site?.close();
});

const groupConsolePath = (tenant: { contractId: number; groupId: number }) =>
  `/contracts/${tenant.contractId}/groups/${tenant.groupId}`;

/** Starts an instant crawl through the API and waits for its end; answers the run id. */
async function finishedRun(groupPath: string, setting: Record<string, unknown>): Promise<number> {
  const started = await suite.operator('POST', `${groupPath}/runs`, {
    setting: { seed_urls: [`${site.baseUrl}/`], base_concurrent_requests: 1, ...setting },
  });
  assert.equal(started.status, 200, JSON.stringify(started.json));
  const runId = started.json.run.id as number;
  await pollUntil(
    'the run to end',
    async () => {
      const run = await suite.operator('GET', `${groupPath}/runs/${runId}`);
      return run.json.run.crawl_execution_status_dtype_id >= 2030 ? run : undefined;
    },
    60_000,
  );
  return runId;
}

/**
 * Words (text split at white space, after hyphens and after the separators a URL may break at) in the cells of
 * the page's tables that are laid out on more than one line: each one was broken inside.
 */
async function wordsBrokenInside(page: Page): Promise<string[]> {
  // Runs in the page (the test's TypeScript has no DOM types).
  return page.evaluate(`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll('table td')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        const pattern = /[^\\s/?&#-]+[/?&#-]?/g;
        for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  })()`);
}

describe('console run details', () => {
  test('a page-limited run without screenshots asks for no image, says why it stopped and opens URL details', async () => {
    const tenant = await suite.tenant('run-details');
    const runId = await finishedRun(tenant.groupPath, {
      documents_limit: 4,
      crawl_result_collection: { link_url_list: 0 },
    });
    const answered = await suite.operator('GET', `${tenant.groupPath}/runs/${runId}`);
    assert.equal(answered.json.run.end_reason, 'documents_limit');
    assert.equal(answered.json.run.screenshots, false);

    await suite.account(tenant.contractId, 'viewer@details.example', 'viewer');
    const { page, pageErrors } = await suite.signIn('viewer@details.example', {
      path: `${groupConsolePath(tenant)}/runs/${runId}`,
    });
    const screenshotReads: string[] = [];
    page.on('request', (request) => {
      if (/\/screenshots/.test(new URL(request.url()).pathname)) screenshotReads.push(request.url());
    });
    await page.reload();
    await page.locator('.page-context').getByText('Finished').waitFor();
    const facts = page.locator('dl.facts').first();
    await facts.getByText('Why it ended').waitFor();
    await facts.getByText('page limit reached', { exact: true }).waitFor();
    await page.getByRole('status').getByText('2 pages were still queued: page limit reached.').waitFor();

    const urls = page.getByRole('region', { name: 'URLs', exact: true });
    await urls.getByText('4 of 4 URLs').waitFor();
    const gallery = page.getByRole('region', { name: 'Screenshots' });
    await gallery.getByText('This run took no screenshots.').waitFor();
    assert.equal(await gallery.getByRole('button', { name: 'More screenshots' }).count(), 0);
    assert.equal(await gallery.locator('img').count(), 0);
    assert.deepEqual(screenshotReads, [], 'no screenshot list or image was asked for');

    // A row opens its detail: status, fetch time, referrer and, for the seed, its links.
    await urls
      .getByRole('row')
      .filter({ hasText: `${site.baseUrl}/guide/one` })
      .locator('td')
      .nth(2)
      .click();
    const detail = page.getByRole('dialog', { name: `URL detail: ${site.baseUrl}/guide/one` });
    await detail.waitFor();
    const fact = async (name: string) =>
      (await detail
        .locator('dt', { hasText: new RegExp(`^${name}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .textContent()) ?? '';
    assert.equal(await fact('Status'), '200 OK');
    assert.equal(await fact('Referrer'), `${site.baseUrl}/`);
    assert.equal(await fact('Redirected to'), 'Not redirected');
    assert.equal(await fact('Links found'), '0');
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'hidden' });
    await urls.getByRole('button', { name: `${site.baseUrl}/`, exact: true }).click();
    const seed = page.getByRole('dialog', { name: `URL detail: ${site.baseUrl}/` });
    await seed.getByText('None: a seed URL or a sitemap URL').waitFor();
    const links = seed.getByRole('list', { name: 'Links found' }).getByRole('listitem');
    assert.equal(await links.count(), LINKS.length);
    assert.equal(
      await seed
        .locator('dt', { hasText: /^Links found$/ })
        .locator('xpath=following-sibling::dd[1]')
        .textContent(),
      String(LINKS.length),
    );
    await page.keyboard.press('Escape');
    await seed.waitFor({ state: 'hidden' });

    // At 1280 px no word of the URL table is broken inside; the long URL breaks after slashes only.
    assert.equal(page.viewportSize()?.width, 1280);
    const broken = await wordsBrokenInside(page);
    assert.deepEqual(broken, [], `words broken inside: ${broken.join(', ')}`);
    const urlColumn = (await urls.getByRole('columnheader', { name: 'URL' }).boundingBox())!.width;
    assert.ok(urlColumn >= 400, `the URL column is ${urlColumn} px wide`);
    assert.deepEqual(pageErrors, []);
  });

  test('the screenshot dialog names the page and steps to the next one by button and arrow key', async () => {
    const tenant = await suite.tenant('run-shots');
    const runId = await finishedRun(tenant.groupPath, { screenshot: {}, documents_limit: 3 });
    await suite.account(tenant.contractId, 'viewer@shots.example', 'viewer');
    const { page, pageErrors } = await suite.signIn('viewer@shots.example', {
      path: `${groupConsolePath(tenant)}/runs/${runId}`,
    });
    const gallery = page.getByRole('region', { name: 'Screenshots' });
    await gallery.locator('.thumb img').nth(2).waitFor();
    await gallery.getByText('Pages with a screenshot: 3').waitFor();
    const order = await gallery.locator('.thumb-url').allTextContents();
    assert.equal(order.length, 3);
    await gallery.locator('.thumb').first().click();

    const dialogOf = (url: string) => page.getByRole('dialog', { name: `Screenshot of ${url}`, exact: true });
    const first = dialogOf(order[0]!);
    await first.getByRole('link', { name: order[0]!, exact: true }).waitFor();
    await first.getByText('1 of 3').waitFor();
    assert.equal(await first.getByRole('button', { name: 'Previous page' }).isDisabled(), true);
    await first.getByRole('button', { name: 'Next page' }).click();
    const second = dialogOf(order[1]!);
    await second.getByText('2 of 3').waitFor();
    await second.getByRole('link', { name: order[1]!, exact: true }).waitFor();
    await page.keyboard.press('ArrowRight');
    const third = dialogOf(order[2]!);
    await third.getByText('3 of 3').waitFor();
    assert.equal(await third.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await page.keyboard.press('ArrowLeft');
    await second.getByText('2 of 3').waitFor();
    await page.waitForFunction(() => {
      const image = (
        globalThis as unknown as { document: { querySelector(s: string): { naturalWidth: number } | null } }
      ).document.querySelector('img.full-shot');
      return image !== null && image.naturalWidth > 0;
    });
    assert.deepEqual(pageErrors, []);
  });

  test('Run now in the setting editor starts a run of the saved setting and opens its page', async () => {
    const tenant = await suite.tenant('run-now-editor');
    const created = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Handbook',
      setting: { seed_urls: [`${site.baseUrl}/`], documents_limit: 2 },
      schedule: { interval: 0 },
      service_id: null,
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const settingId = created.json.service_setting_id as number;
    await suite.account(tenant.contractId, 'editor@runnow.example', 'editor');
    const { page, pageErrors } = await suite.signIn('editor@runnow.example', {
      path: `${groupConsolePath(tenant)}/settings/${settingId}`,
    });
    await page.getByRole('heading', { name: /Handbook/ }).waitFor();
    const runNow = page.getByRole('button', { name: 'Run now' });
    // A change not yet saved would not be what runs: Run now waits for the save.
    await page.getByLabel('Name', { exact: true }).fill('Handbook nightly');
    assert.equal(await runNow.isDisabled(), true);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const startedAt = Date.now();
    await runNow.click();
    await page.getByRole('heading', { name: /^Run \d+$/ }).waitFor();
    const runId = Number(/\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    assert.ok(Date.now() - startedAt < 10_000, 'the run page opened within 10 s');
    await page.locator('.page-context', { hasText: 'Handbook nightly · started with Run now' }).waitFor();
    const run = await suite.operator('GET', `${tenant.groupPath}/runs/${runId}`);
    assert.equal(run.json.run.service_setting_id, settingId);
    assert.equal(run.json.run.trigger, 'manual');
    await page.locator('.page-context').getByText('Finished').waitFor({ timeout: 60_000 });
    assert.deepEqual(pageErrors, []);
  });
});
