/**
 * The operator in the console, in real Chromium against a real `kumo serve` (docs/console.md,
 * Operator pages): signing in with the admin token (a wrong one refused), creating a contract
 * with its first service group, inviting its first owner, who accepts and signs in, the usage of
 * each contract after a crawl, signing out; an account cannot read the operator's usage.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  assertAccessible,
  CONSOLE_ADMIN_TOKEN,
  CONSOLE_PASSWORD,
  consoleSuite,
} from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const links = request.url === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : '';
      response.end(`<!doctype html><title>Page ${request.url}</title><p>hello ${links}</p>`);
    }),
    '127.0.0.12',
  );
});
after(async () => {
  await site?.close();
});

describe('console operator', () => {
  test('the operator signs in with the admin token, creates a contract, invites its owner and reads its usage', async () => {
    const { page, pageErrors } = await suite.open();
    await page.goto(suite.url('/'));
    await page.getByText('Operator? Sign in with the admin token').click();
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in as the operator' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Admin token').fill(CONSOLE_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in as the operator' }).click();
    await page.getByRole('heading', { name: 'Contracts', level: 1 }).waitFor();
    assert.match(page.url(), /\/console\/operator$/);
    const cookies = await page.context().cookies();
    const cookie = cookies.find((one) => one.name === 'kumo_operator');
    assert.ok(cookie?.httpOnly, 'an HttpOnly operator cookie');
    assert.equal(
      cookies.some((one) => one.value.includes(CONSOLE_ADMIN_TOKEN)),
      false,
      'the token is not kept',
    );

    await page.getByLabel('Contract name').fill('Acme Gardens');
    await page.getByLabel('First service group').fill('web');
    await page.getByRole('button', { name: 'Create a contract' }).click();
    await page.getByText('Contract "Acme Gardens" created. Invite its first owner below.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Acme Gardens' });
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(1, 4), ['1', '0', '0']);
    await assertAccessible(page, 'the operator contracts page');

    // The newest contract is chosen for the invitation.
    const chosen = page.getByLabel('Contract', { exact: true });
    assert.match((await chosen.locator('option:checked').textContent()) ?? '', /^Acme Gardens \(\d+\)$/);
    await page.getByLabel('Owner’s email address').fill('owner@acme.example');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = page.getByLabel('Invitation link for owner@acme.example', { exact: true });
    const acceptUrl = ((await link.textContent()) ?? '').trim();
    assert.match(acceptUrl, /\/console\/invitation#token=/);
    await page.getByRole('button', { name: 'Done' }).click();

    const owner = await suite.open();
    await owner.page.goto(acceptUrl);
    await owner.page.getByLabel('New password').fill(CONSOLE_PASSWORD);
    await owner.page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
    await owner.page.getByRole('button', { name: 'Create my account' }).click();
    await owner.page.getByRole('heading', { name: 'Overview' }).waitFor();
    // An account cannot read every contract's usage.
    const refused = await owner.page.evaluate(async () => (await fetch('/admin/v1/contracts/usage')).status);
    assert.equal(refused, 403);

    // A crawl of the new contract shows in its usage.
    const listed = await suite.operator('GET', '/contracts');
    const contractId = listed.json.contracts.find((one: { name: string }) => one.name === 'Acme Gardens').id;
    const groups = await suite.operator('GET', `/contracts/${contractId}/servicegroups`);
    const group = `/contracts/${contractId}/servicegroups/${groups.json.servicegroups[0].id}`;
    const run = await suite.operator('POST', `${group}/runs`, {
      setting: { seed_urls: [`${site.baseUrl}/`] },
    });
    await pollUntil('the crawl to end', async () => {
      const answer = await suite.operator('GET', `${group}/runs/${run.json.run.id}`);
      return answer.json.run.end_datetime !== null ? answer : undefined;
    });
    await page.reload();
    const acme = page.getByRole('row').filter({ hasText: 'Acme Gardens' });
    await acme.waitFor();
    const cells = await acme.getByRole('cell').allTextContents();
    assert.deepEqual(cells.slice(1, 5), ['1', '1', '1', '3']);
    assert.notEqual(cells[5], '0 B', 'its artifacts take space');

    await page.getByRole('link', { name: 'Open Acme Gardens' }).click();
    await page.getByRole('cell', { name: 'owner@acme.example', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/admin/v1/contracts/usage')).status);
    assert.equal(after, 401);
    assert.deepEqual(pageErrors, []);
  });
});
