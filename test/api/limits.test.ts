/**
 * The limits of the instant crawl API: body size, seed and pattern counts and lengths, patterns
 * the linear-time engine runs or refuses (also in search service rules), the per-API-key rate limit with Retry-After, and the
 * cap on a service group's pending + running runs (instant and scheduled).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RateLimiter } from '../../src/api/rate-limiter.js';
import { loadConfig } from '../../src/config/index.js';
import { type Clock, systemClock } from '../../src/util/index.js';
import { assertNg } from '../support/api-assertions.js';
import {
  type InjectResult,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

let trap: TrapServer;

before(async () => {
  trap = await startTrapServer();
});

after(async () => {
  await trap?.close();
});

/** A 400 whose errors name `field`; returns that error's reason. */
function fieldReason(response: InjectResult, field: string): string {
  assertNg(response, 400);
  const errors = response.json.errors as { field: string; reason: string }[];
  const error = errors.find((one) => one.field === field);
  assert.ok(error, `no error names ${field}: ${JSON.stringify(errors)}`);
  return error.reason;
}

/** A 429 NG with `errors` and an integer Retry-After of at least 1 second; returns it. */
function assertTooMany(response: InjectResult, field: string): number {
  assertNg(response, 429);
  const errors = response.json.errors as { field: string; reason: string }[];
  assert.deepEqual(
    errors.map((error) => error.field),
    [field],
  );
  const retryAfter = String(response.headers['retry-after']);
  assert.match(retryAfter, /^[1-9]\d*$/);
  return Number(retryAfter);
}

const post = (kumo: TestService, tenant: TestTenant, payload: string | object) =>
  kumo.inject({
    method: 'POST',
    url: `${tenant.crawlerPath}/request`,
    headers: { 'x-mf-apikey': tenant.apiKey, 'content-type': 'application/json' },
    payload,
  });

const statuses = (kumo: TestService, tenant: TestTenant) =>
  kumo.inject({
    method: 'GET',
    url: `${tenant.crawlerPath}/statuses`,
    headers: { 'x-mf-apikey': tenant.apiKey },
  });

const cancel = (kumo: TestService, tenant: TestTenant, requestId: number) =>
  kumo.inject({
    method: 'PUT',
    url: `${tenant.crawlerPath}/statuses/requests/${requestId}/cancel`,
    headers: { 'x-mf-apikey': tenant.apiKey },
  });

const admin = (kumo: TestService, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  kumo.inject({
    method,
    url: `/admin/v1${url}`,
    headers: {
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload }),
  });

test('the defaults: 120 requests a minute per key, 10 active runs per service group; both configurable', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.rateLimitPerMinute, 120);
  assert.equal(defaults.maxActiveRunsPerTenant, 10);
  const set = loadConfig({ KUMO_RATE_LIMIT_PER_MINUTE: '30', KUMO_MAX_ACTIVE_RUNS_PER_TENANT: '0' });
  assert.equal(set.rateLimitPerMinute, 30);
  assert.equal(set.maxActiveRunsPerTenant, 0);
  assert.throws(() => loadConfig({ KUMO_RATE_LIMIT_PER_MINUTE: '-1' }), /KUMO_RATE_LIMIT_PER_MINUTE/);
  assert.throws(
    () => loadConfig({ KUMO_MAX_ACTIVE_RUNS_PER_TENANT: 'ten' }),
    /KUMO_MAX_ACTIVE_RUNS_PER_TENANT/,
  );
});

