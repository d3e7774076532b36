/**
 * The management API (/admin/v1) through `app.inject()` on a real service: the bearer token,
 * contracts, service groups and API keys (a created key works on the instant crawl API until it
 * is revoked), crawl service settings and "run now", search services, webhooks and their
 * deliveries, 405s and the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertNg } from '../support/api-assertions.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import {
  crawlerPathOf,
  type InjectResult,
  startTestService,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-0123456789';
const ADMIN = '/admin/v1';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
/** How long the slow fixture server takes to answer: a run of it stays running that long. */
const SLOW_ANSWER_MS = 2000;

let kumo: TestService;
let slow: LocalServer;
/** A tenant created through the API in `before`. */
let tenant: { contractId: number; servicegroupId: number; path: string };
/** Another tenant, created straight in the store. */
let other: TestTenant;

before(async () => {
  slow = await startSlowServer();
  kumo = await startTestService({ overrides: { adminToken: ADMIN_TOKEN } });
  other = await kumo.createTenant('other');
  const contract = await admin('POST', '/contracts', { name: 'acme' });
  assert.equal(contract.statusCode, 200, contract.body);
  const contractId = contract.json.contract_id as number;
  const group = await admin('POST', `/contracts/${contractId}/servicegroups`, { name: 'web' });
  assert.equal(group.statusCode, 200, group.body);
  const servicegroupId = group.json.servicegroup_id as number;
  tenant = {
    contractId,
    servicegroupId,
    path: `/contracts/${contractId}/servicegroups/${servicegroupId}`,
  };
});

after(async () => {
  await kumo?.close();
  await slow?.close();
});

/** A fixture site whose every page answers after SLOW_ANSWER_MS. */
async function startSlowServer(): Promise<LocalServer> {
  const server = createServer((_request, response) => {
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<html><head><title>slow</title></head><body>slow page</body></html>');
    }, SLOW_ANSWER_MS);
    response.on('close', () => clearTimeout(timer));
  });
  return listenLocally(server);
}

/** A call of the admin API; `token: null` sends no Authorization header. */
function admin(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: unknown,
  options: { token?: string | null; authorization?: string } = {},
): Promise<InjectResult> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return kumo.inject({
    method,
    url: `${ADMIN}${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

function assertOk(response: InjectResult): void {
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.json?.status, 'OK', response.body);
  assert.equal(typeof response.json.message, 'string');
}

/** A 400 whose errors name `field` exactly. */
function assertFieldError(response: InjectResult, field: string): void {
  assertNg(response, 400);
  const errors = response.json.errors as { field: string; reason: string }[];
  assert.ok(Array.isArray(errors) && errors.length > 0, `errors expected: ${response.body}`);
  const names = errors.map((error) => error.field);
  assert.ok(names.includes(field), `no error names ${field}: ${JSON.stringify(errors)}`);
}

const daily = { interval: 2, min: 30, hour: 4 };
const crawlSetting = (seed = 'https://www.example.com/') => ({ seed_urls: [seed], documents_limit: 5 });

async function createSearchService(name = 'site', config: object = {}): Promise<number> {
  const response = await admin('POST', `${tenant.path}/search_services`, { name, config });
  assertOk(response);
  return response.json.service_id as number;
}

async function createSetting(body: object): Promise<number> {
  const response = await admin('POST', `${tenant.path}/service_settings`, body);
  assertOk(response);
  assert.equal(typeof response.json.service_setting_id, 'number');
  return response.json.service_setting_id as number;
}

describe('the admin token', () => {
  test('a request without it, with a wrong one or another scheme is 401 invalid_admin_token', async () => {
    for (const options of [
      { token: null },
      { token: 'wrong-token' },
      { token: `${ADMIN_TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
      { authorization: ADMIN_TOKEN },
    ]) {
      const response = await admin('GET', '/contracts', undefined, options);
      assertNg(response, 401);
      assert.match(response.json.message, /Bearer/);
      assert.match(String(response.headers['www-authenticate']), /^Bearer/);
    }
  });

  test('is checked before validation: a bad body or path id without the token is 401, not 400', async () => {
    assertNg(await admin('POST', '/contracts', { nonsense: true }, { token: null }), 401);
    assertNg(await admin('GET', '/contracts/abc', undefined, { token: 'wrong' }), 401);
    assertNg(await admin('GET', `/contracts/${tenant.contractId}`, undefined, { token: null }), 401);
  });

  test('an API key of the instant crawl API is not an admin token', async () => {
    assertNg(await admin('GET', '/contracts', undefined, { token: kumo.apiKey }), 401);
  });

  test('with the token a request passes, also with a lower-case scheme', async () => {
    assertOk(await admin('GET', '/contracts'));
    assertOk(await admin('GET', '/contracts', undefined, { authorization: `bearer ${ADMIN_TOKEN}` }));
  });
});

