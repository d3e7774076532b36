/**
 * What a new user meets first in the console, in real Chromium against a real `kumo serve`
 * (docs/console.md): the users and audit log pages keep the whole navigation and the service
 * group; the invitation's roles read as the table does; the run page speaks Japanese, its message
 * included, with badges and dates on one line; an operator's page loads meet no refusal; and an
 * invited person lands signed in.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CONSOLE_ADMIN_TOKEN, CONSOLE_PASSWORD, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const links = request.url === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : '';
      response.end(`<!doctype html><title>Page ${request.url}</title><h1>Tomato ${request.url}</h1>${links}`);
    }),
    '127.0.0.47',
  );
});
after(async () => {
  await site?.close();
});

const navigation = (page: Page) =>
  page.getByRole('navigation', { name: /^(Console navigation|コンソールのナビゲーション)$/ });
const navEntries = async (page: Page) =>
  (await navigation(page).getByRole('link').allTextContents()).map((text) => text.trim());

describe('console first contact', () => {
  test('the users and audit log pages keep the whole navigation and the service group', async () => {
    const tenant = await suite.tenant('first-nav');
    const second = await suite.operator('POST', `/contracts/${tenant.contractId}/servicegroups`, {
      name: 'second',
    });
    const secondId = second.json.servicegroup_id as number;
    await suite.account(tenant.contractId, 'owner@first-nav.example', 'owner');
    const { page, pageErrors } = await suite.signIn('owner@first-nav.example', {
      path: `/contracts/${tenant.contractId}/groups/${secondId}`,
    });
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const groupPicker = page.getByRole('combobox', { name: 'Service group' });
    // The heading can come before the list of service groups the picker offers.
    await groupPicker.locator(`option[value="${secondId}"]`).waitFor({ state: 'attached' });
    assert.equal(await groupPicker.inputValue(), String(secondId));
    const groupEntries = await navEntries(page);
    assert.ok(groupEntries.includes('Runs') && groupEntries.includes('Users'), groupEntries.join(', '));

    await navigation(page).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    assert.deepEqual(await navEntries(page), groupEntries, 'the users page keeps every entry');
    assert.equal(await groupPicker.inputValue(), String(secondId), 'and the group the user came from');
    await navigation(page).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    assert.deepEqual(await navEntries(page), groupEntries);
    assert.equal(await groupPicker.inputValue(), String(secondId));
    // The group's entries lead back to that group.
    await navigation(page).getByRole('link', { name: 'Runs' }).click();
    await page.waitForURL(new RegExp(`/groups/${secondId}/runs$`));

    // Opened directly in a new tab, the users page stands beside the contract's first group.
    const fresh = await suite.signIn('owner@first-nav.example', {
      path: `/contracts/${tenant.contractId}/users`,
    });
    await fresh.page.getByRole('heading', { name: 'Users' }).waitFor();
    await navigation(fresh.page).getByRole('link', { name: 'Runs' }).waitFor();
    assert.equal(
      await fresh.page.getByRole('combobox', { name: 'Service group' }).inputValue(),
      String(tenant.groupId),
    );
    assert.equal(await fresh.page.getByRole('option', { name: '—' }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  test('the invitation form names the roles as the users table does, in English and Japanese', async () => {
    const tenant = await suite.tenant('first-roles');
    await suite.account(tenant.contractId, 'owner@first-roles.example', 'owner');
    const { page } = await suite.signIn('owner@first-roles.example', {
      path: `/contracts/${tenant.contractId}/users`,
    });
    const roles = page.getByLabel('Role', { exact: true });
    await roles.waitFor();
    assert.deepEqual(await roles.locator('option').allTextContents(), ['Viewer', 'Editor', 'Owner']);
    assert.equal(await roles.inputValue(), 'editor');
    await page.getByRole('cell', { name: 'owner@first-roles.example', exact: true }).waitFor();

    const ja = await suite.signIn('owner@first-roles.example', {
      path: `/contracts/${tenant.contractId}/users`,
      locale: 'ja-JP',
    });
    const jaRoles = ja.page.getByLabel('ロール', { exact: true });
    await jaRoles.waitFor();
    assert.deepEqual(await jaRoles.locator('option').allTextContents(), ['閲覧者', '編集者', 'オーナー']);
    await ja.page.getByText('閲覧者はすべてを閲覧').waitFor();
  });

  test('a run page in Japanese: the way back reads as the runs, the message is said in Japanese, badges and dates stay on one line', async () => {
    const tenant = await suite.tenant('first-ja-run');
    const created = await suite.operator('POST', `${tenant.groupPath}/search_services`, { name: 'Tomatoes' });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const serviceId = (await suite.operator('GET', `${tenant.groupPath}/search_services`)).json
      .search_services[0].id as number;
    const setting = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Tomatoes',
      setting: { seed_urls: [`${site.baseUrl}/`] },
      schedule: { interval: 0 },
      service_id: serviceId,
    });
    const settingId = setting.json.service_setting_id as number;
    const started = await suite.operator('POST', `${tenant.groupPath}/service_settings/${settingId}/run`);
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const run = await pollUntil(
      'the run to end with its feed',
      async () => {
        const runs = await suite.operator('GET', `${tenant.groupPath}/runs?kind=scheduled`);
        const found = runs.json.runs[0];
        return found !== undefined && found.crawl_execution_status_dtype_id === 2030 ? found : undefined;
      },
      60_000,
    );
    // The API keeps its English message and adds its parts by code and values.
    assert.ok(
      run.message.endsWith(
        `search service ${serviceId}: 3 new, 0 changed, 0 unchanged, 0 removed, 0 skipped`,
      ),
      run.message,
    );
    assert.deepEqual(run.message_parts.at(-1), {
      code: 'search_feed',
      values: { service_id: serviceId, added: 3, updated: 0, unchanged: 0, removed: 0, skipped: 0 },
    });

    await suite.account(tenant.contractId, 'viewer@first-ja-run.example', 'viewer');
    const { page, pageErrors } = await suite.signIn('viewer@first-ja-run.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/runs/${run.id}`,
      locale: 'ja-JP',
      viewport: { width: 420, height: 900 },
    });
    await page.getByRole('heading', { name: `実行 ${run.id}` }).waitFor();
    const back = page.locator('.page-actions').getByRole('link', { name: '実行履歴' });
    await back.first().waitFor();
    await page
      .getByText(`検索サービス ${serviceId}: 新規 3 件、変更 0 件、変更なし 0 件、削除 0 件、スキップ 0 件`)
      .waitFor();
    assert.equal(await page.getByText(/search service \d+: 3 new/).count(), 0, 'no English message left');

    await back.first().click();
    await page.getByRole('heading', { name: '実行履歴' }).waitFor();
    const badge = page.locator('table .badge').first();
    await badge.waitFor();
    const date = page.locator('table time.date-time').first();
    for (const [what, element] of [
      ['the state badge', badge],
      ['a date', date],
    ] as const) {
      // Runs in the page: the browser's own computed style and client rects (one per line box of
      // an inline element; an inline-block's one rect is as tall as its lines).
      const box = await element.evaluate((node) => {
        type Style = { whiteSpace: string; fontSize: string };
        const view = globalThis as unknown as { getComputedStyle(element: unknown): Style };
        const rects = (node as unknown as { getClientRects(): { height: number }[] }).getClientRects();
        const style = view.getComputedStyle(node);
        const oneLineHigh = rects[0]!.height < 2 * parseFloat(style.fontSize);
        return { whiteSpace: style.whiteSpace, lines: rects.length, oneLineHigh };
      });
      assert.deepEqual(
        box,
        { whiteSpace: 'nowrap', lines: 1, oneLineHigh: true },
        `${what} stays on one line`,
      );
    }
    assert.deepEqual(pageErrors, []);
  });

  test("an operator's page loads meet no refused request and no console error", async () => {
    const tenant = await suite.tenant('first-operator');
    const { page, pageErrors } = await suite.open();
    await page.goto(suite.url('/operator'));
    await page.getByText('Operator? Sign in with the admin token').click();
    await page.getByLabel('Admin token').fill(CONSOLE_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in as the operator' }).click();
    await page.waitForURL(/\/console\/operator$/);

    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    const addresses = [
      '/operator',
      `/contracts/${tenant.contractId}/groups/${tenant.groupId}`,
      `/contracts/${tenant.contractId}/users`,
      `/contracts/${tenant.contractId}/audit`,
    ];
    for (const address of addresses) {
      await page.goto(suite.url(address));
      await page.locator('.shell').waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(refused, []);
    assert.deepEqual(pageErrors, []);
    const session = await page.evaluate(
      async () => (await (await fetch('/admin/v1/session')).json()) as { operator: boolean; account: null },
    );
    assert.equal(session.operator, true);
    assert.equal(session.account, null);
  });

  test('accepting an invitation lands the new user signed in on the console', async () => {
    const tenant = await suite.tenant('first-invite');
    const acceptUrl = await suite.invite(tenant.contractId, 'new.person@first-invite.example', 'editor');
    const { page, context, pageErrors } = await suite.open();
    await page.goto(acceptUrl);
    await page.getByLabel('New password').fill(CONSOLE_PASSWORD);
    await page.getByLabel('Repeat the password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.match(page.url(), new RegExp(`/console/contracts/${tenant.contractId}/groups/${tenant.groupId}$`));
    await page.getByRole('link', { name: 'new.person@first-invite.example' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 0);
    const cookies = await context.cookies();
    assert.ok(
      cookies.find((cookie) => cookie.name === 'kumo_session')?.httpOnly,
      'an HttpOnly session cookie',
    );
    // The token is spent and gone from the address.
    assert.doesNotMatch(page.url(), /token=/);
    assert.deepEqual(pageErrors, []);

    // The invitation works once: a second acceptance is refused, naming the field.
    const again = await page.evaluate(
      async (token) => {
        const answer = await fetch('/admin/v1/invitations/accept', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, password: 'another long enough passphrase' }),
        });
        return { status: answer.status, body: (await answer.json()) as { errors: { field: string }[] } };
      },
      new URLSearchParams(new URL(acceptUrl).hash.slice(1)).get('token'),
    );
    assert.equal(again.status, 400);
    assert.equal(again.body.errors[0]?.field, 'body.token');
  });
});
