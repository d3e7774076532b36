/**
 * Property-based tests of the whole HTTP API (hardening issue "fuzz every endpoint"): generated
 * bodies, query strings, path segments, headers and raw bodies go to every route of the OpenAPI
 * document the service serves, and no input may produce a 5xx or a hang (no answer within 5 s),
 * every 4xx must carry `{"status": "NG", "message", "errors"?: [{field, reason}]}` and every
 * answer X-Request-ID. The service stays healthy after each property.
 *
 * Generated URLs never leave the machine: every http(s) URL a body carries is rewritten to the
 * closed loopback port 9 unless it already points there or at a `.invalid` host.
 *
 * Reproduce a failure with the seed fast-check prints (KUMO_FUZZ_SEED); run longer with
 * KUMO_FUZZ_RUNS_SCALE. Defects already found are asserted in fuzz-regressions.test.ts; see
 * KNOWN_DEFECTS in fuzz-support.ts.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { seedSearchIndex } from '../support/search-fixtures.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';
import {
  type Answer,
  acceptValue,
  anyJson,
  apiKeyValue,
  assertHealthy,
  authHeaders,
  authorizationValue,
  checkAnswer,
  CLOSED_PORT_URL,
  CURRENT_KEY,
  contentTypeValue,
  DemoKey,
  type FixtureIds,
  fromSchema,
  fuzzParameters,
  goodPath,
  headerValue,
  idSegment,
  type JsonSchema,
  loadRouteCatalog,
  mutate,
  mutation,
  neutralizeUrls,
  ngBodyProblem,
  queryString,
  rawHttp,
  type RouteSpec,
  routeName,
  send,
  sendChecked,
  type SentRequest,
  toJsonText,
  toleratedDefects,
} from './fuzz-support.js';

const ADMIN = '/admin/v1';
const GROUP = `${ADMIN}/contracts/1/servicegroups/1`;
const BODY_LIMIT_BYTES = 1024 * 1024;

let kumo: TestService;
/** The one page the fixture runs crawl: a run none of whose seeds answers ends 2040 without artifacts. */
let fixtureSite: LocalServer;
let key: DemoKey;
let routes: RouteSpec[];
let ids: FixtureIds;
/** Status codes seen per property, printed after each one. */
const seen = new Map<string, Map<number, number>>();

function tally(property: string, statusCode: number): void {
  const counts = seen.get(property) ?? new Map<number, number>();
  counts.set(statusCode, (counts.get(statusCode) ?? 0) + 1);
  seen.set(property, counts);
}

function report(property: string): void {
  const counts = [...(seen.get(property) ?? new Map<number, number>()).entries()].sort(([a], [b]) => a - b);
  console.log(`# ${property}: ${counts.map(([status, count]) => `${status}×${count}`).join(' ')}`);
}

