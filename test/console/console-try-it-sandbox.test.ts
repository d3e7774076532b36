/**
 * The console's try-it frame against a hostile crawled page, in real Chromium against a real
 * `kumo serve` (docs/console.md, Site search; docs/security.md, The console's frames): a page of
 * the indexed site, opened from a result in the frame, tries to move the console's tab to another
 * address with a `target="_top"` link and a script; the frame's sandbox keeps the console where
 * it is, and the other address is never loaded.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;
/** Every request the hostile site was sent for its phishing page. */
const phishingLoads: string[] = [];

const HOSTILE_PAGE = (phishingUrl: string) => `<!doctype html><html lang="en">
<title>Tomato prize</title><h1>Tomato prize</h1><p>Every tomato grower wins a prize.</p>
<p><a id="claim" href="${phishingUrl}" target="_top">Claim your prize</a></p>
<script>
  document.addEventListener('click', () => { try { top.location.href = ${JSON.stringify(phishingUrl)}; } catch {} });
</script></html>`;

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      if (request.url === '/phish') {
        phishingLoads.push(request.headers['sec-fetch-dest'] as string);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Sign in to Kumo</title><h1>Sign in to Kumo</h1>');
        return;
      }
      if (request.url !== '/') {
        response.writeHead(404, { 'content-type': 'text/html' });
        response.end('missing');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(HOSTILE_PAGE(`${site.baseUrl}/phish`));
    }),
    '127.0.0.43',
  );
});
after(async () => {
  await site?.close();
});

describe('console try-it sandbox', () => {
  test('a crawled page opened in the try-it frame cannot move the console tab', async () => {
    const tenant = await suite.tenant('try-it-sandbox');
    const created = await suite.operator('POST', `${tenant.groupPath}/search_services`, { name: 'Prizes' });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const listed = await suite.operator('GET', `${tenant.groupPath}/search_services`);
    const serviceId = listed.json.search_services[0].id as number;
    const setting = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Prizes',
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
        return status.json.last_feed !== null && status.json.documents >= 1 ? status : undefined;
      },
      60_000,
    );
    phishingLoads.length = 0;

    await suite.account(tenant.contractId, 'editor@prizes.example', 'editor');
    const consolePath = `/contracts/${tenant.contractId}/groups/${tenant.groupId}/search/${serviceId}`;
    const { page } = await suite.signIn('editor@prizes.example', { path: consolePath });
    await page.getByRole('heading', { name: 'Search service: Prizes' }).waitFor();
    const consoleUrl = page.url();

    const frameElement = page.locator('iframe.try-it');
    const sandbox = ((await frameElement.getAttribute('sandbox')) ?? '').split(/\s+/).sort();
    assert.deepEqual(sandbox, ['allow-forms', 'allow-same-origin', 'allow-scripts']);

    // A search in the frame, and the hostile result opened there.
    const frame = page.frameLocator('iframe.try-it');
    await frame.locator('[part~="input"]').fill('tomato');
    await frame.locator('[part~="input"]').press('Enter');
    await frame.getByRole('link', { name: 'Tomato prize' }).first().click({ timeout: 15_000 });
    const claim = frame.getByRole('link', { name: 'Claim your prize' });
    await claim.waitFor();

    // The link and the script both aim at the console's tab; a second later it has not moved.
    await claim.click();
    await page.waitForTimeout(1_000);
    assert.equal(page.url(), consoleUrl, 'the console tab stays on the console');
    await page.getByRole('heading', { name: 'Search service: Prizes' }).waitFor({ timeout: 1_000 });
    assert.deepEqual(phishingLoads, [], 'the phishing page was never loaded');
  });
});
