/**
 * Ids in paths and query strings are decimal digits only (docs/reference/conventions.md, Requests):
 * an exponent (`1e3`, which number coercion reads as 1000), a sign, spaces, hex, a fraction or a
 * leading zero is a 400 naming the parameter, on every id-bearing endpoint, instead of being read
 * as another id.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertNg } from '../support/api-assertions.js';
import {
  downloadPathOf,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.close();
});

/** Not ids, though number coercion would read most of them as one. */
const NOT_IDS = ['1e3', '1E0', '+1', '-1', ' 1', '1 ', '0x1', '1.0', '1.5', '01', '0', '', 'abc'];

const KEY = () => ({ 'x-mf-apikey': service.apiKey });
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

async function assertIdRefused(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  field: string,
  bad: string,
): Promise<void> {
  const response = await service.inject({ method, url, headers });
  assertNg(response, 400);
  assert.equal(response.json.errors[0].field, field, `${method} ${url}: ${response.body}`);
  assert.equal(response.json.message, `${field}: "${bad}" is not a decimal integer id`, `${method} ${url}`);
}

test('instant crawl histories: instant_crawl_request_id in the query', async () => {
  for (const bad of NOT_IDS) {
    const url = `${service.tenant.crawlerPath}/histories?instant_crawl_request_id=${encodeURIComponent(bad)}`;
    await assertIdRefused('GET', url, KEY(), 'query.instant_crawl_request_id', bad);
  }
  // A decimal id is read as given.
  const good = await service.inject({
    method: 'GET',
    url: `${service.tenant.crawlerPath}/histories?instant_crawl_request_id=1000`,
    headers: KEY(),
  });
  assert.equal(good.statusCode, 200, good.body);
  assert.deepEqual(good.json.crawl_histories, []);
});

test('instant crawl statuses: every entry of instant_crawl_request_ids', async () => {
  for (const raw of ['1e3', '1,1e3', '1, 2', ' 1', '+1', '1,0x2', '1,2.0']) {
    const response = await service.inject({
      method: 'GET',
      url: `${service.tenant.crawlerPath}/statuses?instant_crawl_request_ids=${encodeURIComponent(raw)}`,
      headers: KEY(),
    });
    assertNg(response, 400);
    assert.equal(response.json.errors[0].field, 'query.instant_crawl_request_ids', raw);
    assert.match(response.json.message, /^instant_crawl_request_ids: ".*" is not a decimal integer id$/, raw);
  }
});

test('instant crawl cancel and download: the request id in the path', async () => {
  for (const bad of NOT_IDS.filter((id) => id.trim() === id && id !== '')) {
    const id = encodeURIComponent(bad);
    await assertIdRefused(
      'PUT',
      `${service.tenant.crawlerPath}/statuses/requests/${id}/cancel`,
      KEY(),
      'path.instant_crawl_request_id',
      bad,
    );
    await assertIdRefused(
      'GET',
      downloadPathOf(service.tenant, 1, 'url_list.csv.gz').replace('/1/url_list', `/${id}/url_list`),
      KEY(),
      'path.instant_crawl_request_id',
      bad,
    );
  }
});

test('scheduled crawler histories, settings and schedule: the setting id in the path', async () => {
  const base = '/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings';
  for (const bad of ['1e0', '+1', '0x1', '1.0', '01']) {
    for (const leaf of [
      'histories?from_datetime=2024-01-01T00:00:00Z&to_datetime=2030-01-01T00:00:00Z',
      'settings',
      'schedule',
    ]) {
      await assertIdRefused(
        'GET',
        `${base}/${encodeURIComponent(bad)}/${leaf}`,
        {},
        'path.service_setting_id',
        bad,
      );
    }
  }
  const good = await service.inject({ method: 'GET', url: `${base}/1/settings` });
  assert.equal(good.statusCode, 200, good.body);
});

test('management API: contract, service group, setting, search service, webhook and key ids', async () => {
  const group = '/admin/v1/contracts/1/servicegroups/1';
  for (const bad of ['1e0', '+1', '0x1', '1.0', '01']) {
    const id = encodeURIComponent(bad);
    const cases: [string, string, 'GET' | 'POST' | 'DELETE'][] = [
      [`/admin/v1/contracts/${id}`, 'path.contract_id', 'GET'],
      [`/admin/v1/contracts/1/servicegroups/${id}`, 'path.servicegroup_id', 'GET'],
      [`${group}/service_settings/${id}`, 'path.service_setting_id', 'GET'],
      [`${group}/service_settings/${id}/run`, 'path.service_setting_id', 'POST'],
      [`${group}/search_services/${id}`, 'path.service_id', 'GET'],
      [`${group}/webhooks/${id}`, 'path.webhook_id', 'GET'],
      [`${group}/webhooks/1/deliveries/${id}/replay`, 'path.delivery_id', 'POST'],
      [`${group}/api_keys/${id}`, 'path.api_key_id', 'DELETE'],
    ];
    for (const [url, field, method] of cases) await assertIdRefused(method, url, ADMIN, field, bad);
  }
});
