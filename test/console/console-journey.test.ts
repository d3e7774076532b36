/**
 * The whole journey the console exists for (docs/console.md), in real Chromium against a real
 * `kumo serve`: the operator signs in with the admin token, creates a contract and invites its
 * owner; the owner, with the browser alone, creates a search service, writes a crawl setting that
 * feeds it on an hourly schedule, sees the schedule's run happen, finds the pages indexed, allows
 * their site's origin, and copies the snippet; a visitor of the owner's own page (another origin
 * on loopback) then searches it through the widget.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { CONSOLE_ADMIN_TOKEN, CONSOLE_PASSWORD, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite({ overrides: { schedulerIntervalSeconds: 0.2 } });
let shop: LocalServer;
let ownersSite: LocalServer;
/** The snippet the owner copied, which their own page serves. */
let snippet = '';

const PAGES: Record<string, string> = {
  '/': 'Tomato Shop',
  '/seeds/cherry-tomato': 'Cherry tomato seeds',
  '/seeds/basil': 'Sweet basil seeds',
  '/guides/watering': 'Watering tomatoes in summer',
};

before(async () => {
  shop = await listenLocally(
    createServer((request, response) => {
      const title = PAGES[request.url ?? ''];
      response.writeHead(title === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
      const links =
        request.url === '/'
          ? Object.keys(PAGES)
              .map((path) => `<a href="${path}">${path}</a>`)
              .join(' ')
          : '';
      response.end(
        `<!doctype html><html lang="en"><title>${title ?? 'Missing'}</title><h1>${title}</h1><p>${title} from the shop.</p>${links}</html>`,
      );
    }),
    '127.0.0.13',
  );
  ownersSite = await listenLocally(
    createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><title>Our shop</title><h1>Find it</h1>${snippet}</html>`);
    }),
    '127.0.0.14',
  );
});
after(async () => {
  await shop?.close();
  await ownersSite?.close();
});

describe('console journey', () => {
  test('operator to owner to a scheduled crawl to search on the owner’s own page', async () => {
    // The operator: a contract, its first service group, an invitation for its owner.
    const operator = await suite.open();
    await operator.page.goto(suite.url('/'));
    await operator.page.getByText('Operator? Sign in with the admin token').click();
    await operator.page.getByLabel('Admin token').fill(CONSOLE_ADMIN_TOKEN);
    await operator.page.getByRole('button', { name: 'Sign in as the operator' }).click();
    await operator.page.getByLabel('Contract name').fill('Tomato Shop');
    await operator.page.getByRole('button', { name: 'Create a contract' }).click();
    await operator.page.getByText('Contract "Tomato Shop" created. Invite its first owner below.').waitFor();
    await operator.page.getByLabel('Owner’s email address').fill('owner@tomato.example');
    await operator.page.getByRole('button', { name: 'Create invitation' }).click();
    const link = operator.page.getByLabel('Invitation link for owner@tomato.example', { exact: true });
    const acceptUrl = ((await link.textContent()) ?? '').trim();

    // The owner accepts, which signs them in.
    const { page, pageErrors } = await suite.open();
    await page.goto(acceptUrl);
    await page.getByLabel('New password').fill(CONSOLE_PASSWORD);
    await page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console navigation' });

    // A search service, and a crawl setting that feeds it every hour.
    await nav.getByRole('link', { name: 'Site search' }).click();
    await page.getByLabel('Name of the new search service').fill('Shop search');
    await page.getByRole('button', { name: 'Create search service' }).click();
    await page.getByRole('link', { name: 'Shop search' }).waitFor();
    await nav.getByRole('link', { name: 'Crawl settings' }).click();
    await page.getByRole('link', { name: 'New setting' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shop, hourly');
    await page.getByLabel('Search service').selectOption({ label: 'Shop search' });
    await page.getByLabel('Seed URLs').fill(`${shop.baseUrl}/`);
    await page.getByLabel('How often').selectOption({ label: 'Every hour' });
    await page.getByLabel('Minute').selectOption('0');
    await page.locator('.next-runs li').nth(4).waitFor();
    await page.getByRole('button', { name: 'Create setting' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();

    // The hour comes: the scheduler starts the run, which feeds the search service.
    const contracts = await suite.operator('GET', '/contracts');
    const contractId = contracts.json.contracts.find(
      (one: { name: string }) => one.name === 'Tomato Shop',
    ).id;
    const groups = await suite.operator('GET', `/contracts/${contractId}/servicegroups`);
    const group = `/contracts/${contractId}/servicegroups/${groups.json.servicegroups[0].id}`;
    const settings = await suite.operator('GET', `${group}/service_settings`);
    const next = Date.parse(settings.json.service_settings[0].next_run_datetime as string) * 1000;
    suite.clock.offsetMicros = next - Date.now() * 1000 + 1_000_000;
    await nav.getByRole('link', { name: 'Runs' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Shop, hourly' });
    await pollUntil(
      'the scheduled run to end',
      async () => {
        await page.reload();
        return (await row.getByText('Finished').count()) > 0 ? true : undefined;
      },
      60_000,
    );
    const runs = await suite.operator('GET', `${group}/runs`);
    assert.equal(runs.json.runs[0].trigger, 'schedule');

    // The pages are in the index; the owner allows their site and copies the snippet.
    await nav.getByRole('link', { name: 'Site search' }).click();
    await page.getByRole('link', { name: 'Shop search' }).click();
    await page.getByRole('region', { name: 'Index' }).getByText('4', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Allowed origins' }).fill(ownersSite.baseUrl);
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByRole('status').getByText('Saved. The next search uses it.').waitFor();
    snippet =
      (await page
        .getByRole('region', { name: 'Put search on your site' })
        .locator('pre')
        .first()
        .textContent()) ?? '';
    assert.match(
      snippet,
      /<script src="http:\/\/127\.0\.0\.1:\d+\/widget\/v1\/kumo-search\.js" data-service="\d+\/\d+\/\d+" defer><\/script>/,
    );
    assert.deepEqual(pageErrors, []);

    // A visitor of the owner's own page searches it.
    const visitor = await suite.open();
    await visitor.page.goto(`${ownersSite.baseUrl}/`);
    const input = visitor.page.locator('[part~="input"]');
    await input.fill('tomato');
    await input.press('Enter');
    await visitor.page.getByText('Cherry tomato seeds').first().waitFor({ timeout: 15_000 });
    await visitor.page.getByText('Watering tomatoes in summer').first().waitFor();
    assert.deepEqual(visitor.pageErrors, []);
  });
});