async function admin(method: string, path: string, body?: unknown) {
  const answer = await send(kumo, {
    method,
    url: `${ADMIN}${path}`,
    headers: {
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  assert.ok(answer.statusCode < 300, `${method} ${path}: ${answer.statusCode} ${answer.body}`);
  return answer.json;
}

/** Creates the resources the good paths name: a finished instant run, a scheduled run, webhooks, keys. */
async function createFixtures(): Promise<FixtureIds> {
  const group = '/contracts/1/servicegroups/1';
  const webhook = await admin('POST', `${group}/webhooks`, {
    url: `${CLOSED_PORT_URL}hook`,
    secret: 'fuzz-secret-0123456789',
  });
  const victimWebhook = await admin('POST', `${group}/webhooks`, {
    url: `${CLOSED_PORT_URL}victim`,
    secret: 'fuzz-secret-0123456789',
  });
  const fixtureSeed = `${fixtureSite.baseUrl}/`;
  const requestId = await kumo.requestCrawl({ seed_urls: [fixtureSeed], depth_limit: 0 });
  await kumo.waitForFinished(requestId);
  const runs = await admin('GET', `${group}/runs?kind=instant`);
  const runId = (runs.runs as { id: number; instant_crawl_request_id: number }[]).find(
    (run) => run.instant_crawl_request_id === requestId,
  )!.id;
  // The fuzz owner's account (made with its session) names the user routes' account.
  await key.sessionHeaders();
  const accountId = (await kumo.service.store.accounts.findByEmail('fuzz-owner@example.com'))!.id;
  const deliveries = await admin('GET', `${group}/webhooks/${webhook.webhook_id}/deliveries`);
  const deliveryId = (deliveries.deliveries as { id: number }[])[0]?.id ?? 1;

  const settingBody = { setting: { seed_urls: [fixtureSeed], depth_limit: 0 }, schedule: { interval: 0 } };
  const setting = await admin('POST', `${group}/service_settings`, settingBody);
  const victimSetting = await admin('POST', `${group}/service_settings`, settingBody);
  const settingId = setting.service_setting_id as number;
  await admin('POST', `${group}/service_settings/${settingId}/run`);
  const history = await pollScheduledHistory(settingId);
  const generated = /^\/crawler\/([^/]+)\//.exec(history.crawl_url_list_path)?.[1];
  assert.ok(generated, `no generated string in ${JSON.stringify(history)}`);

  const victimKey = await admin('POST', `${group}/api_keys`, { label: 'fuzz victim' });
  return {
    good: {
      contract_id: '1',
      servicegroup_id: '1',
      service_id: '1',
      instant_crawl_request_id: String(requestId),
      service_setting_id: String(settingId),
      webhook_id: String(webhook.webhook_id),
      delivery_id: String(deliveryId),
      api_key_id: String(victimKey.api_key_id),
      generated_string: generated,
      file: 'url_list.csv.gz',
      run_id: String(runId),
      row_id: '1',
      account_id: String(accountId),
    },
    victims: {
      service_setting_id: String(victimSetting.service_setting_id),
      webhook_id: String(victimWebhook.webhook_id),
      api_key_id: String(victimKey.api_key_id),
    },
  };
}

async function pollScheduledHistory(settingId: number): Promise<{ crawl_url_list_path: string }> {
  const url =
    `/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories` +
    '?from_datetime=2000-01-01T00:00:00%2B00:00&to_datetime=2100-01-01T00:00:00%2B00:00';
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await send(kumo, { method: 'GET', url });
    const finished = (
      answer.json?.contents as { end_datetime?: string; crawl_url_list_path: string }[] | undefined
    )?.find((run) => run.end_datetime !== undefined);
    if (finished) return finished;
    if (Date.now() > deadline) throw new Error(`scheduled run did not finish: ${answer.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  fixtureSite = await listenLocally(
    createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>fuzz fixture</title>'),
    ),
  );
  // No browser: a generated screenshot or wait_type 2 ends its run at once (2040).
  kumo = await startTestService({ overrides: { chromiumPath: '/nonexistent/kumo-fuzz-chromium' } });
  // Search service 1 gets a corpus, so that fuzzed searches find, rank and highlight documents.
  seedSearchIndex(kumo.dataDir, 1);
  key = new DemoKey(kumo);
  routes = await loadRouteCatalog(kumo);
  ids = await createFixtures();
});

after(async () => {
  for (const [defect, count] of toleratedDefects)
    console.log(`# tolerated ${count}× (see fuzz-regressions.test.ts): ${defect}`);
  if (kumo) {
    const active = await send(kumo, {
      method: 'GET',
      url: '/api/v1/contracts/1/servicegroups/1/crawler/statuses',
      headers: { 'x-mf-apikey': await key.current() },
    });
    console.log(`# instant runs still pending or running at the end: ${active.json?.crawl_statuses?.length}`);
  }
  const closing = Date.now();
  await kumo?.close();
  console.log(`# service closed in ${Date.now() - closing} ms`);
  await fixtureSite?.close();
});

/** Runs a property, then checks the service is still healthy. */
async function property<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
  numRuns: number,
) {
  const started = Date.now();
  try {
    await fc.assert(fc.asyncProperty(arbitrary, check), fuzzParameters(numRuns));
  } finally {
    report(name);
    console.log(`# ${name}: ${Date.now() - started} ms`);
  }
  await assertHealthy(kumo, key);
}

const routesWhere = (predicate: (route: RouteSpec) => boolean): RouteSpec[] => {
  const found = routes.filter(predicate);
  assert.ok(found.length > 0, 'the OpenAPI document lists no such route');
  return found;
};

/**
 * One of the routes, chained to the arbitrary of its inputs. Values carry the route's name
 * (`POST /api/v1/...`) rather than its spec, so counterexamples stay readable.
 */
function onRoute<T>(
  candidates: RouteSpec[],
  inputs: (route: RouteSpec) => fc.Arbitrary<T>,
): fc.Arbitrary<[string, T]> {
  const byName = new Map(candidates.map((route) => [routeName(route), route]));
  return fc
    .constantFrom(...byName.keys())
    .chain((name) => inputs(byName.get(name) as RouteSpec).map((input): [string, T] => [name, input]));
}

const routeNamed = (name: string): RouteSpec =>
  routes.find((route) => routeName(route) === name) as RouteSpec;

/** Present in about `percent` % of the values. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: percent, arbitrary }, { weight: 100 - percent, arbitrary: fc.constant(undefined) });

/** A request body for a route: the schema's own shapes (mutated or not), or anything. */
function bodyFor(route: RouteSpec): fc.Arbitrary<unknown> {
  const schema = route.bodySchema;
  if (schema === undefined) return anyJson;
  const valid = fromSchema(schema, '', true);
  const topLevel = Object.keys(schema.properties ?? {});
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([value, changes]) => changes.reduce<unknown>(mutate, value)),
    },
    { weight: 2, arbitrary: valid },
    { weight: 2, arbitrary: fromSchema(schema) },
    { weight: 2, arbitrary: anyJson },
    // The schema's member names, each with any value.
    {
      weight: 1,
      arbitrary: fc.record(Object.fromEntries(topLevel.map((name) => [name, anyJson])), { requiredKeys: [] }),
    },
  );
}