describe('contracts, service groups and API keys', () => {
  test('contracts and service groups are created, listed and shown', async () => {
    const contracts = await admin('GET', '/contracts');
    assertOk(contracts);
    const acme = (contracts.json.contracts as { id: number; name: string; created_datetime: string }[]).find(
      (contract) => contract.id === tenant.contractId,
    );
    assert.ok(acme, contracts.body);
    assert.equal(acme.name, 'acme');
    assert.match(acme.created_datetime, TIMESTAMP);

    const contract = await admin('GET', `/contracts/${tenant.contractId}`);
    assertOk(contract);
    assert.deepEqual(contract.json.contract, acme);

    const groups = await admin('GET', `/contracts/${tenant.contractId}/servicegroups`);
    assertOk(groups);
    assert.deepEqual(
      groups.json.servicegroups.map((group: { id: number; contract_id: number; name: string }) => [
        group.id,
        group.contract_id,
        group.name,
      ]),
      [[tenant.servicegroupId, tenant.contractId, 'web']],
    );

    const group = await admin('GET', tenant.path);
    assertOk(group);
    assert.equal(group.json.servicegroup.id, tenant.servicegroupId);
    assert.equal(group.json.servicegroup.name, 'web');
    assert.match(group.json.servicegroup.created_datetime, TIMESTAMP);
  });

  test('names are required and not blank; unknown fields are refused', async () => {
    assertFieldError(await admin('POST', '/contracts', {}), 'body.name');
    assertFieldError(await admin('POST', '/contracts', { name: '   ' }), 'body.name');
    assertFieldError(await admin('POST', '/contracts', { name: 'x', owner: 'y' }), 'body.owner');
    assertFieldError(
      await admin('POST', `/contracts/${tenant.contractId}/servicegroups`, { name: '' }),
      'body.name',
    );
  });

  test('path ids are decimal integers (400 naming the parameter); unknown ones are 404', async () => {
    assertFieldError(await admin('GET', '/contracts/abc'), 'path.contract_id');
    assertFieldError(
      await admin('GET', `/contracts/${tenant.contractId}/servicegroups/1.5`),
      'path.servicegroup_id',
    );
    assertNg(await admin('GET', '/contracts/999999'), 404);
    assertNg(await admin('GET', '/contracts/999999/servicegroups'), 404);
    assertNg(await admin('POST', '/contracts/999999/servicegroups', { name: 'x' }), 404);
    // A service group under another contract is not found under this one.
    assertNg(
      await admin('GET', `/contracts/${tenant.contractId}/servicegroups/${other.servicegroupId}`),
      404,
    );
    assertNg(
      await admin('GET', `/contracts/${tenant.contractId}/servicegroups/${other.servicegroupId}/api_keys`),
      404,
    );
  });

  test('a created key works on the instant crawl API until it is revoked', async () => {
    const created = await admin('POST', `${tenant.path}/api_keys`, { label: 'ci' });
    assertOk(created);
    const key = created.json.api_key as string;
    const keyId = created.json.api_key_id as number;
    assert.match(key, /^kumo_/);

    const histories = () =>
      kumo.inject({
        method: 'GET',
        url: `${crawlerPathOf(tenant)}/histories`,
        headers: { 'x-mf-apikey': key },
      });
    const before = await histories();
    assert.equal(before.statusCode, 200, before.body);
    assert.equal(before.json.status, 'OK');

    const listed = await admin('GET', `${tenant.path}/api_keys`);
    assertOk(listed);
    assert.ok(!listed.body.includes(key), 'the listing must not show the key');
    const entry = listed.json.api_keys.find((one: { id: number }) => one.id === keyId);
    assert.ok(entry, listed.body);
    assert.equal(entry.label, 'ci');
    assert.ok(key.startsWith(entry.prefix) && entry.prefix.length > 0);
    assert.match(entry.created_datetime, TIMESTAMP);
    assert.equal(entry.revoked_datetime, null);

    // The key of this tenant cannot be revoked through another tenant's path.
    assertNg(
      await admin(
        'DELETE',
        `/contracts/${other.contractId}/servicegroups/${other.servicegroupId}/api_keys/${keyId}`,
      ),
      404,
    );

    assertOk(await admin('DELETE', `${tenant.path}/api_keys/${keyId}`));
    const afterRevoke = await histories();
    assertNg(afterRevoke, 401);

    const relisted = await admin('GET', `${tenant.path}/api_keys`);
    const revoked = relisted.json.api_keys.find((one: { id: number }) => one.id === keyId);
    assert.match(revoked.revoked_datetime, TIMESTAMP);
    assertNg(await admin('DELETE', `${tenant.path}/api_keys/${keyId}`), 404);
    assertNg(await admin('DELETE', `${tenant.path}/api_keys/999999`), 404);
  });
});

