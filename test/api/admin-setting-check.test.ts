/**
 * Checking a crawl service setting without storing it (POST …/service_settings/check and
 * …/service_settings/{id}/check): the same 400 field errors as create and replace, the next five
 * run times in the service's time zone, the pattern tester's verdicts; and pausing / resuming a
 * schedule through the API and `kumo admin`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertNg } from '../support/api-assertions.js';
import { type InjectResult, startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-0123456789';
let kumo: TestService;
let path: string;

before(async () => {
  kumo = await startTestService({ overrides: { adminToken: ADMIN_TOKEN, timezone: 'Asia/Tokyo' } });
  const tenant = await kumo.createTenant('check');
  path = `/admin/v1/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}/service_settings`;
});
after(async () => {
  await kumo?.close();
});

function admin(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<InjectResult> {
  return kumo.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

const daily = { interval: 2, min: 30, hour: 4 };
const setting = { seed_urls: ['https://docs.example.com/guide/'], deny_urls_patterns: ['/private/'] };

describe('checking a setting without storing it', () => {
  test('bad drafts get exactly the errors create gives, and nothing is stored', async () => {
    const drafts = [
      { setting: { seed_urls: ['ftp://example.com/'] }, schedule: daily },
      { setting: { seed_urls: ['https://example.com/'] }, schedule: { interval: 2, min: 0 } },
      { setting: { seed_urls: [] }, schedule: { interval: 9 } },
      { setting: { ...setting, allow_urls_patterns: ['(unclosed'] }, schedule: daily },
      { setting, schedule: daily, service_id: 999_999 },
      { setting, schedule: daily, extra: 1 },
    ];
    for (const draft of drafts) {
      const created = await admin('POST', path, draft);
      const checked = await admin('POST', `${path}/check`, draft);
      assertNg(created, 400);
      assertNg(checked, 400);
      assert.deepEqual(checked.json.errors, created.json.errors, JSON.stringify(draft));
      assert.equal(checked.json.message, created.json.message);
    }
    const listed = await admin('GET', path);
    assert.deepEqual(listed.json.service_settings, []);
  });

  test('a good draft answers the next five runs in the service time zone', async () => {
    const checked = await admin('POST', `${path}/check`, { setting, schedule: daily });
    assert.equal(checked.statusCode, 200, checked.body);
    const runs = checked.json.next_run_datetimes as string[];
    assert.equal(runs.length, 5);
    for (const run of runs) assert.match(run, /T04:30:00\.000000\+09:00$/);
    const days = runs.map((run) => Date.parse(run));
    const DAY_MS = 86_400_000;
    assert.ok(days[0]! > Date.now() && days[0]! <= Date.now() + DAY_MS, runs[0]);
    for (let i = 1; i < days.length; i++) assert.equal(days[i]! - days[i - 1]!, DAY_MS);
    assert.deepEqual(checked.json.url_checks, []);

    const monthly = { interval: 4, min: 0, hour: 3, day_of_month: 31 };
    const clamped = await admin('POST', `${path}/check`, { setting, schedule: monthly });
    const months = (clamped.json.next_run_datetimes as string[]).map((run) => run.slice(0, 10));
    // Day 31 runs on the last day of the shorter months.
    for (const day of months) {
      const [year, month, date] = day.split('-').map(Number) as [number, number, number];
      assert.equal(date, new Date(Date.UTC(year, month, 0)).getUTCDate(), day);
    }

    const off = await admin('POST', `${path}/check`, { setting, schedule: { interval: 0 } });
    assert.deepEqual(off.json.next_run_datetimes, []);
  });

  test('the pattern tester says which URLs a run crawls and which pattern decided', async () => {
    const query = [
      'https://docs.example.com/guide/intro.html',
      'https://api.docs.example.com/v1',
      'https://docs.example.com/private/keys',
      'https://other.example.org/',
      'https://docs.example.com/manual.pdf',
      'not a url',
      'mailto:someone@example.com',
    ]
      .map((url) => `test_url=${encodeURIComponent(url)}`)
      .join('&');
    const checked = await admin('POST', `${path}/check?${query}`, { setting, schedule: daily });
    assert.equal(checked.statusCode, 200, checked.body);
    assert.deepEqual(
      checked.json.url_checks.map((check: { verdict: string; pattern: string | null }) => [
        check.verdict,
        check.pattern,
      ]),
      [
        ['crawled', null],
        ['crawled', null],
        ['denied', '/private/'],
        ['not_allowed', null],
        ['file_type', null],
        ['not_a_url', null],
        ['not_http', null],
      ],
    );

    const allowed = { ...setting, allow_urls_patterns: ['^https://docs\\.example\\.com/guide/'] };
    const withAllow = await admin(
      'POST',
      `${path}/check?test_url=${encodeURIComponent('https://docs.example.com/guide/a')}&test_url=${encodeURIComponent('https://docs.example.com/blog/')}`,
      { setting: allowed, schedule: daily },
    );
    assert.deepEqual(withAllow.json.url_checks, [
      {
        url: 'https://docs.example.com/guide/a',
        verdict: 'crawled',
        pattern: '^https://docs\\.example\\.com/guide/',
      },
      { url: 'https://docs.example.com/blog/', verdict: 'not_allowed', pattern: null },
    ]);
  });

  test("an existing setting's check keeps its stored password, and viewers' checks of another group are 404", async () => {
    const withPassword = {
      ...setting,
      authorizations: [
        { type: 'BASIC', url_pattern: '^https://docs\\.example\\.com/', user: 'u', password: 'p' },
      ],
    };
    const created = await admin('POST', path, { name: 'docs', setting: withPassword, schedule: daily });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json.service_setting_id as number;
    const shown = await admin('GET', `${path}/${id}`);
    const asShown = shown.json.service_setting;
    assert.equal(asShown.setting.authorizations[0].password, '********');
    const body = { setting: asShown.setting, schedule: asShown.schedule };
    assert.equal((await admin('POST', `${path}/${id}/check`, body)).statusCode, 200);
    // A new setting has no stored password to keep.
    assertNg(await admin('POST', `${path}/check`, body), 400);
    assertNg(await admin('POST', `${path}/999999/check`, body), 404);
  });
});

describe('pausing and resuming a schedule', () => {
  test('pause clears the next run and says when; resume brings it back; both are idempotent', async () => {
    const created = await admin('POST', path, { name: 'paused', setting, schedule: daily });
    const id = created.json.service_setting_id as number;
    const paused = await admin('POST', `${path}/${id}/pause`);
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json.service_setting.next_run_datetime, null);
    assert.match(paused.json.service_setting.paused_datetime, /\+09:00$/);
    const again = await admin('POST', `${path}/${id}/pause`);
    assert.equal(again.json.service_setting.paused_datetime, paused.json.service_setting.paused_datetime);
    // Editing a paused setting keeps it paused.
    const replaced = await admin('PUT', `${path}/${id}`, { setting, schedule: { ...daily, hour: 5 } });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.notEqual(replaced.json.service_setting.paused_datetime, null);

    const resumed = await admin('POST', `${path}/${id}/resume`);
    assert.equal(resumed.statusCode, 200, resumed.body);
    assert.equal(resumed.json.service_setting.paused_datetime, null);
    assert.match(resumed.json.service_setting.next_run_datetime, /T05:30:00\.000000\+09:00$/);
    assert.equal((await admin('POST', `${path}/${id}/resume`)).statusCode, 200);
    assertNg(await admin('POST', `${path}/999999/pause`), 404);

    const contractId = (await kumo.service.store.serviceSettings.get(id))!.contractId;
    const log = await kumo.service.store.audit.list({ contractId, limit: 100 });
    const actions = log.filter((entry) => entry.resourceId === id).map((entry) => entry.action);
    assert.deepEqual(
      actions.filter((action) => action === 'pause' || action === 'resume'),
      ['resume', 'pause'],
      'newest first',
    );
  });
});
