/**
 * The crawl settings page in real Chromium against a real `kumo serve` (docs/console.md, Crawl
 * settings): the list shows each setting's seeds, its schedule in words and the next run in the
 * service's time zone; an editor runs one now (a real crawl of a fixture site on loopback) and
 * deletes one after confirming; a viewer has no change control and the API refuses the viewer.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite();
let site: LocalServer;

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Page ${request.url}</title><p>Hello from ${request.url}</p>`);
    }),
    '127.0.0.4',
  );
});

after(async () => {
  await site?.close();
});

async function createSetting(groupPath: string, name: string): Promise<number> {
  const answer = await suite.operator('POST', `${groupPath}/service_settings`, {
    name,
    setting: { seed_urls: [`${site.baseUrl}/`, `${site.baseUrl}/about`], documents_limit: 2 },
    schedule: { interval: 2, min: 30, hour: 4 },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return answer.json.service_setting_id as number;
}

describe('console crawl settings', () => {
  test('an editor reads the list, runs a setting now and deletes one after confirming', async () => {
    const tenant = await suite.tenant('crawls');
    const settingId = await createSetting(tenant.groupPath, 'Docs site');
    await createSetting(tenant.groupPath, 'Old blog');
    await suite.account(tenant.contractId, 'editor@crawls.example', 'editor');
    const { page, pageErrors } = await suite.signIn('editor@crawls.example');
    await page
      .getByRole('navigation', { name: 'Console navigation' })
      .getByRole('link', { name: 'Crawl settings' })
      .click();
    const row = page.getByRole('row').filter({ hasText: 'Docs site' });
    await row.getByText('Every day at 04:30').waitFor();
    await row.getByText('and 1 more').waitFor();
    const shown = await suite.operator('GET', `${tenant.groupPath}/service_settings/${settingId}`);
    const next = shown.json.service_setting.next_run_datetime as string;
    await row.getByText(`${next.slice(0, 10)} ${next.slice(11, 16)}`).waitFor();
    await assertAccessible(page, 'the crawl settings page');

    await row.getByRole('button', { name: 'Run now: Docs site' }).click();
    const notice = page.getByText(/^Run \d+ of "Docs site" started\.$/);
    await notice.waitFor();
    const runId = Number(/Run (\d+)/.exec((await notice.textContent()) ?? '')![1]);
    const histories = await pollUntil('the run to finish', async () => {
      const answer = await suite.operator('GET', `${tenant.groupPath}/service_settings/${settingId}`);
      return answer.json.service_setting.active_run_id === null ? answer : undefined;
    });
    assert.equal(histories.status, 200);
    assert.ok(runId > 0);

    await page.getByRole('button', { name: 'Delete: Old blog' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this crawl setting?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('row').filter({ hasText: 'Old blog' }).waitFor({ state: 'detached' });
    const left = await suite.operator('GET', `${tenant.groupPath}/service_settings`);
    assert.deepEqual(
      left.json.service_settings.map((setting: { name: string }) => setting.name),
      ['Docs site'],
    );
    assert.deepEqual(pageErrors, []);
  });

  test('a viewer reads the settings without controls, and the API refuses a run', async () => {
    const tenant = await suite.tenant('crawls-viewer');
    const settingId = await createSetting(tenant.groupPath, 'Read only');
    await suite.account(tenant.contractId, 'viewer@crawls.example', 'viewer');
    const { page } = await suite.signIn('viewer@crawls.example', {
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/settings`,
    });
    await page.getByRole('row').filter({ hasText: 'Read only' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Run now|Delete/ }).count(), 0);
    const status = await page.evaluate(
      async ([path, id]) => {
        const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
        const response = await fetch(`/admin/v1${path}/service_settings/${id}/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-kumo-csrf-token': session.csrf_token },
          body: '{}',
        });
        return response.status;
      },
      [tenant.groupPath, settingId] as const,
    );
    assert.equal(status, 403);
  });

  test('Japanese: the schedule in words', async () => {
    const tenant = await suite.tenant('crawls-ja');
    await createSetting(tenant.groupPath, 'ドキュメント');
    await suite.account(tenant.contractId, 'ja@crawls.example', 'viewer');
    const { page } = await suite.signIn('ja@crawls.example', {
      locale: 'ja-JP',
      path: `/contracts/${tenant.contractId}/groups/${tenant.groupId}/settings`,
    });
    await page.getByRole('heading', { name: 'クロール設定' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'ドキュメント' }).getByText('毎日 04:30').waitFor();
  });
});
