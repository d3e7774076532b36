/**
 * Observability (hardening issue): GET /metrics in the Prometheus text format behind the
 * management token, counting requests by route template, runs by state, pages fetched, fetch
 * errors by kind, queue depths and search latency; the health check's components; and the
 * request id on every log line written for a request.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { FetchFailure, type FetchFailureKind, type PageFetchResult } from '../../src/crawler/index.js';
import { fetchErrorKindOf } from '../../src/observability/index.js';
import { type RunningKumo, startKumo } from '../../src/startup/service.js';
import { docPath, FINDER_BASE, seedSearchIndex } from '../support/search-fixtures.js';
import {
  DEMO_TENANT,
  crawlerPathOf,
  freePort,
  makeTempDir,
  pollUntil,
  type RunView,
  TEST_ADMIN_TOKEN,
  TEST_API_KEY,
} from '../support/service-harness.js';

const HEALTH = `${FINDER_BASE}/health_check`;
const CRAWLER = crawlerPathOf(DEMO_TENANT);
const SEARCH_ROUTE = `${FINDER_BASE}/documents/:contract_id/:servicegroup_id/:service_id/search`;
const CRAWL_REQUEST_ROUTE = '/api/v1/contracts/:contract_id/servicegroups/:servicegroup_id/crawler/request';
/** Nothing listens on the discard port of the loopback: the connection is refused. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9/';

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  run_id?: number;
  req?: unknown;
  res?: unknown;
  [key: string]: unknown;
}

/** The service with its log lines captured (level info). */
let service: RunningKumo;
let dataDir: string;
const logText: string[] = [];
/** A site of three pages, one of them linking to a page that answers 404. */
let site: Server;
let siteUrl: string;

const logLines = (): LogLine[] =>
  logText
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);