describe('RateLimiter (token buckets)', () => {
  test('burst, steady refill, Retry-After rounded up, separate keys, a clock going back', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ perMinute: 120, burst: 2, nowMs: () => now });
    assert.deepEqual(limiter.take('k'), { allowed: true });
    assert.deepEqual(limiter.take('k'), { allowed: true });
    // 120 a minute: one token every 500 ms, Retry-After at least 1 s.
    assert.deepEqual(limiter.take('k'), { allowed: false, retryAfterSeconds: 1 });
    assert.deepEqual(limiter.take('other'), { allowed: true });
    now += 499;
    assert.equal(limiter.take('k').allowed, false);
    now += 1;
    assert.equal(limiter.take('k').allowed, true);
    now -= 60_000;
    assert.equal(limiter.take('k').allowed, false);
    now += 60_000 + 10_000;
    // Refilled to the burst, no more.
    assert.equal(limiter.take('k').allowed, true);
    assert.equal(limiter.take('k').allowed, true);
    assert.equal(limiter.take('k').allowed, false);
  });

  test('a slow rate answers the wait in whole seconds; 0 disables the limit', () => {
    let now = 0;
    const slow = new RateLimiter({ perMinute: 1, nowMs: () => now });
    assert.equal(slow.take('k').allowed, true);
    assert.deepEqual(slow.take('k'), { allowed: false, retryAfterSeconds: 60 });
    now += 59_001;
    assert.deepEqual(slow.take('k'), { allowed: false, retryAfterSeconds: 1 });
    const off = new RateLimiter({ perMinute: 0, nowMs: () => now });
    assert.equal(off.enabled, false);
    for (let i = 0; i < 1000; i++) assert.equal(off.take('k').allowed, true);
  });

  test('full buckets are dropped when many keys were seen, limited ones are kept', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, nowMs: () => now, maxIdleBuckets: 3 });
    for (const key of ['a', 'b', 'c']) assert.equal(limiter.take(key).allowed, true);
    now += 500;
    // a, b and c are half refilled: none is dropped, the map grows past the bound.
    assert.equal(limiter.take('d').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
    now += 1000;
    // Now a-d are full again (and forgotten as a new key arrives): each gets its burst.
    assert.equal(limiter.take('e').allowed, true);
    for (const key of ['a', 'b', 'c', 'd']) assert.equal(limiter.take(key).allowed, true);
  });
});

