/**
 * Runs in the console, in real Chromium against a real `kumo serve` and real crawls of loopback
 * fixture sites (docs/console.md, Runs and Run page): an editor starts an instant crawl from the
 * setting editor, watches its live progress (pushed by server-sent events, not polled) to the end,
 * reads the failures by kind, filters the URL table, opens a screenshot and downloads an artifact
 * with the session; an editor cancels a run; a viewer can neither start nor cancel (the API
 * refuses too); another contract's run is not found.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';

const suite = consoleSuite();
let site: LocalServer;
let stalled: LocalServer;

/** Eight pages, one of them missing; each answers after a pause, so the run is seen running. */
const LINKS = ['/guide/one', '/guide/two', '/guide/three', '/news/', '/news/a', '/missing', '/about'];

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      setTimeout(() => {
        if (request.url === '/missing') {
          response.writeHead(404, { 'content-type': 'text/html' });
          response.end('<title>Missing</title><p>gone');
          return;
        }
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const links =
          request.url === '/' ? LINKS.map((link) => `<a href="${link}">${link}</a>`).join(' ') : '';
        response.end(`<!doctype html><title>Page ${request.url}</title><h1>${request.url}</h1>${links}`);
      }, 500);
    }),
    '127.0.0.8',
  );
  stalled = await listenLocally(
    createServer(() => {}),
    '127.0.0.9',
  );
});

after(async () => {
  await site?.close();
  await stalled?.close();
});

const runsPath = (tenant: { contractId: number; groupId: number }) =>
  `/contracts/${tenant.contractId}/groups/${tenant.groupId}/runs`;