describe('crawl service settings', () => {
  test('bad inputs are 400 naming the field', async () => {
    const path = `${tenant.path}/service_settings`;
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting('ftp://example.com/'), schedule: daily }),
      'body.setting.seed_urls[0]',
    );
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting(), schedule: { interval: 2, min: 0 } }),
      'body.schedule.hour',
    );
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting(), schedule: { interval: 2, min: 0, hour: 24 } }),
      'body.schedule.hour',
    );
    assertFieldError(
      await admin('POST', path, { settings: crawlSetting(), setting: crawlSetting(), schedule: daily }),
      'body.settings',
    );
    assertFieldError(await admin('POST', path, { schedule: daily }), 'body.setting');
    assertFieldError(
      await admin('POST', path, { setting: { seed_urls: [] }, schedule: daily }),
      'body.setting.seed_urls',
    );

    // The search service of another tenant.
    const now = Date.now() * 1000;
    const foreign = await kumo.service.store.searchServices.create(other, 'foreign', {}, now);
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting(), schedule: daily, service_id: foreign.id }),
      'body.service_id',
    );
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting(), schedule: daily, service_id: 999999 }),
      'body.service_id',
    );
    assertFieldError(
      await admin('POST', path, { setting: crawlSetting(), schedule: daily, service_id: '1' }),
      'body.service_id',
    );
  });

  test('create, show, replace, delete', async () => {
    const serviceId = await createSearchService('for settings');
    const setting = { ...crawlSetting(), allow_urls_patterns: ['^https://www\\.example\\.com/'] };
    const id = await createSetting({ name: 'nightly', setting, schedule: daily, service_id: serviceId });

    const shown = await admin('GET', `${tenant.path}/service_settings/${id}`);
    assertOk(shown);
    const view = shown.json.service_setting;
    assert.equal(view.id, id);
    assert.equal(view.name, 'nightly');
    assert.deepEqual(view.setting, setting);
    assert.deepEqual(view.schedule, daily);
    assert.equal(view.service_id, serviceId);
    assert.equal(view.active_run_id, null);
    assert.match(view.created_datetime, TIMESTAMP);
    assert.match(view.updated_datetime, TIMESTAMP);
    // Daily at 04:30 in the service time zone (UTC), within the next day.
    assert.match(view.next_run_datetime, TIMESTAMP);
    assert.match(view.next_run_datetime, /T04:30:00\.000000\+00:00$/);
    const next = Date.parse(view.next_run_datetime);
    assert.ok(next > Date.now() && next <= Date.now() + 24 * 3600_000, view.next_run_datetime);

    const listed = await admin('GET', `${tenant.path}/service_settings`);
    assertOk(listed);
    assert.ok(listed.json.service_settings.some((one: { id: number }) => one.id === id));

    // PUT replaces: a new setting and schedule, no search service; the name is kept when absent.
    const replacement = {
      setting: crawlSetting('https://www.example.org/'),
      schedule: { interval: 1, min: 15 },
    };
    const put = await admin('PUT', `${tenant.path}/service_settings/${id}`, replacement);
    assertOk(put);
    const reshown = await admin('GET', `${tenant.path}/service_settings/${id}`);
    assertOk(reshown);
    const replaced = reshown.json.service_setting;
    assert.deepEqual(replaced.setting, replacement.setting);
    assert.deepEqual(replaced.schedule, replacement.schedule);
    assert.equal(replaced.service_id, null);
    assert.equal(replaced.name, 'nightly');
    assert.match(replaced.next_run_datetime, /T\d{2}:15:00\.000000\+00:00$/);
    assert.deepEqual(put.json.service_setting, replaced);
    assertFieldError(
      await admin('PUT', `${tenant.path}/service_settings/${id}`, {
        ...replacement,
        schedule: { interval: 1 },
      }),
      'body.schedule.min',
    );

    // Not under another tenant's path, nor under another group of an existing contract.
    const otherPath = `/contracts/${other.contractId}/servicegroups/${other.servicegroupId}`;
    assertNg(await admin('GET', `${otherPath}/service_settings/${id}`), 404);
    assertNg(await admin('PUT', `${otherPath}/service_settings/${id}`, replacement), 404);
    assertNg(await admin('DELETE', `${otherPath}/service_settings/${id}`), 404);
    assertNg(await admin('POST', `${otherPath}/service_settings/${id}/run`), 404);
    assertFieldError(await admin('GET', `${tenant.path}/service_settings/x`), 'path.service_setting_id');

    assertOk(await admin('DELETE', `${tenant.path}/service_settings/${id}`));
    assertNg(await admin('GET', `${tenant.path}/service_settings/${id}`), 404);
    assertNg(await admin('DELETE', `${tenant.path}/service_settings/${id}`), 404);
    const relisted = await admin('GET', `${tenant.path}/service_settings`);
    assert.ok(!relisted.json.service_settings.some((one: { id: number }) => one.id === id));
  });

  test('a disabled schedule has no next run', async () => {
    const id = await createSetting({ setting: crawlSetting(), schedule: { interval: 0 } });
    const shown = await admin('GET', `${tenant.path}/service_settings/${id}`);
    assertOk(shown);
    assert.equal(shown.json.service_setting.next_run_datetime, null);
    assert.equal(shown.json.service_setting.name, '');
    assertOk(await admin('DELETE', `${tenant.path}/service_settings/${id}`));
  });

  test('run now starts a run; a second one while it goes is 409 naming the run', async () => {
    const id = await createSetting({
      name: 'slow',
      setting: { seed_urls: [`${slow.baseUrl}/page.html`], robots_txt: false, documents_limit: 1 },
      schedule: { interval: 0 },
    });
    const run = await admin('POST', `${tenant.path}/service_settings/${id}/run`);
    assertOk(run);
    const runId = run.json.run_id as number;
    assert.equal(typeof runId, 'number');
    assert.equal(run.json.crawl_history.id, runId);
    assert.ok([2010, 2020].includes(run.json.crawl_history.crawl_execution_status_dtype_id), run.body);

    // The only page takes SLOW_ANSWER_MS, so the run is still pending or running.
    const again = await admin('POST', `${tenant.path}/service_settings/${id}/run`);
    assertNg(again, 409);
    assert.ok(again.json.message.includes(String(runId)), again.body);
    const shown = await admin('GET', `${tenant.path}/service_settings/${id}`);
    assert.equal(shown.json.service_setting.active_run_id, runId);

    // Deleting the setting cancels its run.
    assertOk(await admin('DELETE', `${tenant.path}/service_settings/${id}`));
    assertNg(await admin('POST', `${tenant.path}/service_settings/${id}/run`), 404);
  });
});