async function call(
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const response = await service.app.inject({
    method,
    url,
    headers: {
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { payload: JSON.stringify(options.body) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  let json: any;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { statusCode: response.statusCode, headers: response.headers, body: response.body, json };
}

const withAdmin = { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
const withKey = { headers: { 'x-mf-apikey': TEST_API_KEY } };

/** Samples of the Prometheus text: `name{labels} value` lines. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const response = await call('GET', '/metrics', withAdmin);
  assert.equal(response.statusCode, 200, response.body);
  return parseMetrics(response.body);
}

/** The value of the sample of `name` whose labels include `labels`, summed when several match. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, sample) => sum + sample.value, 0);
}

async function crawl(setting: Record<string, unknown>): Promise<RunView> {
  const requested = await call('POST', `${CRAWLER}/request`, { ...withKey, body: { setting } });
  assert.equal(requested.statusCode, 200, requested.body);
  const id = requested.json.instant_crawl_request_id as number;
  return pollUntil(
    `request ${id} to finish`,
    async () => {
      const history = await call('GET', `${CRAWLER}/histories?instant_crawl_request_id=${id}`, withKey);
      return (history.json.crawl_histories as RunView[])[0];
    },
    20_000,
  );
}

before(async () => {
  site = createServer((request, response) => {
    const pages: Record<string, string> = {
      '/': '<html><head><title>Home</title></head><body><a href="/a">a</a> <a href="/b">b</a></body></html>',
      '/a': '<html><head><title>A</title></head><body><a href="/missing">gone</a></body></html>',
      '/b': '<html><head><title>B</title></head><body>b</body></html>',
    };
    const page = pages[request.url ?? ''];
    response.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not here');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  dataDir = await makeTempDir('kumo-observability-');
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      dataDir,
      host: '127.0.0.1',
      port,
      publicUrl: `http://127.0.0.1:${port}`,
      bootstrapApiKey: TEST_API_KEY,
      adminToken: TEST_ADMIN_TOKEN,
      allowPrivateNetworks: true,
      retryBaseDelayMs: 20,
      retryCount: 1,
      fetchTimeoutSeconds: 5,
      chromiumPath: '/nonexistent/chromium',
      logLevel: 'info',
    },
  );
  service = await startKumo(config, undefined, {
    logStream: { write: (line: string) => void logText.push(line) },
  });
  seedSearchIndex(dataDir, 1);
});

after(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

describe('GET /metrics', () => {
  test('needs the management token: 401 NG without it or with another', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { 'x-mf-apikey': TEST_API_KEY },
    ];
    for (const headers of attempts) {
      const response = await call('GET', '/metrics', { headers });
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json.status, 'NG');
      assert.match(String(response.headers['www-authenticate']), /^Bearer/);
    }
  });

  test('answers the Prometheus text format with every metric of the service, whatever the Accept', async () => {
    const response = await call('GET', '/metrics', {
      headers: { ...withAdmin.headers, accept: 'text/plain;version=0.0.4;q=0.5,*/*;q=0.1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    for (const name of [
      'kumo_http_requests_total',
      'kumo_http_request_duration_seconds',
      'kumo_runs',
      'kumo_run_queue_depth',
      'kumo_webhook_queue_depth',
      'kumo_pages_fetched_total',
      'kumo_fetch_errors_total',
      'kumo_search_duration_seconds',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.match(response.body, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    parseMetrics(response.body);
  });

  test('another method answers 405 only to a caller with the token', async () => {
    assert.equal((await call('POST', '/metrics', { body: {} })).statusCode, 401);
    const refused = await call('POST', '/metrics', { ...withAdmin, body: {} });
    assert.equal(refused.statusCode, 405, refused.body);
    assert.equal(refused.json.status, 'NG');
  });

  test('counts requests by route template and status, never by raw URL', async () => {
    const search = await call('GET', `${docPath(1)}/search?q=sitewide`);
    assert.equal(search.statusCode, 200, search.body);
    const missing = await call('GET', `${docPath(424242)}/search?q=sitewide`);
    assert.equal(missing.statusCode, 404, missing.body);
    assert.equal((await call('GET', '/no/such/path/123')).statusCode, 404);
    const samples = await scrape();
    const search200 = { route: SEARCH_ROUTE, method: 'GET', status: '200' };
    assert.ok((valueOf(samples, 'kumo_http_requests_total', search200) ?? 0) >= 1);
    assert.ok((valueOf(samples, 'kumo_http_requests_total', { ...search200, status: '404' }) ?? 0) >= 1);
    assert.ok(
      (valueOf(samples, 'kumo_http_requests_total', { route: 'unmatched', status: '404' }) ?? 0) >= 1,
    );
    const routes = new Set(
      samples
        .filter((sample) => sample.name === 'kumo_http_requests_total')
        .map((sample) => sample.labels.route),
    );
    for (const route of routes) assert.ok(route === 'unmatched' || !/\/\d+(\/|$)/.test(route!), route);
    assert.ok((valueOf(samples, 'kumo_search_duration_seconds_count') ?? 0) >= 1);
    assert.ok(
      (valueOf(samples, 'kumo_http_request_duration_seconds_count', { route: SEARCH_ROUTE }) ?? 0) >= 2,
    );
  });

  test('counts runs by state, pages fetched and fetch errors by kind after a crawl', async () => {
    const before = await scrape();
    const history = await crawl({ seed_urls: [`${siteUrl}/`, CLOSED_PORT_URL], robots_txt: false });
    assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
    // The home page, a, b, the missing page and the closed port.
    assert.equal(history.crawled_url_count, 5, JSON.stringify(history));
    const samples = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) =>
      (valueOf(samples, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    assert.ok(grew('kumo_pages_fetched_total') >= history.crawled_url_count);
    assert.equal(grew('kumo_fetch_errors_total', { kind: 'http_4xx' }), 1);
    assert.equal(grew('kumo_fetch_errors_total', { kind: 'connect' }), 1);
    assert.ok((valueOf(samples, 'kumo_runs', { state: '2030' }) ?? 0) >= 1);
    for (const state of ['2010', '2020', '2040', '2050', '2060'])
      assert.notEqual(valueOf(samples, 'kumo_runs', { state }), undefined, state);
    assert.equal(valueOf(samples, 'kumo_run_queue_depth'), valueOf(samples, 'kumo_runs', { state: '2010' }));
    assert.equal(valueOf(samples, 'kumo_webhook_queue_depth'), 0);
    const requested = { route: CRAWL_REQUEST_ROUTE, method: 'POST', status: '200' };
    assert.ok((valueOf(samples, 'kumo_http_requests_total', requested) ?? 0) >= 1);
  });

  test('is an operator endpoint, kept out of the OpenAPI document', async () => {
    const spec = await call('GET', '/docs/json');
    assert.equal(spec.statusCode, 200);
    assert.equal(spec.json.paths['/metrics'], undefined);
  });
});

describe('health check', () => {
  test('reports store, blob store, browser and scheduler', async () => {
    const response = await call('GET', HEALTH);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'OK');
    assert.deepEqual(response.json.browser, { available: false });
    const { components } = response.json;
    assert.deepEqual(components.store, { status: 'OK' });
    assert.deepEqual(components.blob_store, { status: 'OK' });
    assert.deepEqual(components.browser, { available: false });
    assert.equal(components.scheduler.status, 'OK');
    assert.equal(components.scheduler.running, true);
    assert.match(
      components.scheduler.last_tick_datetime,
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$/,
    );
    // Public: no path of the data directory.
    assert.ok(!response.body.includes(dataDir), response.body);
  });

  test('turns 503 NG when the artifact folder is not a folder, and OK again once it is', async () => {
    const artifacts = path.join(dataDir, 'artifacts');
    const aside = path.join(dataDir, 'artifacts-aside');
    await rename(artifacts, aside);
    await writeFile(artifacts, 'not a folder');
    try {
      const response = await call('GET', HEALTH, { headers: { 'x-request-id': 'obs-health-503' } });
      assert.equal(response.statusCode, 503, response.body);
      assert.equal(response.json.status, 'NG');
      assert.equal(response.json.components.blob_store.status, 'NG');
      assert.match(response.json.components.blob_store.message, /not a folder/);
      assert.equal(response.json.components.store.status, 'OK');
      assert.match(response.json.message, /blob_store/);
    } finally {
      await rm(artifacts);
      await rename(aside, artifacts);
    }
    assert.equal((await call('GET', HEALTH)).statusCode, 200);
  });

  test('the scheduler stopped makes it 503', async () => {
    service.scheduler!.stop();
    try {
      const response = await call('GET', HEALTH);
      assert.equal(response.statusCode, 503, response.body);
      assert.equal(response.json.components.scheduler.status, 'NG');
      assert.equal(response.json.components.scheduler.running, false);
    } finally {
      service.scheduler!.start();
    }
    assert.equal((await call('GET', HEALTH)).statusCode, 200);
  });
});

describe('logs', () => {
  test('every line written for a request carries its request id', async () => {
    // The 503 of the health check test logs a warning from inside the handler.
    await call('GET', `${CRAWLER}/statuses`, {
      headers: { 'x-request-id': 'obs-api-1', 'x-mf-apikey': TEST_API_KEY },
    });
    const lines = logLines();
    for (const id of ['obs-health-503', 'obs-api-1']) {
      const own = lines.filter((line) => line.reqId === id);
      const messages = own.map((line) => line.msg);
      assert.ok(messages.includes('incoming request'), `${id}: ${JSON.stringify(messages)}`);
      assert.ok(messages.includes('request completed'), `${id}: ${JSON.stringify(messages)}`);
    }
    assert.ok(
      lines.some((line) => line.reqId === 'obs-health-503' && line.msg === 'health check failed'),
      'the warning written while answering the health check has the request id',
    );
    // No line about a request lacks the id: request, response and handler lines alike.
    const aboutRequests = lines.filter(
      (line) =>
        line.req !== undefined ||
        line.res !== undefined ||
        JSON.stringify(line).includes('health_check') ||
        JSON.stringify(line).includes('/search'),
    );
    assert.ok(aboutRequests.length >= 4);
    for (const line of aboutRequests) assert.equal(typeof line.reqId, 'string', JSON.stringify(line));
  });

  test('a site search writes no request line below debug, yet /metrics counts it', async () => {
    const counted = async () =>
      (await scrape())
        .filter(
          (sample) => sample.name === 'kumo_http_requests_total' && sample.labels.route === SEARCH_ROUTE,
        )
        .reduce((sum, sample) => sum + sample.value, 0);
    const before = await counted();
    await call('GET', `${docPath(1)}/search?q=sitewide`, { headers: { 'x-request-id': 'obs-search-quiet' } });
    // Visitors' searches are the bulk of the traffic: at info their request lines are not written.
    assert.deepEqual(
      logLines().filter((line) => line.reqId === 'obs-search-quiet'),
      [],
    );
    assert.equal(await counted(), before + 1);
  });

  test('run lines carry the run id', () => {
    const runLines = logLines().filter((line) => /^run /.test(line.msg ?? ''));
    assert.ok(runLines.some((line) => line.msg === 'run started'));
    assert.ok(runLines.some((line) => line.msg === 'run finished'));
    for (const line of runLines) assert.equal(typeof line.run_id, 'number', JSON.stringify(line));
  });
});

describe('fetch error kinds', () => {
  const failed = (kind: string, cause?: unknown): PageFetchResult => ({
    kind: 'failed',
    failure: new FetchFailure(kind as FetchFailureKind, 'failed', { cause }),
    finalUrl: 'http://example.com/',
    status: undefined,
    headers: {},
  });
  const answered = (status: number, refusedRedirect?: string): PageFetchResult => ({
    kind: 'response',
    finalUrl: 'http://example.com/',
    status,
    headers: {},
    body: Buffer.from('x'),
    refusedRedirect,
  });
  const kindOf = (result: PageFetchResult, renderFailed = false) =>
    fetchErrorKindOf(
      result as Exclude<PageFetchResult, { kind: 'excluded' }>,
      renderFailed ? { kind: 'failed', reason: 'crashed' } : undefined,
    );
  const coded = (code: string) => Object.assign(new Error(code), { code });

  test('network failures by the code of their cause: dns, connect, tls, network', () => {
    assert.equal(kindOf(failed('network', coded('ENOTFOUND'))), 'dns');
    assert.equal(kindOf(failed('network', coded('EAI_AGAIN'))), 'dns');
    assert.equal(kindOf(failed('network', coded('ECONNREFUSED'))), 'connect');
    assert.equal(kindOf(failed('network', coded('UND_ERR_CONNECT_TIMEOUT'))), 'connect');
    const everyAddress = new AggregateError([coded('ECONNREFUSED'), coded('ENETUNREACH')]);
    assert.equal(kindOf(failed('network', everyAddress)), 'connect');
    assert.equal(kindOf(failed('network', coded('CERT_HAS_EXPIRED'))), 'tls');
    assert.equal(kindOf(failed('network', coded('ERR_TLS_CERT_ALTNAME_INVALID'))), 'tls');
    assert.equal(kindOf(failed('network', new Error('other side closed'))), 'network');
    assert.equal(kindOf(failed('network')), 'network');
  });

  test("the crawler's own kinds, and a kind added later under its own name", () => {
    assert.equal(kindOf(failed('timeout')), 'timeout');
    assert.equal(kindOf(failed('too_large')), 'body_too_large');
    assert.equal(kindOf(failed('too_many_redirects')), 'too_many_redirects');
    assert.equal(kindOf(failed('bad_response')), 'bad_response');
    assert.equal(kindOf(failed('address_refused')), 'address_refused');
    assert.equal(kindOf(failed('Odd Kind!')), 'odd_kind_');
  });

  test('answers that are not pages, refused redirects and failed renders', () => {
    assert.equal(kindOf(answered(200)), undefined);
    assert.equal(kindOf(answered(404)), 'http_4xx');
    assert.equal(kindOf(answered(503)), 'http_5xx');
    assert.equal(kindOf(answered(304)), 'http_3xx');
    assert.equal(kindOf(answered(302, 'redirect target out of scope (host)')), 'redirect_refused');
    assert.equal(kindOf(answered(200), true), 'render');
  });
});
