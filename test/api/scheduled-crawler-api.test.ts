/**
 * The scheduled crawler API: the stored setting and schedule (passwords never shown, since the
 * API has no key), histories with both datetimes required, decimal path ids, tenant paths, and
 * the keyless downloads that answer 404 for anything unknown.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const BASE = '/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings';
const ADMIN = '/admin/v1/contracts/1/servicegroups/1';
let kumo: TestService;
let settingId: number;

const SETTING = {
  seed_urls: ['http://127.0.0.1:9/'],
  authorizations: [{ type: 'BASIC', user: 'editor', password: 'open-sesame' }],
};
const SCHEDULE = { interval: 3, day_of_week: 0, hour: 4, min: 15 };

before(async () => {
  kumo = await startTestService();
  const created = await kumo.inject({
    method: 'POST',
    url: `${ADMIN}/service_settings`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { setting: SETTING, schedule: SCHEDULE, service_id: 1 },
  });
  assert.equal(created.statusCode, 200, created.body);
  settingId = created.json.service_setting_id as number;
});

after(() => kumo?.close());

test('settings answers the stored crawler setting with passwords redacted; schedule the schedule', async () => {
  const settings = await kumo.inject({ method: 'GET', url: `${BASE}/${settingId}/settings` });
  assert.equal(settings.statusCode, 200, settings.body);
  assert.equal(settings.json.status, 'OK');
  assert.deepEqual(settings.json.setting.seed_urls, SETTING.seed_urls);
  assert.deepEqual(settings.json.setting.authorizations, [
    { type: 'BASIC', user: 'editor', password: '********' },
  ]);
  assert.ok(!settings.body.includes('open-sesame'));

  const schedule = await kumo.inject({ method: 'GET', url: `${BASE}/${settingId}/schedule` });
  assert.equal(schedule.statusCode, 200, schedule.body);
  assert.deepEqual(schedule.json.schedule, SCHEDULE);
});

test('path ids must be decimal integers, and the setting must be under the path tenant', async () => {
  for (const id of ['0x2', '2.0', '1e1', '-1', '0', 'abc']) {
    const response = await kumo.inject({ method: 'GET', url: `${BASE}/${id}/schedule` });
    assert.equal(response.statusCode, 400, `${id}: ${response.body}`);
    assert.equal(response.json.errors[0].field, 'path.service_setting_id');
  }
  const other = await kumo.createTenant('other');
  const wrongTenant = await kumo.inject({
    method: 'GET',
    url: `/api/v1.0/crawler_service/contracts/${other.contractId}/servicegroups/${other.servicegroupId}/service_settings/${settingId}/settings`,
  });
  assert.equal(wrongTenant.statusCode, 404);
  assert.equal(wrongTenant.json.status, 'NG');
});

test('histories needs both datetimes, each named when missing or malformed', async () => {
  const cases: [string, string][] = [
    ['', 'query.from_datetime'],
    ['?from_datetime=2026-01-01T00:00:00%2B09:00', 'query.to_datetime'],
    ['?to_datetime=2026-01-01T00:00:00%2B09:00', 'query.from_datetime'],
    ['?from_datetime=yesterday&to_datetime=2026-01-01T00:00:00%2B09:00', 'query.from_datetime'],
  ];
  for (const [query, field] of cases) {
    const response = await kumo.inject({ method: 'GET', url: `${BASE}/${settingId}/histories${query}` });
    assert.equal(response.statusCode, 400, query);
    assert.equal(response.json.status, 'NG');
    assert.ok(
      (response.json.errors as { field: string }[]).some((error) => error.field === field),
      `${query}: ${response.body}`,
    );
  }
  const empty = await kumo.inject({
    method: 'GET',
    url: `${BASE}/${settingId}/histories?from_datetime=2026-01-01T00:00:00+09:00&to_datetime=2027-01-01T00:00:00+09:00`,
  });
  assert.equal(empty.statusCode, 200, empty.body);
  assert.deepEqual(empty.json.contents, []);
});

test('scheduled downloads answer 404 for unknown strings and file names', async () => {
  for (const path of [
    '/crawler/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/url_list.csv.gz',
    '/crawler/short/url_list.csv.gz',
    '/crawler/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/other.csv',
  ]) {
    const response = await kumo.inject({ method: 'GET', url: path });
    assert.equal(response.statusCode, 404, path);
    assert.equal(response.json.status, 'NG');
  }
});

test('a scheduled download of an unknown file name: 404 whose message and reason list the valid names', async () => {
  const reason = 'must be one of "url_list.csv.gz", "crawl_objects.tar.gz", "link_list.csv.gz"';
  for (const path of [
    '/crawler/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/other.csv',
    '/crawler/short/link_list.csv',
  ]) {
    const response = await kumo.inject({ method: 'GET', url: path });
    assert.equal(response.statusCode, 404, path);
    assert.deepEqual(response.json, {
      status: 'NG',
      message: `path.file: ${reason}`,
      errors: [{ field: 'path.file', reason }],
    });
  }
});
