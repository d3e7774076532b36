/**
 * A service group's overview in real Chromium against a real `kumo serve` (docs/console.md,
 * Overview): a run in progress with its progress pushed live, which moves to the recent runs
 * when it ends; the next scheduled runs in the service's time zone; the search traffic of the last
 * 7 days.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';

const suite = consoleSuite();
let site: LocalServer;

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const links =
          request.url === '/'
            ? [1, 2, 3, 4, 5, 6].map((n) => `<a href="/page/${n}">page ${n}</a>`).join(' ')
            : '';
        response.end(`<!doctype html><title>Page ${request.url}</title><p>text ${links}</p>`);
      }, 400);
    }),
    '127.0.0.11',
  );
});
after(async () => {
  await site?.close();
});

describe('console overview', () => {
  test('a run in progress shows live and moves to the recent runs; the next runs and traffic show', async () => {
    const tenant = await suite.tenant('overview');
    await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Nightly docs',
      setting: { seed_urls: [`${site.baseUrl}/`] },
      schedule: { interval: 2, min: 30, hour: 4 },
    });
    const search = await suite.operator('POST', `${tenant.groupPath}/search_services`, { name: 'Docs' });
    const searchPath = `/api/v1.0/finder_service/documents/${tenant.contractId}/${tenant.groupId}/${search.json.service_id as number}/search`;
    for (const q of ['tomato', 'basil', 'tomato']) await fetch(`${suite.kumo.url}${searchPath}?q=${q}`);

    await suite.account(tenant.contractId, 'viewer@overview.example', 'viewer');
    const { page, pageErrors } = await suite.signIn('viewer@overview.example');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const next = page.getByRole('region', { name: 'Next scheduled runs' });
    await next.getByText('Nightly docs').waitFor();
    await next.getByText('Every day at 04:30').waitFor();
    const traffic = page.getByRole('region', { name: 'Search traffic, last 7 days' });
    await traffic.getByRole('row').nth(7).waitFor();
    const today = traffic.getByRole('row').last();
    assert.equal((await today.getByRole('cell').nth(1).textContent())?.trim(), '3');

    const started = await suite.operator('POST', `${tenant.groupPath}/runs`, {
      setting: { seed_urls: [`${site.baseUrl}/`], base_concurrent_requests: 1 },
    });
    const runId = started.json.run.id as number;
    const running = page.getByRole('region', { name: 'Runs in progress' });
    // Not in the list the page read first: a reload shows it, then events keep it current.
    await page.reload();
    await running.getByRole('link', { name: `Run ${runId}` }).waitFor();
    await running.getByText(/of \d+ pages/).waitFor();
    await assertAccessible(page, 'the overview');
    const recent = page.getByRole('region', { name: 'Recent runs' });
    await recent.getByRole('link', { name: `Run ${runId}` }).waitFor({ timeout: 30_000 });
    await running.getByText('No run is waiting or running.').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