describe('console runs', () => {
  test('an editor starts an instant crawl, watches it live to the end and explores its URLs and screenshots', async () => {
    const tenant = await suite.tenant('runs-live');
    await suite.account(tenant.contractId, 'editor@runs.example', 'editor');
    const { page, pageErrors } = await suite.signIn('editor@runs.example', { path: runsPath(tenant) });
    const runReads: string[] = [];
    page.on('request', (request) => {
      if (/\/runs\/\d+$/.test(new URL(request.url()).pathname)) runReads.push(request.url());
    });
    await page.getByRole('link', { name: 'New instant crawl' }).click();
    await page.getByLabel('Seed URLs').fill(`${site.baseUrl}/`);
    await page.getByLabel('Requests at once').fill('1');
    await page.getByLabel('Take screenshots').check();
    await page
      .getByText('The setting is valid.')
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    await page.getByRole('button', { name: 'Start crawl' }).click();

    await page.getByRole('heading', { name: /^Run \d+$/ }).waitFor();
    const runId = Number(/\/runs\/(\d+)/.exec(page.url())![1]);
    // Live while it runs: the badge and a count that grows without the page reading the run again.
    // A loaded machine may take seconds to start the run's browser; each page's pause keeps the
    // run going for some seconds after.
    await page.locator('.badge-running', { hasText: 'Live' }).waitFor({ timeout: 30_000 });
    await page.locator('.page-context').getByText('Finished').waitFor({ timeout: 60_000 });
    assert.equal(
      runReads.length,
      1,
      `the run was read once, then followed by events: ${runReads.join(', ')}`,
    );
    const fetched = page.locator('.stat', { hasText: 'Pages fetched' }).locator('.stat-value');
    assert.equal(await fetched.textContent(), '8');

    const errors = page.getByRole('region', { name: 'Errors by kind' });
    await errors.getByText('HTTP 404', { exact: true }).waitFor();
    await errors
      .getByRole('list', { name: 'Examples: HTTP 404' })
      .getByText(`${site.baseUrl}/missing`)
      .waitFor();
    await errors.getByRole('button', { name: 'Show all: HTTP 404' }).click();
    const urls = page.getByRole('region', { name: 'URLs', exact: true });
    await urls.getByText('1 of 1 URLs').waitFor();
    await urls.getByRole('cell', { name: `${site.baseUrl}/missing`, exact: true }).waitFor();
    assert.match(page.url(), /error_kind=HTTP/);

    await urls.getByRole('button', { name: 'Clear filters' }).click();
    await urls.getByText('8 of 8 URLs').waitFor();
    await urls.getByLabel('Depth').selectOption('0');
    await urls.getByText('1 of 1 URLs').waitFor();
    await urls.getByLabel('Depth').selectOption('');
    await urls.getByLabel('URL contains').fill('GUIDE');
    await urls.getByText('3 of 3 URLs').waitFor();
    await urls.getByLabel('Result').selectOption('false');
    await urls.getByText('0 of 0 URLs').waitFor();
    await assertAccessible(page, 'the run page');

    const gallery = page.getByRole('region', { name: 'Screenshots' });
    const thumbs = gallery.locator('.thumb img');
    await thumbs.nth(6).waitFor();
    assert.equal(await thumbs.count(), 7, 'the seven pages answered 200');
    await gallery.getByRole('button', { name: `Screenshot of ${site.baseUrl}/about` }).click();
    const dialog = page.getByRole('dialog', { name: `Screenshot of ${site.baseUrl}/about` });
    const full = dialog.locator('img.full-shot');
    await full.waitFor();
    await page.waitForFunction(
      () => {
        const image = (
          globalThis as unknown as { document: { querySelector(s: string): { naturalWidth: number } | null } }
        ).document.querySelector('img.full-shot');
        return image !== null && image.naturalWidth > 0;
      },
      undefined,
      { timeout: 10_000 },
    );
    assert.equal(
      await full.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      1280,
    );
    await dialog.getByRole('button', { name: 'Close' }).click();

    const download = page.getByRole('link', { name: 'url_list.csv.gz' });
    const status = await page.evaluate(
      async (address) => (await fetch(address)).status,
      (await download.getAttribute('href')) ?? '',
    );
    assert.equal(status, 200);

    await page.getByRole('link', { name: 'Runs', exact: true }).first().click();
    const row = page.getByRole('row').filter({ hasText: `Run ${runId}` });
    await row.getByText('Finished').waitFor();
    await row.getByRole('cell', { name: '8', exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  test('an editor cancels a run; a viewer cannot start or cancel; another contract cannot see it', async () => {
    const tenant = await suite.tenant('runs-cancel');
    const started = await suite.operator('POST', `${tenant.groupPath}/runs`, {
      setting: { seed_urls: [`${stalled.baseUrl}/`] },
    });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const runId = started.json.run.id as number;

    await suite.account(tenant.contractId, 'viewer@cancel.example', 'viewer');
    const viewer = await suite.signIn('viewer@cancel.example', { path: `${runsPath(tenant)}/${runId}` });
    await viewer.page.getByRole('heading', { name: `Run ${runId}` }).waitFor();
    assert.equal(await viewer.page.getByRole('button', { name: 'Cancel run' }).count(), 0);
    const refused = await viewer.page.evaluate(
      async ([path, id]) => {
        const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
        const headers = { 'content-type': 'application/json', 'x-kumo-csrf-token': session.csrf_token };
        const cancel = await fetch(`/admin/v1${path}/runs/${id}/cancel`, {
          method: 'POST',
          headers,
          body: '{}',
        });
        const start = await fetch(`/admin/v1${path}/runs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ setting: { seed_urls: ['http://127.0.0.9/'] } }),
        });
        return [cancel.status, start.status];
      },
      [tenant.groupPath, runId] as const,
    );
    assert.deepEqual(refused, [403, 403]);

    await suite.account(tenant.contractId, 'editor@cancel.example', 'editor');
    const { page } = await suite.signIn('editor@cancel.example', { path: `${runsPath(tenant)}/${runId}` });
    // As for the live badge above: a loaded machine may be slow to show the run going.
    await page.getByRole('button', { name: 'Cancel run' }).click({ timeout: 30_000 });
    await page
      .getByRole('dialog', { name: 'Cancel this run?' })
      .getByRole('button', { name: 'Cancel run' })
      .click();
    await page.locator('.page-context').getByText('Cancelled').waitFor({ timeout: 30_000 });
    await page.getByText('This run has no artifacts to download.').waitFor();
    // The viewer's page followed the same run to its end.
    await viewer.page.locator('.page-context').getByText('Cancelled').waitFor({ timeout: 30_000 });

    const other = await suite.tenant('runs-other');
    await suite.account(other.contractId, 'owner@other.example', 'owner');
    const stranger = await suite.signIn('owner@other.example', { path: `${runsPath(tenant)}/${runId}` });
    await stranger.page.getByText('This page does not exist, or your account cannot see it.').waitFor();
    assert.equal(await stranger.page.getByText(stalled.baseUrl).count(), 0);
    const direct = await stranger.page.evaluate(
      async ([path, id]) => (await fetch(`/admin/v1${path}/runs/${id}`)).status,
      [tenant.groupPath, runId] as const,
    );
    assert.equal(direct, 404);
  });
});