/**
 * Reads a just-created resource on every GET route that names it (`param`), with both datetimes
 * where a route requires them. `mustExist`: each such route answers 2xx (downloads aside).
 */
async function readBack(param: string, id: string, mustExist: boolean): Promise<void> {
  for (const route of routes.filter(
    (one) => one.method === 'GET' && one.pathParams.some((p) => p.name === param),
  )) {
    const datetimes = route.queryParams.some((parameter) => parameter.name === 'from_datetime')
      ? '?from_datetime=2000-01-01T00:00:00%2B00:00&to_datetime=2100-01-01T00:00:00%2B00:00'
      : '';
    const answer = await sendChecked(kumo, {
      method: 'GET',
      url: `${goodPath(route, ids, { [param]: id })}${datetimes}`,
      headers: await authHeaders(route, key),
    });
    const download = route.pathParams.some((p) => p.name === 'file');
    if (mustExist && !download)
      assert.ok(answer.statusCode < 300, `${routeName(route)} ${id}: ${answer.statusCode} ${answer.body}`);
  }
}

describe('the fuzz oracle', () => {
  const ng = (statusCode: number, body: unknown): Answer => ({
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r' },
    body: JSON.stringify(body),
  });
  const request: SentRequest = { method: 'GET', url: '/x' };

  test('refuses a 5xx, a 4xx without the NG body, bad errors entries and a missing X-Request-ID', () => {
    assert.throws(() => checkAnswer(request, ng(500, { status: 'NG', message: 'internal' })), /5xx/);
    assert.throws(() => checkAnswer(request, ng(503, { status: 'NG', message: 'down' })), /5xx/);
    assert.throws(
      () => checkAnswer(request, ng(400, { statusCode: 400, error: 'Bad Request', message: 'x' })),
      /NG body/,
    );
    assert.throws(() => checkAnswer(request, ng(404, { status: 'NG' })), /NG body/);
    assert.throws(
      () =>
        checkAnswer(request, ng(400, { status: 'NG', message: 'm', errors: [{ field: 1, reason: 'r' }] })),
      /field/,
    );
    assert.throws(() => checkAnswer(request, ng(400, { status: 'NG', message: 'm', errors: {} })), /errors/);
    assert.throws(
      () =>
        checkAnswer(request, {
          ...ng(404, { status: 'NG', message: 'm' }),
          headers: { 'content-type': 'application/json' },
        }),
      /X-Request-ID/,
    );
    assert.throws(
      () =>
        checkAnswer(request, {
          ...ng(400, { status: 'NG', message: 'm' }),
          headers: { 'content-type': 'text/plain', 'x-request-id': 'r' },
        }),
      /JSON/,
    );
    checkAnswer(
      request,
      ng(400, { status: 'NG', message: 'm', errors: [{ field: 'query.q', reason: 'r' }] }),
    );
    checkAnswer(request, ng(200, { anything: true }));
    checkAnswer({ method: 'HEAD', url: '/x' }, { ...ng(404, {}), body: '' });
  });

  test('a request without an answer is a hang', async () => {
    const silent = { inject: () => new Promise<never>(() => {}) };
    await assert.rejects(send(silent, request, 50), /HANG/);
  });

  test('generated URLs that could be fetched are moved to the closed loopback port', () => {
    const body = neutralizeUrls({
      setting: {
        seed_urls: [
          'https://www.example.com/a?b',
          'http:example.org',
          ' http://127.0.0.1/',
          'http://a.example.invalid/x',
          'not a url',
        ],
      },
      url: 'http://127.0.0.1:9/hook',
    });
    assert.deepEqual(body, {
      setting: {
        seed_urls: [
          `${CLOSED_PORT_URL}a?b`,
          CLOSED_PORT_URL,
          CLOSED_PORT_URL,
          'http://a.example.invalid/x',
          'not a url',
        ],
      },
      url: 'http://127.0.0.1:9/hook',
    });
  });
});

