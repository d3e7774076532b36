/**
 * The crawl setting editor in real Chromium against a real `kumo serve` (docs/console.md, Setting
 * editor): a person creates a setting field by field, sees the API's own reasons inline while
 * typing, tests URLs against the patterns, previews the schedule's next five runs and saves; an
 * existing setting with every field set survives an edit unchanged; a schedule is paused and
 * resumed from the list; a viewer reads the editor and uses the tester but cannot change anything.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAccessible, consoleSuite } from '../support/console-suite.js';
import { pollUntil } from '../support/service-harness.js';

const suite = consoleSuite({ overrides: { timezone: 'Asia/Tokyo' } });
const SITE = 'http://127.0.0.5:8081';

const settingsPath = (tenant: { contractId: number; groupId: number }) =>
  `/contracts/${tenant.contractId}/groups/${tenant.groupId}/settings`;

describe('console setting editor', () => {
  test('an editor creates a setting with inline errors, the pattern tester and the schedule preview', async () => {
    const tenant = await suite.tenant('editor-new');
    await suite.operator('POST', `${tenant.groupPath}/search_services`, { name: 'Site search', config: {} });
    await suite.account(tenant.contractId, 'editor@new.example', 'editor');
    const { page, pageErrors } = await suite.signIn('editor@new.example', { path: settingsPath(tenant) });
    await page.getByRole('link', { name: 'New setting' }).click();
    await page.getByRole('heading', { name: 'New crawl setting' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Docs nightly');
    const seeds = page.getByLabel('Seed URLs');
    await seeds.fill(`${SITE}/docs/\nftp://files.example/`);
    // The reason shown is the one the API gives for the same body.
    const refused = await suite.operator('POST', `${tenant.groupPath}/service_settings/check`, {
      name: 'Docs nightly',
      setting: { seed_urls: [`${SITE}/docs/`, 'ftp://files.example/'] },
      schedule: { interval: 2, min: 0, hour: 3 },
      service_id: null,
    });
    assert.equal(refused.status, 400);
    const reason = refused.json.errors.find((error: { field: string }) =>
      error.field.endsWith('seed_urls[1]'),
    ).reason;
    const seedError = page.locator('#setting-seeds-error');
    await seedError.getByText(`ftp://files.example/: ${reason}`).waitFor();
    assert.equal(await seeds.getAttribute('aria-invalid'), 'true');
    await seeds.fill(`${SITE}/docs/`);
    await seedError.waitFor({ state: 'detached' });

    await page.getByLabel('Deny patterns').fill('/private/');
    await page.getByLabel('Depth limit').fill('three');
    await page.locator('#setting-depth-error').getByText('must be integer').waitFor();
    await page.getByLabel('Depth limit').fill('3');
    await page.locator('#setting-depth-error').waitFor({ state: 'detached' });

    await page
      .getByLabel('URLs to test')
      .fill(`${SITE}/docs/intro\n${SITE}/private/keys\nhttp://other.example/`);
    const verdicts = page.locator('.verdict');
    await verdicts.nth(2).waitFor();
    assert.deepEqual(await verdicts.locator('.verdict-text').allTextContents(), [
      'Crawled (a seed’s site)',
      'Not crawled: a deny pattern matches (pattern /private/)',
      'Not crawled: outside the allowed URLs',
    ]);

    await page.getByLabel('How often').selectOption({ label: 'Every week' });
    await page.getByLabel('Day of the week').selectOption({ label: 'Monday' });
    await page.getByLabel('Hour').selectOption('6');
    await page.getByLabel('Minute').selectOption('15');
    // Sitemaps are read by default once the setting feeds a search service, and stay the default.
    const sitemaps = page.getByLabel('Read the sites’ sitemaps (those robots.txt names, else /sitemap.xml)');
    assert.equal(await sitemaps.isChecked(), false);
    await page.getByLabel('Search service').selectOption({ label: 'Site search' });
    assert.equal(await sitemaps.isChecked(), true);
    const runs = page.getByRole('list', { name: 'Next runs (Asia/Tokyo)' }).getByRole('listitem');
    await pollUntil('five runs at 06:15', async () => {
      const texts = await runs.locator('time').allTextContents();
      return texts.length === 5 && texts.every((text) => text.endsWith(' 06:15')) ? texts : undefined;
    });
    const shownRuns = await runs
      .locator('time')
      .evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
    for (const run of shownRuns) {
      assert.match(run ?? '', /T06:15:00\.000000\+09:00$/);
      // A Monday in Tokyo.
      assert.equal(new Date(Date.parse(run!) + 9 * 3600_000).getUTCDay(), 1, run);
    }
    await assertAccessible(page, 'the setting editor');

    await page.getByRole('button', { name: 'Create setting' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const id = Number(/\/settings\/(\d+)/.exec(page.url())![1]);
    const stored = await suite.operator('GET', `${tenant.groupPath}/service_settings/${id}`);
    const services = await suite.operator('GET', `${tenant.groupPath}/search_services`);
    assert.equal(stored.json.service_setting.name, 'Docs nightly');
    assert.deepEqual(stored.json.service_setting.setting, {
      seed_urls: [`${SITE}/docs/`],
      deny_urls_patterns: ['/private/'],
      depth_limit: 3,
    });
    assert.deepEqual(stored.json.service_setting.schedule, { interval: 3, min: 15, hour: 6, day_of_week: 1 });
    assert.equal(stored.json.service_setting.service_id, services.json.search_services[0].id);
    await page.getByRole('heading', { name: 'Crawl setting: Docs nightly' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  test('a setting with every field set is shown field by field and saved back unchanged', async () => {
    const tenant = await suite.tenant('editor-full');
    const setting = {
      version: '1',
      seed_urls: [`${SITE}/`, `${SITE}/news/`],
      allow_urls_patterns: ['^http://127\\.0\\.0\\.5:8081/'],
      deny_urls_patterns: ['\\.zip$', '/search\\?'],
      depth_limit: 4,
      documents_limit: 500,
      crawl_file: { pdf: 1, ms_office: 1 },
      request_fingerprint: { keep_query: 0, keep_fragment: 1 },
      user_agent: 'ExampleBot/2.0',
      language: 'ja,en;q=0.8',
      robots_txt: false,
      base_concurrent_requests: 4,
      download_delay: 0.5,
      execution_timeout: 7200,
      wait_type: 2,
      authorizations: [
        { type: 'BASIC', url_pattern: '^http://127\\.0\\.0\\.5:8081/', user: 'crawler', password: 's3cret' },
      ],
      crawl_result_collection: { crawl_object: 1, url_list: 1, link_url_list: 0 },
      screenshot: { viewport_width: 1366, viewport_height: 768, render_all: true },
      timezone: 'America/New_York',
      sitemaps: false,
      sitemap_urls: [`${SITE}/sitemap-news.xml`, `${SITE}/sitemap-docs.xml.gz`],
      sitemap_lastmod_skip_days: 14,
    };
    const created = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Everything',
      setting,
      schedule: { interval: 4, min: 5, hour: 23, day_of_month: 31 },
    });
    const id = created.json.service_setting_id as number;
    const before = await suite.operator('GET', `${tenant.groupPath}/service_settings/${id}`);
    await suite.account(tenant.contractId, 'editor@full.example', 'editor');
    const { page } = await suite.signIn('editor@full.example', { path: `${settingsPath(tenant)}/${id}` });
    await page.getByRole('heading', { name: 'Crawl setting: Everything' }).waitFor();
    assert.equal(await page.getByLabel('Seed URLs').inputValue(), `${SITE}/\n${SITE}/news/`);
    assert.equal(await page.getByLabel('Delay between requests to one host (seconds)').inputValue(), '0.5');
    assert.equal(await page.getByLabel('How pages are taken').inputValue(), '2');
    assert.equal(await page.getByLabel('Obey robots.txt and robots directives').isChecked(), false);
    assert.equal(
      await page
        .getByLabel('Read the sites’ sitemaps (those robots.txt names, else /sitemap.xml)')
        .isChecked(),
      false,
    );
    assert.equal(
      await page.getByLabel('More sitemaps').inputValue(),
      `${SITE}/sitemap-news.xml\n${SITE}/sitemap-docs.xml.gz`,
    );
    assert.equal(await page.getByLabel('Trust sitemap lastmod for up to (days)').inputValue(), '14');
    assert.equal(await page.getByLabel('Password').inputValue(), '********');
    assert.equal(await page.getByLabel('Day of the month').inputValue(), '31');
    await page.getByRole('list', { name: 'Next runs (Asia/Tokyo)' }).waitFor();
    await assertAccessible(page, 'the setting editor with every field');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const after = await suite.operator('GET', `${tenant.groupPath}/service_settings/${id}`);
    assert.deepEqual(after.json.service_setting.setting, before.json.service_setting.setting);
    assert.deepEqual(after.json.service_setting.schedule, before.json.service_setting.schedule);
    // The password was kept: the stored one, not the ******** the page showed.
    const stored = (await suite.kumo.service.store.serviceSettings.get(id))!;
    assert.equal(stored.setting.authorizations?.[0]?.password, 's3cret');
  });

  test('pause and resume from the list; a viewer reads the editor, tests URLs and changes nothing', async () => {
    const tenant = await suite.tenant('editor-pause');
    const created = await suite.operator('POST', `${tenant.groupPath}/service_settings`, {
      name: 'Weekly',
      setting: { seed_urls: [`${SITE}/`] },
      schedule: { interval: 3, min: 0, hour: 2, day_of_week: 0 },
    });
    const id = created.json.service_setting_id as number;
    await suite.account(tenant.contractId, 'editor@pause.example', 'editor');
    const editor = await suite.signIn('editor@pause.example', { path: settingsPath(tenant) });
    await editor.page.getByRole('button', { name: 'Pause schedule: Weekly' }).click();
    await editor.page.getByText('The schedule of "Weekly" is paused; Run now still works.').waitFor();
    const row = editor.page.getByRole('row').filter({ hasText: 'Weekly' });
    await row.getByText('Paused').waitFor();
    const paused = await suite.operator('GET', `${tenant.groupPath}/service_settings/${id}`);
    assert.notEqual(paused.json.service_setting.paused_datetime, null);
    assert.equal(paused.json.service_setting.next_run_datetime, null);
    await row.getByRole('button', { name: 'Resume schedule: Weekly' }).click();
    await row.getByRole('button', { name: 'Pause schedule: Weekly' }).waitFor();
    const resumed = await suite.operator('GET', `${tenant.groupPath}/service_settings/${id}`);
    assert.equal(resumed.json.service_setting.paused_datetime, null);

    await suite.account(tenant.contractId, 'viewer@pause.example', 'viewer');
    const { page } = await suite.signIn('viewer@pause.example', {
      locale: 'ja-JP',
      path: `${settingsPath(tenant)}/${id}`,
    });
    await page.getByRole('heading', { name: 'クロール設定: Weekly' }).waitFor();
    assert.equal(await page.getByLabel('シード URL').isDisabled(), true);
    assert.equal(await page.getByLabel('サイトマップの lastmod を信頼する日数').isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: /保存/ }).count(), 0);
    await page
      .getByRole('list', { name: '次回以降の実行（Asia/Tokyo）' })
      .getByRole('listitem')
      .nth(4)
      .waitFor();
    await page.getByLabel('テストする URL').fill(`${SITE}/a.pdf`);
    await page.getByText('クロールされません: この設定が除くファイル種別').waitFor();
    await assertAccessible(page, 'the setting editor for a viewer');
    const refused = await page.evaluate(
      async ([path, settingId]) => {
        const session = (await (await fetch('/admin/v1/session')).json()) as { csrf_token: string };
        const response = await fetch(`/admin/v1${path}/service_settings/${settingId}/pause`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-kumo-csrf-token': session.csrf_token },
          body: '{}',
        });
        return response.status;
      },
      [tenant.groupPath, id] as const,
    );
    assert.equal(refused, 403);
  });
});