describe('search services', () => {
  test('bad configurations are 400 naming the field', async () => {
    const path = `${tenant.path}/search_services`;
    assertFieldError(
      await admin('POST', path, { name: 's', config: { categories: [{ name: 'news', url_pattern: '([' }] } }),
      'body.config.categories[0].url_pattern',
    );
    assertFieldError(
      await admin('POST', path, { name: 's', config: { colour: 'red' } }),
      'body.config.colour',
    );
    assertFieldError(
      await admin('POST', path, { name: 's', config: { allowed_origins: ['https://example.com/path'] } }),
      'body.config.allowed_origins[0]',
    );
    assertFieldError(await admin('POST', path, { config: {} }), 'body.name');

    const id = await createSearchService('bad puts');
    assertFieldError(
      await admin('PUT', `${path}/${id}`, { config: { drilldowns: [{ url_pattern: '*x', path: 'a' }] } }),
      'body.config.drilldowns[0].url_pattern',
    );
    assertFieldError(
      await admin('PUT', `${path}/${id}`, { config: { weights: { title: -1 } } }),
      'body.config.weights.title',
    );
    assertFieldError(
      await admin('PUT', `${path}/${id}`, {
        config: { content_selectors: { exclude: ['nav', 'li:hover'] } },
      }),
      'body.config.content_selectors.exclude[1]',
    );
    assertOk(
      await admin('PUT', `${path}/${id}`, {
        config: { content_selectors: { main: ['div.body'], exclude: ['div.related, [role=search]'] } },
      }),
    );
    // Renaming is not supported: name is an unknown field of PUT.
    assertFieldError(await admin('PUT', `${path}/${id}`, { name: 'renamed', config: {} }), 'body.name');
  });

  test('create, show, replace the configuration, list', async () => {
    const id = await createSearchService('docs');
    const shown = await admin('GET', `${tenant.path}/search_services/${id}`);
    assertOk(shown);
    assert.equal(shown.json.search_service.id, id);
    assert.equal(shown.json.search_service.name, 'docs');
    assert.deepEqual(shown.json.search_service.config, {});
    assert.match(shown.json.search_service.created_datetime, TIMESTAMP);

    const config = {
      categories: [{ name: 'news', url_pattern: '^https://www\\.example\\.com/news/' }],
      drilldowns: [{ url_pattern: '^https://www\\.example\\.com/(\\w+)/', path: 'Example\t$1' }],
      allowed_origins: ['https://www.example.com'],
      weights: { title: 5, body: 1 },
    };
    const put = await admin('PUT', `${tenant.path}/search_services/${id}`, { config });
    assertOk(put);
    assert.deepEqual(put.json.search_service.config, config);
    const reshown = await admin('GET', `${tenant.path}/search_services/${id}`);
    assert.deepEqual(reshown.json.search_service.config, config);
    assert.equal(reshown.json.search_service.name, 'docs');

    const listed = await admin('GET', `${tenant.path}/search_services`);
    assertOk(listed);
    assert.deepEqual(
      listed.json.search_services.find((one: { id: number }) => one.id === id),
      reshown.json.search_service,
    );

    const otherPath = `/contracts/${other.contractId}/servicegroups/${other.servicegroupId}`;
    assertNg(await admin('GET', `${otherPath}/search_services/${id}`), 404);
    assertNg(await admin('PUT', `${otherPath}/search_services/${id}`, { config: {} }), 404);
    assertNg(await admin('GET', `${tenant.path}/search_services/999999`), 404);
  });
});