describe('the route catalog', () => {
  test('the OpenAPI document lists the API families the fuzz is meant to cover', () => {
    const templates = routes.map(routeName);
    for (const expected of [
      'POST /api/v1/contracts/{contract_id}/servicegroups/{servicegroup_id}/crawler/request',
      'GET /api/v1.0/finder_service/documents/{contract_id}/{servicegroup_id}/{service_id}/search',
      'GET /api/v1.0/crawler_service/contracts/{contract_id}/servicegroups/{servicegroup_id}/service_settings/{service_setting_id}/histories',
      'GET /crawler/{generated_string}/{file}',
      'POST /admin/v1/contracts',
      'GET /api/v1.0/finder_service/health_check',
    ]) {
      assert.ok(templates.includes(expected), `${expected} is not in /docs/json`);
    }
    assert.ok(routes.some((route) => route.template.startsWith('/instant_crawler/')));
    assert.ok(routes.filter((route) => route.admin).length >= 20);
    console.log(`# fuzzing ${routes.length} operations of /docs/json`);
  });

  test('the fixtures answer on their good paths (the fuzz starts from requests that work)', async () => {
    for (const route of routes.filter((one) => one.method === 'GET')) {
      const answer = await send(kumo, {
        method: 'GET',
        url: goodPath(route, ids),
        headers: await authHeaders(route, key),
      });
      // The fixture run took no screenshot (that needs the browser): its screenshot is not found.
      if (route.template.endsWith('/screenshots/{row_id}') && answer.statusCode === 404) continue;
      // Routes with a required query parameter (datetimes, click's url) answer 400 naming it.
      const fields = (answer.json?.errors ?? []) as { field: string }[];
      if (
        answer.statusCode === 400 &&
        fields.length > 0 &&
        fields.every((error) => error.field.startsWith('query.'))
      )
        continue;
      assert.ok(answer.statusCode < 400, `${routeName(route)}: ${answer.statusCode} ${answer.body}`);
    }
  });
});