describe('request size, seeds and patterns', () => {
  let kumo: TestService;
  const seed = () => `${trap.baseUrl}/a.html`;

  before(async () => {
    kumo = await startTestService({ overrides: { rateLimitPerMinute: 0, maxActiveRunsPerTenant: 0 } });
  });

  after(async () => {
    await kumo?.close();
  });

  test('101 seeds: 400 naming setting.seed_urls; 100 are accepted', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `${trap.baseUrl}/a.html?${i}`);
    fieldReason(await post(kumo, kumo.tenant, { setting: { seed_urls: many } }), 'setting.seed_urls');
    const accepted = await post(kumo, kumo.tenant, {
      setting: { seed_urls: many.slice(0, 100), documents_limit: 1 },
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
  });

  test('101 allow or deny patterns: 400 naming the list', async () => {
    for (const field of ['allow_urls_patterns', 'deny_urls_patterns']) {
      const patterns = Array.from({ length: 101 }, (_, i) => `/p${i}/`);
      fieldReason(
        await post(kumo, kumo.tenant, { setting: { seed_urls: [seed()], [field]: patterns } }),
        `setting.${field}`,
      );
    }
  });

  test('a pattern over 1,000 characters: 400 naming it; 1,000 are accepted', async () => {
    const patterns = ['/a/', '/b/', '/c/', `/${'d'.repeat(1000)}`];
    const reason = fieldReason(
      await post(kumo, kumo.tenant, { setting: { seed_urls: [seed()], allow_urls_patterns: patterns } }),
      'setting.allow_urls_patterns[3]',
    );
    assert.match(reason, /1000 characters/);
    const accepted = await post(kumo, kumo.tenant, {
      setting: { seed_urls: [seed()], documents_limit: 1, deny_urls_patterns: [`/${'d'.repeat(999)}`] },
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
  });

  test('patterns that backtracked for seconds to hours are accepted: they run on a linear-time engine', async () => {
    // Each took JavaScript's backtracking engine 3 s to hours on some URL
    // (docs/design/url-patterns.md, URL patterns); see test/e2e/regex-dos-crawl.test.ts for a crawl
    // that meets such URLs.
    const attacks = [
      `^${'a?'.repeat(28)}${'a'.repeat(28)}$`,
      `^${'a{0,10}'.repeat(40)}$`,
      `^${'(?:a|b){0,10}'.repeat(12)}!`,
      '^a*(?:b|)a*(?:b|)a*!',
      '(a+)+$',
      '(a|aa)*$',
    ];
    const response = await post(kumo, kumo.tenant, {
      setting: {
        seed_urls: [seed()],
        documents_limit: 1,
        allow_urls_patterns: ['^http://127\\.0\\.0\\.1', ...attacks],
        deny_urls_patterns: attacks,
        authorizations: [{ type: 'BASIC', url_pattern: attacks[2], user: 'u', password: 'p' }],
      },
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  test('search service category and drill-down patterns get the same check', async () => {
    const path = `/contracts/${kumo.tenant.contractId}/servicegroups/${kumo.tenant.servicegroupId}/search_services`;
    const response = await admin(kumo, 'POST', path, {
      name: 'site',
      config: {
        categories: [{ name: 'Docs', url_pattern: '/docs/' }],
        drilldowns: [{ url_pattern: '^https://[^/]+/(?!private/)(\\w+)/', path: '$1' }],
      },
    });
    assert.match(
      fieldReason(response, 'body.config.drilldowns[0].url_pattern'),
      /negative lookahead "\(\?!"/,
    );
    const nested = await admin(kumo, 'POST', path, {
      name: 'site',
      config: { drilldowns: [{ url_pattern: '^https://[^/]+/(\\w+-?)+/', path: '$1' }] },
    });
    assert.equal(nested.statusCode, 200, nested.body);
  });

  test('a body over 1 MiB: 413 NG', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const response = await post(
      kumo,
      kumo.tenant,
      JSON.stringify({ setting: { seed_urls: [seed()], user_agent: padding } }),
    );
    assertNg(response, 413);
  });
});

describe('the per-key rate limit', () => {
  let kumo: TestService;
  let other: TestTenant;
  /** The service's clock: the system clock moved forward by `offsetMicros`. */
  let offsetMicros = 0;
  const clock: Clock = { nowMicros: () => systemClock.nowMicros() + offsetMicros };
  const advanceSeconds = (seconds: number) => {
    offsetMicros += seconds * 1_000_000;
  };

  before(async () => {
    kumo = await startTestService({ clock, overrides: { rateLimitPerMinute: 3, maxActiveRunsPerTenant: 0 } });
    other = await kumo.createTenant('other');
  });

  after(async () => {
    await kumo?.close();
  });

  test('the 4th request of a minute is 429 NG with Retry-After; other keys are not limited; time refills', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await statuses(kumo, kumo.tenant)).statusCode, 200);

    const limited = await statuses(kumo, kumo.tenant);
    // 3 a minute: a token comes back every 20 seconds.
    assert.equal(assertTooMany(limited, 'header.x-mf-apikey'), 20);
    assert.match(limited.json.message, /too many requests/);
    assert.match(limited.json.errors[0].reason, /3 requests a minute per API key/);

    // Every route of the API counts, a crawl request too (refused before its body is looked at).
    assertTooMany(
      await post(kumo, kumo.tenant, { setting: { seed_urls: 'not even valid' } }),
      'header.x-mf-apikey',
    );

    // Another key has its own bucket; a request without a valid key is 401, not counted.
    for (let i = 0; i < 3; i++) assert.equal((await statuses(kumo, other)).statusCode, 200);
    assertNg(await kumo.inject({ method: 'GET', url: `${kumo.tenant.crawlerPath}/statuses` }), 401);

    advanceSeconds(10);
    assert.equal(assertTooMany(await statuses(kumo, kumo.tenant), 'header.x-mf-apikey'), 10);
    advanceSeconds(10);
    assert.equal((await statuses(kumo, kumo.tenant)).statusCode, 200);
    assertTooMany(await statuses(kumo, kumo.tenant), 'header.x-mf-apikey');

    // A full minute refills the whole burst, and no more.
    advanceSeconds(600);
    for (let i = 0; i < 3; i++) assert.equal((await statuses(kumo, kumo.tenant)).statusCode, 200);
    assertTooMany(await statuses(kumo, kumo.tenant), 'header.x-mf-apikey');
  });
});

describe('the cap on active runs of a service group', () => {
  let kumo: TestService;
  let other: TestTenant;
  /** A setting whose only page never answers: its run stays running until cancelled. */
  const hanging = () => ({ seed_urls: [`${trap.baseUrl}/hang`], robots_txt: false });
  const accepted: number[] = [];

  const request = async (tenant = kumo.tenant): Promise<InjectResult> => {
    const response = await post(kumo, tenant, { setting: hanging() });
    if (response.statusCode === 200 && tenant === kumo.tenant)
      accepted.push(response.json.instant_crawl_request_id);
    return response;
  };

  const cancelAll = async () => {
    for (const id of accepted.splice(0)) await cancel(kumo, kumo.tenant, id);
    await pollUntilIdle();
  };

  const pollUntilIdle = async () => {
    const deadline = Date.now() + 10_000;
    while ((await kumo.service.store.runs.countActiveRuns(kumo.tenant)) > 0) {
      assert.ok(Date.now() < deadline, 'runs did not end after cancel');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  before(async () => {
    kumo = await startTestService({
      // One worker: the first run holds it, the next stay pending; both count. The page fetch
      // outlives the test, so runs end only when cancelled.
      overrides: {
        maxActiveRunsPerTenant: 2,
        workerConcurrency: 1,
        rateLimitPerMinute: 0,
        fetchTimeoutSeconds: 300,
      },
    });
    other = await kumo.createTenant('other');
  });

  after(async () => {
    await cancelAll();
    await kumo?.close();
  });

  test('the third pending or running run is 429 NG naming the limit; after a cancel one is accepted', async () => {
    assert.equal((await request()).statusCode, 200);
    await kumo.waitForStatus(accepted[0]!, (status) => status.crawl_execution_status_dtype_id === 2020);
    assert.equal((await request()).statusCode, 200);

    const refused = await request();
    assert.equal(assertTooMany(refused, 'path.servicegroup_id'), 30);
    assert.match(refused.json.message, /too many active crawls/);
    assert.match(
      refused.json.errors[0].reason,
      /2 crawls of this service group are pending or running; at most 2/,
    );
    assert.equal(accepted.length, 2);

    // The cap is per service group.
    const elsewhere = await request(other);
    assert.equal(elsewhere.statusCode, 200, elsewhere.body);
    assert.equal((await cancel(kumo, other, elsewhere.json.instant_crawl_request_id)).statusCode, 200);

    // Cancelling the pending run ends it at once: a request is accepted again.
    assert.equal((await cancel(kumo, kumo.tenant, accepted[1]!)).statusCode, 200);
    const again = await request();
    assert.equal(again.statusCode, 200, again.body);
    assertTooMany(await request(), 'path.servicegroup_id');
    await cancelAll();
  });

  test('concurrent requests cannot pass the cap', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => request()));
    const codes = responses.map((response) => response.statusCode).sort();
    assert.deepEqual(codes, [200, 200, 429, 429, 429, 429]);
    assert.equal(await kumo.service.store.runs.countActiveRuns(kumo.tenant), 2);
    await cancelAll();
  });

  test('runs of crawl service settings (scheduled, run now) count too', async () => {
    const group = `/contracts/${kumo.tenant.contractId}/servicegroups/${kumo.tenant.servicegroupId}`;
    const created = await admin(kumo, 'POST', `${group}/service_settings`, {
      name: 'hanging',
      setting: hanging(),
      schedule: { interval: 0 },
    });
    assert.equal(created.statusCode, 200, created.body);
    const settingId = created.json.service_setting_id as number;
    const run = await admin(kumo, 'POST', `${group}/service_settings/${settingId}/run`);
    assert.equal(run.statusCode, 200, run.body);

    assert.equal((await request()).statusCode, 200);
    assertTooMany(await request(), 'path.servicegroup_id');

    // Deleting the setting cancels its run: room for one more.
    assert.equal((await admin(kumo, 'DELETE', `${group}/service_settings/${settingId}`)).statusCode, 200);
    const deadline = Date.now() + 10_000;
    while ((await kumo.service.store.runs.countActiveRuns(kumo.tenant)) > 1) {
      assert.ok(Date.now() < deadline, 'the scheduled run did not end');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal((await request()).statusCode, 200);
    await cancelAll();
  });
});
