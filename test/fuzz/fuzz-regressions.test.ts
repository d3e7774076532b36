/**
 * Defects the API fuzz (api-fuzz.test.ts) once found, one test each with its minimal
 * reproduction, kept as regression tests: malformed escapes and overlong path parts, requests
 * Node's HTTP parser refuses, query datetimes of years 0–99, and text/plain bodies.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  startTestService,
  TEST_ADMIN_TOKEN,
  TEST_API_KEY,
  type TestService,
} from '../support/service-harness.js';
import {
  type Answer,
  DemoKey,
  fillTemplate,
  fuzzParameters,
  loadRouteCatalog,
  ngBodyProblem,
  rawHttp,
  type RouteSpec,
  routeName,
  send,
} from './fuzz-support.js';

let kumo: TestService;
let routes: RouteSpec[];

before(async () => {
  kumo = await startTestService({ overrides: { chromiumPath: '/nonexistent/kumo-fuzz-chromium' } });
  routes = await loadRouteCatalog(kumo);
});

after(async () => {
  await kumo?.close();
});

/** The owner's console session the session-only routes take. */
let demoKey: DemoKey | undefined;

const auth = async (route: RouteSpec): Promise<Record<string, string>> => ({
  ...(route.admin ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}),
  ...(route.apiKey ? { 'x-mf-apikey': TEST_API_KEY } : {}),
  ...(route.session ? await (demoKey ??= new DemoKey(kumo)).sessionHeaders() : {}),
});

/** What is wrong with a 4xx answer: not the NG body, or no X-Request-ID; undefined when it is right. */
function ngProblem(answer: Answer): string | undefined {
  if (answer.statusCode < 400 || answer.statusCode >= 500) return `status ${answer.statusCode}, not a 4xx`;
  const body = ngBodyProblem(answer);
  if (body !== undefined) return body;
  if (answer.headers['x-request-id'] === undefined) return 'no X-Request-ID';
  return undefined;
}

/** Fails with the number of bad answers and the first few of them. */
function assertNone(failures: string[], total: number): void {
  if (failures.length === 0) return;
  assert.fail(
    `${failures.length} of ${total} answers are wrong, e.g.:\n  ${failures.slice(0, 4).join('\n  ')}`,
  );
}

/** The path of a route with `segment` as its first path parameter (appended when it has none). */
function withSegment(route: RouteSpec, segment: string): string {
  const first = route.pathParams[0]?.name;
  if (first === undefined) return `${route.template}${segment}`;
  return fillTemplate(route.template, { [first]: segment });
}

describe('a malformed percent-escape in the path answers 400 with the NG body', () => {
  // GET /api/v1/contracts/%E3%81/servicegroups/1/crawler/statuses answers
  // 400 {"error":"Bad Request","code":"FST_ERR_BAD_URL","message":"'/api/...' is not a valid url component","statusCode":400}
  // without X-Request-ID. Cause: buildApp (src/api/build-app.ts) gives Fastify no `frameworkErrors`,
  // so fastify.js onBadUrl() writes its default body and bypasses the error handler and onSend hook.
  test('every route, with %E3%81 (a truncated UTF-8 sequence) or %ZZ in a path segment', async () => {
    const failures: string[] = [];
    let total = 1;
    for (const route of routes) {
      for (const segment of ['%E3%81', '%ZZ']) {
        total++;
        const url = withSegment(route, segment);
        const answer = await send(kumo, { method: route.method, url, headers: await auth(route) });
        const problem = ngProblem(answer);
        if (problem !== undefined)
          failures.push(
            `${route.method} ${url}: ${problem} — ${answer.statusCode} ${answer.body.slice(0, 120)}`,
          );
      }
    }
    const unknown = await send(kumo, { method: 'GET', url: '/nowhere/%ZZ' });
    const problem = ngProblem(unknown);
    if (problem !== undefined)
      failures.push(`GET /nowhere/%ZZ: ${problem} — ${unknown.statusCode} ${unknown.body.slice(0, 120)}`);
    assertNone(failures, total);
  });
});

describe('an overlong path part answers with the NG body, not Fastify’s 414', () => {
  // GET /crawler/<101 × "a">/url_list.csv.gz answers
  // 414 {"error":"Bad Request","code":"FST_ERR_MAX_PARAM_LENGTH",...} without X-Request-ID, although the
  // route's schema allows generated strings of 256 characters (unknown ones are 404). Cause: Fastify's
  // default maxParamLength (100) and no `frameworkErrors` in buildApp (src/api/build-app.ts);
  // fastify.js onMaxParamLength() writes the body. Expected: 400 (an id) or 404 (an unknown string), NG.
  test('every route with a path parameter, given 101 characters there', async () => {
    const failures: string[] = [];
    let total = 0;
    for (const route of routes.filter((one) => one.pathParams.length > 0)) {
      for (const segment of ['1'.repeat(101), 'a'.repeat(101)]) {
        total++;
        const url = withSegment(route, segment);
        const answer = await send(kumo, { method: route.method, url, headers: await auth(route) });
        const problem =
          ngProblem(answer) ??
          (answer.statusCode === 400 || answer.statusCode === 404
            ? undefined
            : `status ${answer.statusCode}`);
        if (problem !== undefined)
          failures.push(
            `${routeName(route)} [${segment.length} × "${segment[0]}"]: ${problem} — ${answer.statusCode} ${answer.body.slice(0, 80)}`,
          );
      }
    }
    assertNone(failures, total);
  });
});