describe('property 5: raw bodies that are not JSON, sent as application/json', () => {
  test('answer 400 or 413 with the NG body, never 5xx', async () => {
    const bodyRoutes = routesWhere((route) => route.bodySchema !== undefined);
    const validText = (route: RouteSpec) =>
      fromSchema(route.bodySchema as JsonSchema, '', true).map((value) => toJsonText(neutralizeUrls(value)));
    const payloadFor = (route: RouteSpec): fc.Arbitrary<Buffer> =>
      fc.oneof(
        // Truncated JSON.
        validText(route).chain((text) =>
          fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => Buffer.from(text.slice(0, cut))),
        ),
        // A byte order mark before junk or before valid JSON.
        fc
          .tuple(validText(route), fc.boolean())
          .map(([text, junk]) => Buffer.from(`\ufeff${junk ? text.slice(1) : text}`)),
        // UTF-16 and other encodings of valid JSON.
        validText(route).chain((text) =>
          fc.constantFrom<BufferEncoding>('utf16le', 'latin1').map((encoding) => Buffer.from(text, encoding)),
        ),
        // Trailing garbage.
        fc
          .tuple(validText(route), fc.constantFrom('x', '}', ']', ',', ' 1', '{}', '\u0000', '\n{"a":1}'))
          .map(([text, tail]) => Buffer.from(text + tail)),
        // Not JSON at all, or JSON5-isms.
        fc
          .constantFrom(
            '',
            ' ',
            '\n',
            '{',
            '}',
            '[',
            '{"a":NaN}',
            "{'a':1}",
            '{"a":1,}',
            '{"a":1}//',
            '/*x*/{}',
            '{"a":undefined}',
            '{a:1}',
            '[1,]',
            '01',
            '.5',
            '+1',
            '"\\x41"',
            '"\\u12"',
            '{"name":"a\u0001b"}',
            '{"name":"a\nb"}',
            'tru',
            'nul',
            '\u0000',
            '{"__proto__":{"admin":true}}',
            '{"constructor":{"prototype":{"admin":true}}}',
          )
          .map((text) => Buffer.from(text)),
        // Invalid UTF-8 inside a string, and random bytes.
        fc
          .uint8Array({ minLength: 1, maxLength: 8 })
          .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), bytes, Buffer.from('"}')])),
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        // Over the 1 MiB limit: junk, or a valid document.
        fc
          .tuple(fc.integer({ min: 1, max: 4096 }), fc.boolean())
          .map(([extra, valid]) =>
            valid
              ? Buffer.from(`{"name":"${'x'.repeat(BODY_LIMIT_BYTES + extra)}"}`)
              : Buffer.alloc(BODY_LIMIT_BYTES + extra, '{'),
          ),
      );
    await property(
      'property 5 (raw bodies)',
      onRoute(bodyRoutes, payloadFor),
      async ([name, payload]) => {
        const route = routeNamed(name);
        const request: SentRequest = {
          method: route.method,
          url: goodPath(route, ids),
          headers: { ...(await authHeaders(route, key)), 'content-type': 'application/json' },
          payload,
        };
        const answer = await sendChecked(kumo, request);
        tally('property 5 (raw bodies)', answer.statusCode);
        if (payload.length > BODY_LIMIT_BYTES) {
          assert.equal(
            answer.statusCode,
            413,
            `over the limit: ${answer.statusCode} ${answer.body.slice(0, 200)}`,
          );
        } else if (!parsesAsJson(payload)) {
          assert.equal(answer.statusCode, 400, `not JSON: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
        }
      },
      300,
    );
  });
});

/**
 * Whether the service's JSON parser would take these bytes: UTF-8 with an optional BOM, and no
 * prototype poisoning (an own `__proto__` member, or `constructor` holding `prototype`).
 */
function parsesAsJson(payload: Buffer): boolean {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8').replace(/^\ufeff/, ''));
  } catch {
    return false;
  }
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) return false;
    const constructor = Object.prototype.hasOwnProperty.call(node, 'constructor')
      ? (node as Record<string, unknown>).constructor
      : undefined;
    if (
      constructor !== null &&
      typeof constructor === 'object' &&
      Object.prototype.hasOwnProperty.call(constructor, 'prototype')
    ) {
      return false;
    }
    stack.push(...Object.values(node));
  }
  return true;
}

describe('property 1: generated JSON bodies', () => {
  test('bodies to every route that takes one (and to the others): < 500, NG on 4xx', async () => {
    const bodyRoutes = routesWhere((route) => route.method !== 'GET');
    await property(
      'property 1 (bodies)',
      onRoute(bodyRoutes, bodyFor),
      async ([name, body]) => {
        const route = routeNamed(name);
        const answer = await sendChecked(kumo, {
          method: route.method,
          url: goodPath(route, ids),
          headers: { ...(await authHeaders(route, key)), 'content-type': 'application/json' },
          payload: toJsonText(neutralizeUrls(body)),
        });
        tally('property 1 (bodies)', answer.statusCode);
      },
      300,
    );
  });

  test('mutated valid crawler settings to POST .../crawler/request and the admin service settings', async () => {
    const targets = routesWhere(
      (route) =>
        route.bodySchema !== undefined &&
        (route.template.endsWith('/crawler/request') || route.template.includes('/service_settings')),
    );
    await property(
      'property 1b (settings)',
      onRoute(targets, (route) => {
        // A valid setting, or one with one member replaced, added, removed, stringified or wrapped.
        const valid = fromSchema(route.bodySchema as JsonSchema, '', true);
        return fc.oneof(
          valid,
          fc.tuple(valid, mutation).map(([value, change]) => mutate(value, change)),
        );
      }),
      async ([name, body]) => {
        const route = routeNamed(name);
        const payload = toJsonText(neutralizeUrls(body));
        const answer = await sendChecked(kumo, {
          method: route.method,
          url: goodPath(route, ids),
          headers: { ...(await authHeaders(route, key)), 'content-type': 'application/json' },
          payload,
        });
        tally('property 1b (settings)', answer.statusCode);
        // A body that parses names the fields it got wrong (a parse failure has no field to name).
        if (answer.statusCode === 400 && parsesAsJson(Buffer.from(payload))) {
          assert.ok(
            Array.isArray(answer.json.errors) && answer.json.errors.length > 0,
            `a 400 for a body names no field: ${answer.body}`,
          );
        }
        // What was accepted reads back on every route that shows it.
        if (answer.statusCode === 200) {
          const settingId = answer.json.service_setting_id ?? answer.json.service_setting?.id;
          if (settingId !== undefined) await readBack('service_setting_id', String(settingId), true);
          const requestId = answer.json.instant_crawl_request_id;
          if (requestId !== undefined) {
            await readBack('instant_crawl_request_id', String(requestId), false);
            await sendChecked(kumo, {
              method: 'GET',
              url: `${goodPath(route, ids).replace(/\/request$/, '/statuses')}?instant_crawl_request_ids=${requestId}`,
              headers: await authHeaders(route, key),
            });
          }
        }
      },
      200,
    );
  });
});

describe('property 1c: a generated search configuration, then generated searches', () => {
  test('PUT .../search_services/{id} then every search endpoint with a generated query: < 500, NG on 4xx', async () => {
    const configure = routesWhere(
      (route) => route.method === 'PUT' && route.template.endsWith('/search_services/{service_id}'),
    )[0] as RouteSpec;
    const searches = routesWhere(
      (route) => route.method === 'GET' && route.template.includes('/documents/{contract_id}/'),
    );
    const schema = configure.bodySchema as JsonSchema;
    const valid = fromSchema(schema, '', true);
    const config = fc.oneof(
      { weight: 3, arbitrary: valid },
      { weight: 1, arbitrary: fc.tuple(valid, mutation).map(([value, change]) => mutate(value, change)) },
    );
    const searchNames = searches.map(routeName);
    const calls = fc.array(
      fc.tuple(
        fc.constantFrom(...searchNames),
        queryString([
          'q',
          'category',
          'drilldown',
          'sort_by',
          'doctype',
          'page_number',
          'number_per_page',
          'callback',
          'url',
          'prefix',
        ]),
        fc.constantFrom(undefined, 'https://www.example.com', 'http://127.0.0.1:8080'),
      ),
      { minLength: 1, maxLength: 3 },
    );
    try {
      await property(
        'property 1c (search configuration)',
        fc.tuple(config, calls),
        async ([body, searchCalls]) => {
          const answer = await sendChecked(kumo, {
            method: 'PUT',
            url: goodPath(configure, ids),
            headers: { ...(await authHeaders(configure, key)), 'content-type': 'application/json' },
            payload: toJsonText(neutralizeUrls(body)),
          });
          tally('property 1c (search configuration)', answer.statusCode);
          for (const [name, query, origin] of searchCalls) {
            const search = routeNamed(name);
            const result = await sendChecked(kumo, {
              method: 'GET',
              url: `${goodPath(search, ids)}?${query}`,
              headers: origin === undefined ? {} : { origin },
            });
            tally('property 1c (search configuration)', result.statusCode);
          }
        },
        150,
      );
    } finally {
      await send(kumo, {
        method: 'PUT',
        url: goodPath(configure, ids),
        headers: { ...(await authHeaders(configure, key)), 'content-type': 'application/json' },
        payload: '{"config":{}}',
      });
    }
  });
});

describe('property 2: generated query strings', () => {
  test('every GET route: < 500, NG on 4xx', async () => {
    const getRoutes = routesWhere((route) => route.method === 'GET');
    await property(
      'property 2 (query strings)',
      onRoute(getRoutes, (route) => queryString(route.queryParams.map((parameter) => parameter.name))),
      async ([name, query]) => {
        const route = routeNamed(name);
        const answer = await sendChecked(kumo, {
          method: 'GET',
          url: `${goodPath(route, ids)}?${query}`,
          headers: await authHeaders(route, key),
        });
        tally('property 2 (query strings)', answer.statusCode);
      },
      300,
    );
  });

  test('raw non-ASCII and control bytes in the request line, over a real socket: < 500, NG on 4xx', async () => {
    const getRoutes = routesWhere((route) => route.method === 'GET');
    const rawBytes = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((text) => Buffer.from(text)),
      fc
        .uint8Array({ minLength: 1, maxLength: 8 })
        .map((bytes) => Buffer.from(bytes.filter((byte) => byte !== 0x0d && byte !== 0x0a))),
      fc.constantFrom(
        Buffer.from([0xe3, 0x81]),
        Buffer.from([0x8b, 0x9e]),
        Buffer.from('\t'),
        Buffer.from([0x7f]),
      ),
    );
    await property(
      'property 2b (raw request lines)',
      onRoute(getRoutes, () => fc.tuple(fc.string({ maxLength: 6 }), rawBytes, fc.boolean())),
      async ([routeKey, [name, bytes, inPath]]) => {
        const route = routeNamed(routeKey);
        const path = goodPath(route, ids);
        const headers = Object.entries(await authHeaders(route, key))
          .map(([header, value]) => `${header}: ${value}\r\n`)
          .join('');
        const prefix = inPath ? `GET ${path}/` : `GET ${path}?${encodeURIComponent(name) || 'q'}=`;
        const request = Buffer.concat([
          Buffer.from(prefix, 'latin1'),
          bytes,
          Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`, 'latin1'),
        ]);
        const answer = await rawHttp(kumo.port, request);
        tally('property 2b (raw request lines)', answer.statusCode);
        checkAnswer({ method: 'GET', url: request.toString('latin1').split('\r\n')[0] ?? '' }, answer);
      },
      100,
    );
  });
});

