/**
 * GET …/search_services/{id}/analytics through the management API on a real service: the default
 * period (the last 30 days, every day present), a chosen period, the field errors of a bad one,
 * and a service of another service group not found.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type InjectResult, startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-analytics-0123456789';
let kumo: TestService;
let service: string;
let foreign: string;

before(async () => {
  kumo = await startTestService({ overrides: { adminToken: ADMIN_TOKEN } });
  const mine = await kumo.createTenant('analytics');
  const theirs = await kumo.createTenant('elsewhere');
  const group = (t: { contractId: number; servicegroupId: number }) =>
    `/admin/v1/contracts/${t.contractId}/servicegroups/${t.servicegroupId}`;
  const created = await admin('POST', `${group(mine)}/search_services`, { name: 'site' });
  service = `${group(mine)}/search_services/${created.json.service_id as number}`;
  const other = await admin('POST', `${group(theirs)}/search_services`, { name: 'other' });
  foreign = `${group(mine)}/search_services/${other.json.service_id as number}`;
});
after(async () => {
  await kumo?.close();
});

function admin(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<InjectResult> {
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

describe('search analytics API', () => {
  test('the default period is the last 30 days, every one present, and a chosen period is kept', async () => {
    const report = await admin('GET', `${service}/analytics`);
    assert.equal(report.statusCode, 200, report.body);
    assert.equal(report.json.days.length, 30);
    assert.equal(report.json.days.at(-1).day, report.json.to);
    assert.deepEqual(report.json.totals, { searches: 0, no_results: 0, clicks: 0, click_through_rate: 0 });
    const chosen = await admin('GET', `${service}/analytics?from=2026-02-27&to=2026-03-02`);
    assert.deepEqual(
      chosen.json.days.map((day: { day: string }) => day.day),
      ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
    );
  });

  test('a bad period is a 400 naming the field; another group’s service is a 404', async () => {
    for (const [query, field] of [
      ['from=yesterday', 'query.from'],
      ['to=2026-13-01', 'query.to'],
      ['from=2026-03-02&to=2026-03-01', 'query.from'],
      ['from=2024-01-01&to=2026-01-01', 'query.from'],
    ] as const) {
      const answer = await admin('GET', `${service}/analytics?${query}`);
      assert.equal(answer.statusCode, 400, query);
      assert.equal(answer.json.errors[0].field, field, query);
    }
    assert.equal((await admin('GET', `${foreign}/analytics`)).statusCode, 404);
    assert.equal((await admin('GET', `${foreign}/analytics.csv`)).statusCode, 404);
    const csv = await admin('GET', `${service}/analytics.csv?from=2026-03-01&to=2026-03-02`);
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.equal(csv.body, '\ufeff"day","query","searches","no_results","clicks","click_through_rate"\r\n');
  });
});