describe('a request Node’s HTTP parser refuses answers with the NG body', () => {
  // Over a real socket (inject cannot send these bytes):
  //   GET /api/v1.0/finder_service/documents/1/1/1/search?q=<raw UTF-8 bytes of 京都> HTTP/1.1
  // answers 400 {"error":"Bad Request","message":"Client Error","statusCode":400} without X-Request-ID;
  // a control character in a header value answers the same, and headers over 16 KiB answer
  // 431 {"error":"Request Header Fields Too Large",...}. Cause: buildApp (src/api/build-app.ts) sets
  // no Fastify `clientErrorHandler`, so fastify.js defaultClientErrorHandler writes the body.
  const cases: [string, Buffer][] = [
    [
      'raw UTF-8 in the query of a search URL',
      Buffer.concat([
        Buffer.from('GET /api/v1.0/finder_service/documents/1/1/1/search?q='),
        Buffer.from('京都', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      ]),
    ],
    [
      'a control character (0x01) in x-mf-apikey',
      Buffer.from(
        'GET /api/v1/contracts/1/servicegroups/1/crawler/statuses HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'x-mf-apikey: a\u0001b\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
    ],
    [
      'an x-mf-apikey of 20,000 characters (headers over 16 KiB)',
      Buffer.from(
        'GET /api/v1/contracts/1/servicegroups/1/crawler/statuses HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `x-mf-apikey: ${'k'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
    ],
  ];
  for (const [name, bytes] of cases) {
    test(name, async () => {
      const answer = await rawHttp(kumo.port, bytes);
      assert.equal(ngProblem(answer), undefined, `${answer.statusCode} ${answer.body}`);
    });
  }
});

describe('query datetimes with a year 0000–0099 are read as those years', () => {
  // GET /api/v1/contracts/1/servicegroups/1/crawler/histories
  //     ?from_datetime=0099-01-01T00:00:00%2B00:00&to_datetime=1950-01-01T00:00:00%2B00:00
  // answers 400 "from_datetime must not be later than to_datetime" (expected 200): parseQueryDatetime
  // (src/util/timestamps.ts, `Date.UTC(y, mo - 1, d, ...)`) inherits Date.UTC's mapping of the years
  // 0–99 to 1900–1999, so 0099-01-01 becomes 1999-01-01. The scheduled crawler's histories share it.
  const year = fc.oneof(
    fc.integer({ min: 0, max: 120 }),
    fc.integer({ min: 1890, max: 2100 }),
    fc.integer({ min: 0, max: 9999 }),
  );
  const datetime = fc
    .record({
      year,
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
    })
    .map(({ year: y, month, day, hour }) => {
      const pad = (value: number, width = 2) => String(value).padStart(width, '0');
      return `${pad(y, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:00:00+00:00`;
    });

  test('a range whose from_datetime is earlier than its to_datetime is never refused as reversed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(datetime, datetime).filter(([a, b]) => a !== b),
        async ([a, b]) => {
          // Same offset and four-digit years: the earlier datetime is the smaller string.
          const [from, to] = a < b ? [a, b] : [b, a];
          const query = `from_datetime=${encodeURIComponent(from)}&to_datetime=${encodeURIComponent(to)}`;
          const answer = await send(kumo, {
            method: 'GET',
            url: `/api/v1/contracts/1/servicegroups/1/crawler/histories?${query}`,
            headers: { 'x-mf-apikey': TEST_API_KEY },
          });
          assert.equal(answer.statusCode, 200, `${query}: ${answer.body}`);
        },
      ),
      fuzzParameters(200),
    );
  });
});

describe('a text/plain body answers 415 as documented', () => {
  // POST /admin/v1/contracts with `Content-Type: text/plain` and body {"name":"x"} answers
  // 400 {"status":"NG","message":"body: must be object","errors":[{"field":"body",...}]}; docs/api.md
  // ("Errors") promises 415 for a body that is not JSON, as application/x-www-form-urlencoded gets.
  // Cause: Fastify's built-in text/plain content-type parser is left registered in buildApp.
  test('POST /admin/v1/contracts and POST .../crawler/request with Content-Type: text/plain', async () => {
    for (const [url, headers, payload] of [
      ['/admin/v1/contracts', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, '{"name":"x"}'],
      [
        '/api/v1/contracts/1/servicegroups/1/crawler/request',
        { 'x-mf-apikey': TEST_API_KEY },
        '{"setting":{"seed_urls":["http://127.0.0.1:9/"]}}',
      ],
    ] as const) {
      const answer = await send(kumo, {
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'text/plain' },
        payload,
      });
      assert.equal(answer.statusCode, 415, `${url}: ${answer.statusCode} ${answer.body}`);
      assert.equal(ngProblem(answer), undefined, answer.body);
    }
  });
});