describe('property 4: generated headers', () => {
  test('x-mf-apikey, accept, content-type, authorization, x-request-id, origin on every route: < 500, NG on 4xx', async () => {
    const headerSet = fc.record({
      'x-mf-apikey': sometimes(
        fc.oneof(apiKeyValue, fc.array(apiKeyValue, { minLength: 2, maxLength: 3 })),
        40,
      ),
      accept: sometimes(fc.oneof(acceptValue, fc.array(acceptValue, { minLength: 2, maxLength: 2 })), 30),
      'content-type': sometimes(contentTypeValue, 30),
      authorization: sometimes(authorizationValue(), 40),
      'x-request-id': sometimes(headerValue, 50),
      origin: sometimes(
        fc.oneof(fc.constantFrom('https://www.example.com', 'null', 'http://127.0.0.1:9'), headerValue),
        20,
      ),
      referer: sometimes(
        fc.oneof(fc.constantFrom('https://www.example.com/page', 'not a url', 'http://[::1'), headerValue),
        20,
      ),
      'sec-fetch-site': sometimes(fc.constantFrom('cross-site', 'same-site', 'same-origin', 'none', ''), 20),
    });
    await property(
      'property 4 (headers)',
      fc
        .constantFrom(...routes)
        .chain((route) =>
          fc.tuple(
            fc.constant(route),
            headerSet,
            route.bodySchema ? fromSchema(route.bodySchema, '', true) : fc.constant(undefined),
            fc.boolean(),
          ),
        ),
      async ([route, generated, body, withAuth]) => {
        const headers: Record<string, string | string[]> = withAuth ? await authHeaders(route, key) : {};
        for (const [name, value] of Object.entries(generated)) {
          if (value === undefined) continue;
          headers[name] = Array.isArray(value)
            ? await Promise.all(value.map(async (one) => (one === CURRENT_KEY ? key.current() : one)))
            : value === CURRENT_KEY
              ? await key.current()
              : value;
        }
        const request: SentRequest = {
          method: route.method,
          url: goodPath(route, ids),
          headers,
          ...(body === undefined ? {} : { payload: toJsonText(neutralizeUrls(body)) }),
        };
        const answer = await sendChecked(kumo, request);
        tally('property 4 (headers)', answer.statusCode);
        // X-Request-ID: the client's value when it is 1–200 visible ASCII characters, else a UUID.
        const given = headers['x-request-id'];
        const echoed = String(answer.headers['x-request-id']);
        if (typeof given === 'string' && /^[\x21-\x7e]{1,200}$/.test(given)) assert.equal(echoed, given);
        else assert.match(echoed, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      },
      300,
    );
  });
});

describe('property 3: generated path segments where ids belong', () => {
  test('every route template, its own method or another: < 500, NG on 4xx', async () => {
    const templated = routesWhere((route) => route.pathParams.length > 0);
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
    await property(
      'property 3 (path ids)',
      onRoute(templated, (route) =>
        fc.tuple(
          fc.array(
            fc.tuple(fc.constantFrom(...route.pathParams.map((parameter) => parameter.name)), idSegment),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
          fc.oneof({ weight: 4, arbitrary: fc.constant(route.method) }, fc.constantFrom(...methods)),
          route.bodySchema ? fromSchema(route.bodySchema, '', true) : fc.constant(undefined),
        ),
      ),
      async ([name, [replacements, method, body]]) => {
        const route = routeNamed(name);
        const request: SentRequest = {
          method,
          url: goodPath(route, ids, Object.fromEntries(replacements)),
          headers: {
            ...(await authHeaders(route, key)),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined || method === 'GET' || method === 'HEAD'
            ? {}
            : { payload: toJsonText(neutralizeUrls(body)) }),
        };
        const answer = await sendChecked(kumo, request);
        tally('property 3 (path ids)', answer.statusCode);
      },
      300,
    );
  });
});

describe('after the fuzz', () => {
  test('the service answers health_check 200 and a 4xx of every family still has the NG body', async () => {
    await assertHealthy(kumo, key);
    for (const url of [`${GROUP}/nope`, '/api/v1/contracts/1/servicegroups/1/crawler/statuses', '/nowhere']) {
      const answer = await send(kumo, { method: 'GET', url });
      assert.ok(answer.statusCode >= 400 && answer.statusCode < 500, `${url}: ${answer.statusCode}`);
      assert.equal(ngBodyProblem(answer), undefined, answer.body);
    }
  });
});