describe('webhooks', () => {
  const hooks = () => `${tenant.path}/webhooks`;
  const SECRET = 'webhook-secret-0123456789';

  test('bad urls and secrets are 400 naming the field', async () => {
    assertFieldError(
      await admin('POST', hooks(), { url: 'ftp://example.com/hook', secret: SECRET }),
      'body.url',
    );
    assertFieldError(await admin('POST', hooks(), { url: '/relative/hook', secret: SECRET }), 'body.url');
    assertFieldError(
      await admin('POST', hooks(), { url: 'https://example.com/hook', secret: 'short' }),
      'body.secret',
    );
    assertFieldError(
      await admin('POST', hooks(), { url: 'https://example.com/hook', secret: 'x'.repeat(257) }),
      'body.secret',
    );
    assertFieldError(await admin('POST', hooks(), { url: 'https://example.com/hook' }), 'body.secret');
  });

  test('create, list without the secret, show, deliveries, replay, delete', async () => {
    const created = await admin('POST', hooks(), { url: 'http://127.0.0.1:9/hook', secret: SECRET });
    assertOk(created);
    const id = created.json.webhook_id as number;

    const listed = await admin('GET', hooks());
    assertOk(listed);
    assert.ok(!listed.body.includes(SECRET), 'the listing must not show the secret');
    const entry = listed.json.webhooks.find((one: { id: number }) => one.id === id);
    assert.deepEqual(Object.keys(entry).sort(), ['created_datetime', 'id', 'url']);
    assert.equal(entry.url, 'http://127.0.0.1:9/hook');
    assert.match(entry.created_datetime, TIMESTAMP);

    const shown = await admin('GET', `${hooks()}/${id}`);
    assertOk(shown);
    assert.deepEqual(shown.json.webhook, entry);
    assert.ok(!shown.body.includes(SECRET));

    const empty = await admin('GET', `${hooks()}/${id}/deliveries`);
    assertOk(empty);
    assert.deepEqual(empty.json.deliveries, []);
    assertFieldError(await admin('GET', `${hooks()}/${id}/deliveries?limit=0`), 'query.limit');
    assertFieldError(await admin('GET', `${hooks()}/${id}/deliveries?limit=201`), 'query.limit');
    assertNg(await admin('POST', `${hooks()}/${id}/deliveries/999999/replay`), 404);

    // A delivery of this webhook, queued the way the publisher does.
    const delivery = await kumo.service.store.deliveries.enqueue(
      id,
      'crawl.finished',
      'evt-1',
      '{}',
      Date.now() * 1000,
    );
    const deliveries = await admin('GET', `${hooks()}/${id}/deliveries?limit=10`);
    assertOk(deliveries);
    const first = deliveries.json.deliveries[0];
    assert.equal(first.id, delivery.id);
    assert.equal(first.event, 'crawl.finished');
    assert.equal(first.event_id, 'evt-1');
    assert.ok(['pending', 'delivered', 'failed'].includes(first.state));
    assert.match(first.created_datetime, TIMESTAMP);

    const replayed = await admin('POST', `${hooks()}/${id}/deliveries/${delivery.id}/replay`);
    assertOk(replayed);
    assert.equal(replayed.json.delivery.id, delivery.id);

    // The delivery is not of another webhook, even of the same tenant.
    const second = await admin('POST', hooks(), { url: 'https://example.com/other', secret: SECRET });
    assertOk(second);
    assertNg(
      await admin('POST', `${hooks()}/${second.json.webhook_id}/deliveries/${delivery.id}/replay`),
      404,
    );
    // Nor under another tenant's path.
    const otherHooks = `/contracts/${other.contractId}/servicegroups/${other.servicegroupId}/webhooks`;
    assertNg(await admin('GET', `${otherHooks}/${id}`), 404);
    assertNg(await admin('GET', `${otherHooks}/${id}/deliveries`), 404);

    assertOk(await admin('DELETE', `${hooks()}/${id}`));
    assertNg(await admin('GET', `${hooks()}/${id}`), 404);
    assertNg(await admin('DELETE', `${hooks()}/${id}`), 404);
  });
});

describe('HTTP rules and documentation', () => {
  test('a wrong method on a known path is 405 with Allow', async () => {
    const response = await admin('PATCH', '/contracts');
    assertNg(response, 405);
    const allow = String(response.headers.allow).split(/,\s*/).sort();
    assert.deepEqual(allow, ['GET', 'HEAD', 'POST']);
    const settings = await admin('PATCH', `${tenant.path}/service_settings/1`);
    assertNg(settings, 405);
    assert.deepEqual(String(settings.headers.allow).split(/,\s*/).sort(), ['DELETE', 'GET', 'HEAD', 'PUT']);
  });

  test('without the token a wrong method is 401 and reveals no Allow header', async () => {
    const response = await kumo.inject({ method: 'PATCH', url: `${ADMIN}/contracts` });
    assertNg(response, 401);
    assert.equal(response.headers.allow, undefined);
  });

  test('only JSON is served (406 for another Accept)', async () => {
    const response = await kumo.inject({
      method: 'GET',
      url: `${ADMIN}/contracts`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'text/html' },
    });
    assertNg(response, 406);
  });

  test('the OpenAPI document lists the admin routes with the bearer scheme', async () => {
    const response = await kumo.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(response.statusCode, 200);
    const paths = response.json.paths as Record<
      string,
      Record<string, { tags?: string[]; security?: unknown }>
    >;
    const settings =
      paths[`${ADMIN}/contracts/{contract_id}/servicegroups/{servicegroup_id}/service_settings`];
    assert.ok(settings, Object.keys(paths).join('\n'));
    assert.ok(settings.post && settings.get);
    assert.deepEqual(settings.post.security, [{ adminToken: [] }]);
    assert.deepEqual(settings.post.tags, ['admin']);
    assert.ok(paths[`${ADMIN}/contracts`]?.get);
    assert.ok(
      paths[
        `${ADMIN}/contracts/{contract_id}/servicegroups/{servicegroup_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/replay`
      ]?.post,
    );
  });
});
