/**
 * The instant crawl API through `app.inject()` on a real service (store, worker pool): request,
 * statuses, cancel, histories, run states, validation, authentication and the generic HTTP rules
 * of docs/reference/conventions.md (Requests, Authentication, Failure body, Status codes) and
 * docs/reference/run-states.md (States, Transitions, Cancel).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  downloadPathOf,
  type InjectResult,
  type RunView,
  startTestService,
  type TestService,
  type TestTenant,
} from '../support/service-harness.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let kumo: TestService;
let trap: TrapServer;
let demo: TestTenant;
let other: TestTenant;
/** A run of the demo tenant that finished normally (2030). */
let finishedId: number;

before(async () => {
  trap = await startTrapServer();
  // One worker: a run on /hang holds it, so runs requested after it stay pending (2010).
  kumo = await startTestService({ overrides: { workerConcurrency: 1 } });
  demo = kumo.tenant;
  other = await kumo.createTenant('other');
  finishedId = await kumo.requestCrawl({ seed_urls: [`${trap.baseUrl}/a.html`], documents_limit: 1 });
  await kumo.waitForFinished(finishedId);
});

after(async () => {
  await kumo?.close();
  await trap?.close();
});

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  options: { key?: string | null; headers?: Record<string, string>; payload?: string | object } = {},
): Promise<InjectResult> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? demo.apiKey : options.key;
  if (key !== null) headers['x-mf-apikey'] = key;
  return kumo.inject({
    method,
    url,
    headers,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
}

const statuses = (query = '', tenant = demo) =>
  call('GET', `${tenant.crawlerPath}/statuses${query}`, { key: tenant.apiKey });
const histories = (query = '', tenant = demo) =>
  call('GET', `${tenant.crawlerPath}/histories${query}`, { key: tenant.apiKey });
const cancel = (requestId: number | string, tenant = demo) =>
  call('PUT', `${tenant.crawlerPath}/statuses/requests/${requestId}/cancel`, { key: tenant.apiKey });
const postSetting = (payload: string | object, headers: Record<string, string> = {}) =>
  call('POST', `${demo.crawlerPath}/request`, {
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A run that stays running (2020) until cancelled: its only page never answers. */
async function startBlocker(): Promise<number> {
  const id = await kumo.requestCrawl({ seed_urls: [`${trap.baseUrl}/hang`], robots_txt: false });
  await kumo.waitForStatus(id, (status) => status.crawl_execution_status_dtype_id === 2020);
  return id;
}

async function cancelAndWait(requestId: number, tenant = demo): Promise<RunView> {
  const response = await cancel(requestId, tenant);
  assert.equal(response.statusCode, 200, response.body);
  return kumo.waitForFinished(requestId, { tenant, timeoutMs: 5000 });
}

/** A quick run that is pending while a blocker holds the worker. */
const quickSetting = () => ({ seed_urls: [`${trap.baseUrl}/a.html`], documents_limit: 1 });

function assertNg(response: InjectResult, statusCode: number): void {
  assert.equal(response.statusCode, statusCode, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.equal(response.json?.status, 'NG', response.body);
  assert.equal(typeof response.json.message, 'string');
  assert.notEqual(response.json.message, '');
}

/** A 400 whose errors name `field` (exactly, or matching the regular expression). */
function assertFieldError(response: InjectResult, field: string | RegExp): void {
  assertNg(response, 400);
  const errors = response.json.errors as { field: string; reason: string }[];
  assert.ok(Array.isArray(errors) && errors.length > 0, `errors expected: ${response.body}`);
  for (const error of errors) {
    assert.equal(typeof error.field, 'string');
    assert.equal(typeof error.reason, 'string');
  }
  const names = errors.map((error) => error.field);
  const found = names.some((name) => (typeof field === 'string' ? name === field : field.test(name)));
  assert.ok(found, `no error names ${field}: ${JSON.stringify(errors)}`);
}

/** `yyyy-MM-ddTHH:mm:ss+NN:NN` of `epochMs` written with the given UTC offset. */
function queryDatetime(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const hh = String(Math.floor(absolute / 60)).padStart(2, '0');
  const mm = String(absolute % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/** Epoch microseconds of an API timestamp `yyyy-MM-ddTHH:mm:ss.SSSSSS+NN:NN`. */
function startMicros(timestamp: string): number {
  assert.match(timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/);
  return (
    Date.parse(`${timestamp.slice(0, 19)}${timestamp.slice(26)}`) * 1000 + Number(timestamp.slice(20, 26))
  );
}

/**
 * ISO 8601 `yyyy-MM-ddTHH:mm:ss.f...` of `micros` with `Z` or an offset in minutes, and `digits`
 * fraction digits: the microseconds cut to that many, or followed by 9s past the sixth.
 */
function isoDatetime(micros: number, offset: 'Z' | number, digits: number): string {
  const offsetMinutes = offset === 'Z' ? 0 : offset;
  const wholeSecondMs = Math.floor(micros / 1_000_000) * 1000;
  const local = new Date(wholeSecondMs + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const fraction = `${String(micros - wholeSecondMs * 1000).padStart(6, '0')}999`.slice(0, digits);
  if (offset === 'Z') return `${local}.${fraction}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const hh = String(Math.floor(absolute / 60)).padStart(2, '0');
  const mm = String(absolute % 60).padStart(2, '0');
  return `${local}.${fraction}${sign}${hh}:${mm}`;
}

describe('POST .../crawler/request', () => {
  test('answers 200 OK with an integer request id; the run ends as 2030 "stopped"', async () => {
    const response = await postSetting({ setting: quickSetting() });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.json.status, 'OK');
    assert.equal(typeof response.json.message, 'string');
    const id = response.json.instant_crawl_request_id;
    assert.ok(Number.isInteger(id) && id > finishedId, `request id ${id}`);

    const history = await kumo.waitForFinished(id);
    assert.equal(history.instant_crawl_request_id, id);
    assert.equal(history.crawl_execution_status_dtype_id, 2030);
    assert.equal(history.crawl_execution_status_dtype_name, 'stopped');
    assert.equal(history.is_cancel_request, false);
    assert.match(history.start_datetime ?? '', TIMESTAMP);
    assert.match(history.end_datetime ?? '', TIMESTAMP);
    assert.ok(history.end_datetime! >= history.start_datetime!);
    assert.equal(history.crawled_url_count, 1);
    assert.equal(history.crawl_url_list_path, downloadPathOf(demo, id, 'url_list.csv.gz'));
  });

  test('crawl_url_list_path points at crawl_objects.tar.gz when no URL list is collected', async () => {
    const id = await kumo.requestCrawl({ ...quickSetting(), crawl_result_collection: { url_list: 1 } });
    const history = await kumo.waitForFinished(id);
    assert.equal(history.crawl_execution_status_dtype_id, 2030);
    assert.equal(history.crawl_url_list_path, downloadPathOf(demo, id, 'crawl_objects.tar.gz'));
  });
});

describe('GET .../crawler/statuses', () => {
  let blocker: number;
  let pending: number;

  before(async () => {
    blocker = await startBlocker();
    pending = await kumo.requestCrawl(quickSetting());
  });

  after(async () => {
    await cancel(pending);
    await cancelAndWait(blocker);
  });

  test('one id of a running run: crawl_status in state 2020 "running" with a start time', async () => {
    const response = await statuses(`?instant_crawl_request_ids=${blocker}`);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(typeof response.json.message, 'string');
    const status = response.json.crawl_status as RunView;
    assert.equal(status.instant_crawl_request_id, blocker);
    assert.equal(typeof status.id, 'number');
    assert.equal(status.crawl_execution_status_dtype_id, 2020);
    assert.equal(status.crawl_execution_status_dtype_name, 'running');
    assert.equal(status.is_cancel_request, false);
    assert.match(status.start_datetime ?? '', TIMESTAMP);
    assert.equal(status.end_datetime, undefined);
    assert.equal(typeof status.crawled_url_count, 'number');
    assert.equal(typeof status.total_url_count, 'number');
    assert.deepEqual(
      (response.json.crawl_statuses as RunView[]).map((s) => s.instant_crawl_request_id),
      [blocker],
    );
  });

  test('one id of a pending run: state 2010 "not yet running" without times', async () => {
    const response = await statuses(`?instant_crawl_request_ids=${pending}`);
    assert.equal(response.statusCode, 200, response.body);
    const status = response.json.crawl_status as RunView;
    assert.equal(status.instant_crawl_request_id, pending);
    assert.equal(status.crawl_execution_status_dtype_id, 2010);
    assert.equal(status.crawl_execution_status_dtype_name, 'not yet running');
    assert.equal(status.is_cancel_request, false);
    assert.equal(status.start_datetime, undefined);
    assert.equal(status.end_datetime, undefined);
  });

  test('several ids: crawl_status is the first requested active id, crawl_statuses lists all active', async () => {
    const response = await statuses(`?instant_crawl_request_ids=${finishedId},${pending},${blocker}`);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.crawl_status.instant_crawl_request_id, pending);
    const listed = (response.json.crawl_statuses as RunView[]).map((s) => s.instant_crawl_request_id);
    assert.deepEqual(
      [...listed].sort((a, b) => a - b),
      [blocker, pending],
    );

    const reversed = await statuses(`?instant_crawl_request_ids=${blocker},${pending}`);
    assert.equal(reversed.json.crawl_status.instant_crawl_request_id, blocker);
  });

  test('no ids: every pending or running run of the tenant, and only of the tenant', async () => {
    const response = await statuses();
    assert.equal(response.statusCode, 200, response.body);
    const listed = (response.json.crawl_statuses as RunView[]).map((s) => s.instant_crawl_request_id);
    assert.deepEqual(
      [...listed].sort((a, b) => a - b),
      [blocker, pending],
    );
    assert.ok([blocker, pending].includes(response.json.crawl_status.instant_crawl_request_id));

    const foreign = await statuses('', other);
    assert.equal(foreign.statusCode, 200, foreign.body);
    assert.deepEqual(foreign.json.crawl_status, {});
    assert.deepEqual(foreign.json.crawl_statuses, []);
    const probing = await statuses(`?instant_crawl_request_ids=${blocker}`, other);
    assert.deepEqual(probing.json.crawl_status, {});
    assert.deepEqual(probing.json.crawl_statuses, []);
  });

  test('a finished id: crawl_status is {} and crawl_statuses is empty', async () => {
    const response = await statuses(`?instant_crawl_request_ids=${finishedId}`);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json.crawl_status, {});
    assert.deepEqual(response.json.crawl_statuses, []);
  });

  test('ids that are not positive integers: 400 naming query.instant_crawl_request_ids', async () => {
    for (const raw of ['abc', `${blocker},x`, '1.5', '-3', '0', '1,,2', '0x10']) {
      const response = await statuses(`?instant_crawl_request_ids=${encodeURIComponent(raw)}`);
      assertFieldError(response, 'query.instant_crawl_request_ids');
    }
  });
});

describe('PUT .../crawler/statuses/requests/{id}/cancel', () => {
  test('a running run: OK with is_cancel_request true; it ends 2050 within 5 s without artifact', async () => {
    const blocker = await startBlocker();
    const started = Date.now();
    const response = await cancel(blocker);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'OK');
    assert.equal(typeof response.json.message, 'string');
    assert.equal(response.json.crawl_status.instant_crawl_request_id, blocker);
    assert.equal(response.json.crawl_status.is_cancel_request, true);

    const history = await kumo.waitForFinished(blocker, { timeoutMs: 5000 });
    assert.ok(Date.now() - started < 5000);
    assert.equal(history.crawl_execution_status_dtype_id, 2050);
    assert.equal(history.crawl_execution_status_dtype_name, 'stopped by cancel');
    assert.equal(history.is_cancel_request, true);
    assert.equal(history.crawl_url_list_path, '-');
    assert.match(history.start_datetime ?? '', TIMESTAMP);
    assert.match(history.end_datetime ?? '', TIMESTAMP);
    const status = await statuses(`?instant_crawl_request_ids=${blocker}`);
    assert.deepEqual(status.json.crawl_status, {});
  });

  test('a pending run: OK, and it is at once in the history as 2050', async () => {
    const blocker = await startBlocker();
    try {
      const pending = await kumo.requestCrawl(quickSetting());
      const response = await cancel(pending);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json.status, 'OK');
      assert.equal(response.json.crawl_status.is_cancel_request, true);
      const history = await histories(`?instant_crawl_request_id=${pending}`);
      const [run] = history.json.crawl_histories as RunView[];
      assert.equal(run?.crawl_execution_status_dtype_id, 2050);
      assert.equal(run?.crawl_url_list_path, '-');
    } finally {
      await cancelAndWait(blocker);
    }
  });

  test('a finished run: 200 with status NG saying it already finished', async () => {
    const response = await cancel(finishedId);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'NG');
    assert.match(response.json.message, /finished/);
    assert.equal(response.json.crawl_status.crawl_execution_status_dtype_id, 2030);
    const history = await histories(`?instant_crawl_request_id=${finishedId}`);
    assert.equal(history.json.crawl_histories[0].is_cancel_request, false);
  });

  test('an unknown id: 404 NG', async () => {
    assertNg(await cancel(987654), 404);
  });

  test("another tenant's request id: 404, and the run is left alone", async () => {
    const blocker = await startBlocker();
    try {
      assertNg(await cancel(blocker, other), 404);
      const status = await statuses(`?instant_crawl_request_ids=${blocker}`);
      assert.equal(status.json.crawl_status.crawl_execution_status_dtype_id, 2020);
      assert.equal(status.json.crawl_status.is_cancel_request, false);
    } finally {
      await cancelAndWait(blocker);
    }
  });

  test('a request id that is not an integer: 400 naming it', async () => {
    assertFieldError(await cancel('abc'), /instant_crawl_request_id$/);
  });
});

describe('run states', () => {
  test('execution_timeout expiry ends the run as 2060 "stopped by timeout" without artifact', async () => {
    const id = await kumo.requestCrawl({
      seed_urls: [`${trap.baseUrl}/hang`],
      robots_txt: false,
      execution_timeout: 1,
    });
    const history = await kumo.waitForFinished(id, { timeoutMs: 8000 });
    assert.equal(history.crawl_execution_status_dtype_id, 2060);
    assert.equal(history.crawl_execution_status_dtype_name, 'stopped by timeout');
    assert.equal(history.is_cancel_request, false);
    assert.equal(history.crawl_url_list_path, '-');
  });

  test('a run whose artifacts cannot be written ends as 2040 "fault" without artifact', async () => {
    const blocker = await startBlocker();
    let id: number;
    try {
      id = await kumo.requestCrawl(quickSetting());
      const pendingStatus = await statuses(`?instant_crawl_request_ids=${id}`);
      const runId = pendingStatus.json.crawl_status.id as number;
      assert.equal(pendingStatus.json.crawl_status.crawl_execution_status_dtype_id, 2010);
      // A plain file where the run's artifact folder belongs makes packaging fail.
      await writeFile(path.join(kumo.dataDir, 'artifacts', String(runId)), 'in the way');
    } finally {
      await cancelAndWait(blocker);
    }
    const history = await kumo.waitForFinished(id);
    assert.equal(history.crawl_execution_status_dtype_id, 2040);
    assert.equal(history.crawl_execution_status_dtype_name, 'fault');
    assert.equal(history.crawl_url_list_path, '-');
  });
});

describe('GET .../crawler/histories', () => {
  let tenant: TestTenant;
  let ids: number[];

  before(async () => {
    tenant = await kumo.createTenant('history');
    const blocker = await startBlocker();
    ids = [];
    try {
      for (let i = 0; i < 11; i++) {
        const id = await kumo.requestCrawl(quickSetting(), tenant);
        const response = await cancel(id, tenant);
        assert.equal(response.json.status, 'OK');
        ids.push(id);
      }
    } finally {
      await cancelAndWait(blocker);
    }
  });

  const idsOf = (response: InjectResult) =>
    (response.json.crawl_histories as RunView[]).map((run) => run.instant_crawl_request_id);

  test('at most 10 runs of the tenant, newest first', async () => {
    const response = await histories('', tenant);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'OK');
    assert.equal(typeof response.json.message, 'string');
    assert.deepEqual(idsOf(response), [...ids].reverse().slice(0, 10));
    for (const run of response.json.crawl_histories as RunView[]) {
      assert.equal(run.crawl_execution_status_dtype_id, 2050);
      assert.equal(run.crawl_execution_status_dtype_name, 'stopped by cancel');
      assert.equal(run.is_cancel_request, true);
      assert.equal(run.crawl_url_list_path, '-');
      assert.match(run.start_datetime ?? '', TIMESTAMP);
      assert.match(run.end_datetime ?? '', TIMESTAMP);
      assert.equal(typeof run.id, 'number');
    }
  });

  test('instant_crawl_request_id limits the result to that request', async () => {
    const oldest = ids[0]!;
    assert.deepEqual(idsOf(await histories(`?instant_crawl_request_id=${oldest}`, tenant)), [oldest]);
    // Another tenant's request is never shown.
    assert.deepEqual(idsOf(await histories(`?instant_crawl_request_id=${finishedId}`, tenant)), []);
    assert.deepEqual(idsOf(await histories(`?instant_crawl_request_id=${oldest}`)), []);
  });

  test('from_datetime and to_datetime bound the start time, offsets included', async () => {
    const now = Date.now();
    const hour = 3_600_000;
    const top10 = [...ids].reverse().slice(0, 10);
    const q = (name: string, epochMs: number, offset = 0) =>
      `${name}=${encodeURIComponent(queryDatetime(epochMs, offset))}`;

    assert.deepEqual(idsOf(await histories(`?${q('from_datetime', now - hour)}`, tenant)), top10);
    assert.deepEqual(idsOf(await histories(`?${q('from_datetime', now + hour)}`, tenant)), []);
    assert.deepEqual(idsOf(await histories(`?${q('to_datetime', now - hour)}`, tenant)), []);
    assert.deepEqual(
      idsOf(await histories(`?${q('from_datetime', now - hour)}&${q('to_datetime', now + hour)}`, tenant)),
      top10,
    );
    // The same instants written in other offsets: a reader ignoring the offset would get these wrong.
    assert.deepEqual(idsOf(await histories(`?${q('from_datetime', now - hour, 9 * 60)}`, tenant)), top10);
    assert.deepEqual(idsOf(await histories(`?${q('to_datetime', now + hour, -5 * 60)}`, tenant)), top10);
    assert.deepEqual(idsOf(await histories(`?${q('from_datetime', now + hour, -5 * 60)}`, tenant)), []);
  });

  test('a "+" sent unencoded (read as a space) is accepted as "+"', async () => {
    const from = queryDatetime(Date.now() - 3_600_000, 9 * 60);
    assert.match(from, /\+09:00$/);
    const response = await histories(`?from_datetime=${from}`, tenant);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(idsOf(response), [...ids].reverse().slice(0, 10));
  });

  test('ISO 8601 forms: Z and fractions of a second bound the start time to the microsecond', async () => {
    const listed = (await histories('', tenant)).json.crawl_histories as RunView[];
    const startOf = (run: RunView) => startMicros(run.start_datetime ?? '');
    const pivot = startOf(listed[4]!);
    const older = startOf(listed[7]!);
    const between = (from: number, to = Infinity) =>
      listed
        .filter((run) => startOf(run) >= from && startOf(run) <= to)
        .map((run) => run.instant_crawl_request_id);
    const query = (from: string, to?: string) =>
      histories(
        `?from_datetime=${encodeURIComponent(from)}${to === undefined ? '' : `&to_datetime=${encodeURIComponent(to)}`}`,
        tenant,
      ).then((response) => {
        assert.equal(response.statusCode, 200, response.body);
        return idsOf(response);
      });
    assert.ok(between(pivot).includes(listed[4]!.instant_crawl_request_id));

    // A bound at the run's own microsecond includes it; one microsecond later excludes it.
    assert.deepEqual(await query(isoDatetime(pivot, 'Z', 6)), between(pivot));
    assert.deepEqual(await query(isoDatetime(pivot + 1, 'Z', 6)), between(pivot + 1));
    assert.notDeepEqual(between(pivot + 1), between(pivot));
    assert.deepEqual(
      await query(isoDatetime(older, 9 * 60, 6), isoDatetime(pivot, -5 * 60, 6)),
      between(older, pivot),
    );
    assert.deepEqual(
      await query(isoDatetime(older, 'Z', 6), isoDatetime(pivot - 1, 'Z', 6)),
      between(older, pivot - 1),
    );
    // Fewer digits are tenths, hundredths...; digits past the microsecond are dropped.
    const tenth = Math.floor(pivot / 100_000) * 100_000;
    assert.deepEqual(await query(isoDatetime(pivot, 'Z', 1)), between(tenth));
    assert.deepEqual(await query(isoDatetime(pivot, 9 * 60, 9)), between(pivot));
    // A "+" sent unencoded arrives as a space, with a fraction too.
    const unencoded = isoDatetime(pivot, 9 * 60, 6);
    const response = await histories(`?from_datetime=${unencoded}`, tenant);
    assert.deepEqual(idsOf(response), between(pivot), unencoded);
    // The answer keeps the contract's timestamp format.
    for (const run of listed) assert.match(run.start_datetime ?? '', TIMESTAMP);
  });

  test('a datetime that does not parse: 400 naming the parameter', async () => {
    for (const bad of ['yesterday', '2024-01-01', '2024-02-30T00:00:00+00:00', '2024-01-01T25:00:00+00:00']) {
      const from = await histories(`?from_datetime=${encodeURIComponent(bad)}`, tenant);
      assertFieldError(from, 'query.from_datetime');
      assert.match(from.json.message, /from_datetime/);
      const to = await histories(`?to_datetime=${encodeURIComponent(bad)}`, tenant);
      assertFieldError(to, 'query.to_datetime');
      assert.match(to.json.message, /to_datetime/);
    }
  });

  test('from_datetime later than to_datetime: 400', async () => {
    const response = await histories(
      `?from_datetime=2030-01-01T00:00:00%2B00:00&to_datetime=2020-01-01T00:00:00%2B00:00`,
      tenant,
    );
    assertFieldError(response, /from_datetime|to_datetime/);
  });

  test('instant_crawl_request_id that is not an integer: 400 naming query.instant_crawl_request_id', async () => {
    assertFieldError(
      await histories('?instant_crawl_request_id=abc', tenant),
      'query.instant_crawl_request_id',
    );
  });

  test('an unknown query parameter: 400 naming it', async () => {
    assertFieldError(
      await histories('?instant_crawl_request_idz=1', tenant),
      'query.instant_crawl_request_idz',
    );
  });
});

describe('request validation', () => {
  const seed = () => `${trap.baseUrl}/a.html`;

  test('an unknown setting field (typo seed_url): 400 naming it', async () => {
    const response = await postSetting({ setting: { seed_url: [seed()] } });
    assertFieldError(response, 'setting.seed_url');
    const typo = response.json.errors.find((e: { field: string }) => e.field === 'setting.seed_url');
    assert.match(typo.reason, /unknown/);
  });

  test('an unknown top-level field: 400 naming it', async () => {
    assertFieldError(await postSetting({ setting: { seed_urls: [seed()] }, extra: 1 }), 'extra');
  });

  test('a wrong type (depth_limit "3"): 400, no coercion', async () => {
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], depth_limit: '3' } }),
      'setting.depth_limit',
    );
    assertFieldError(await postSetting({ setting: { seed_urls: seed() } }), 'setting.seed_urls');
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], robots_txt: 'false' } }),
      'setting.robots_txt',
    );
  });

  test('bad seed URLs: 400 naming the entry', async () => {
    assertFieldError(await postSetting({ setting: { seed_urls: ['ftp://x'] } }), 'setting.seed_urls[0]');
    assertFieldError(await postSetting({ setting: { seed_urls: ['not a url'] } }), 'setting.seed_urls[0]');
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed(), '/relative'] } }),
      'setting.seed_urls[1]',
    );
    assertFieldError(await postSetting({ setting: { seed_urls: [] } }), 'setting.seed_urls');
  });

  test('a bad sitemap_lastmod_skip_days: 400 naming it and the range', async () => {
    for (const days of [-1, 366, 1.5, '7', true]) {
      const response = await postSetting({
        setting: { seed_urls: [seed()], sitemap_lastmod_skip_days: days },
      });
      assertFieldError(response, 'setting.sitemap_lastmod_skip_days');
      const errors = response.json.errors as { field: string; reason: string }[];
      const reason = errors.find((error) => error.field === 'setting.sitemap_lastmod_skip_days')!.reason;
      assert.match(reason, /integer|365|0/, `${String(days)}: ${reason}`);
    }
  });

  test('bad sitemap settings: 400 naming the entry or the field', async () => {
    assertFieldError(
      await postSetting({
        setting: { seed_urls: [seed()], sitemap_urls: [`${seed()}sitemap.xml`, 'sitemap.xml'] },
      }),
      'setting.sitemap_urls[1]',
    );
    assertFieldError(
      await postSetting({
        setting: { seed_urls: [seed()], sitemap_urls: ['https://user:pw@example.com/sitemap.xml'] },
      }),
      'setting.sitemap_urls[0]',
    );
    assertFieldError(
      await postSetting({
        setting: { seed_urls: [seed()], sitemap_urls: 'https://example.com/sitemap.xml' },
      }),
      'setting.sitemap_urls',
    );
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], sitemaps: 'yes' } }),
      'setting.sitemaps',
    );
    const tooMany = Array.from({ length: 101 }, (_, index) => `https://example.com/s${index}.xml`);
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], sitemap_urls: tooMany } }),
      'setting.sitemap_urls',
    );
  });

  test('an invalid regular expression: 400 naming the pattern', async () => {
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], allow_urls_patterns: ['('] } }),
      'setting.allow_urls_patterns[0]',
    );
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], deny_urls_patterns: ['ok', '[a-'] } }),
      'setting.deny_urls_patterns[1]',
    );
  });

  test('numbers out of range: 400 naming the field', async () => {
    const cases: [string, unknown][] = [
      ['base_concurrent_requests', 65],
      ['base_concurrent_requests', 0],
      ['execution_timeout', 259201],
      ['execution_timeout', 0],
      ['depth_limit', -1],
      ['download_delay', -0.5],
    ];
    for (const [field, value] of cases) {
      assertFieldError(
        await postSetting({ setting: { seed_urls: [seed()], [field]: value } }),
        `setting.${field}`,
      );
    }
  });

  test('a screenshot viewport out of range: 400 naming the nested field', async () => {
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], screenshot: { viewport_width: 100 } } }),
      'setting.screenshot.viewport_width',
    );
    assertFieldError(
      await postSetting({ setting: { seed_urls: [seed()], screenshot: { viewport_height: 5000 } } }),
      'setting.screenshot.viewport_height',
    );
  });

  test('execution_timeout 259200 (the maximum) is accepted', async () => {
    const response = await postSetting({
      setting: { seed_urls: [seed()], documents_limit: 1, execution_timeout: 259200 },
    });
    assert.equal(response.statusCode, 200, response.body);
    await kumo.waitForFinished(response.json.instant_crawl_request_id);
  });

  test('a missing setting: 400 naming setting', async () => {
    assertFieldError(await postSetting({}), 'setting');
    assertFieldError(await postSetting({ setting: null }), 'setting');
  });

  test('a body that is not JSON: 400 NG', async () => {
    assertNg(await postSetting('{"setting": {"seed_urls": ['), 400);
    assertNg(await postSetting(''), 400);
  });

  test('invalid requests create no run', async () => {
    const before = await histories();
    await postSetting({ setting: { seed_urls: ['ftp://x'] } });
    await postSetting({ setting: { seed_url: [seed()] } });
    const active = await statuses();
    assert.deepEqual(active.json.crawl_statuses, []);
    assert.deepEqual(await histories().then((r) => r.json.crawl_histories), before.json.crawl_histories);
  });
});

describe('authentication and tenancy', () => {
  const endpoints = (tenant: TestTenant): [string, string, object | undefined][] => [
    ['POST', `${tenant.crawlerPath}/request`, { setting: { seed_urls: ['http://127.0.0.1:9/'] } }],
    ['GET', `${tenant.crawlerPath}/statuses`, undefined],
    ['GET', `${tenant.crawlerPath}/histories`, undefined],
    ['PUT', `${tenant.crawlerPath}/statuses/requests/${finishedId}/cancel`, undefined],
  ];

  test('a missing key: 401 on every endpoint', async () => {
    for (const [method, url, payload] of endpoints(demo)) {
      const response = await call(method as 'GET', url, { key: null, ...(payload ? { payload } : {}) });
      assertNg(response, 401);
    }
    assertNg(await call('GET', `${demo.crawlerPath}/statuses`, { key: '' }), 401);
  });

  test('a wrong key: 401 on every endpoint', async () => {
    for (const [method, url, payload] of endpoints(demo)) {
      const response = await call(method as 'GET', url, {
        key: 'kumo_wrong',
        ...(payload ? { payload } : {}),
      });
      assertNg(response, 401);
    }
  });

  test('the key is checked before the body: an invalid body without key is 401', async () => {
    const response = await call('POST', `${demo.crawlerPath}/request`, {
      key: null,
      payload: { setting: { seed_url: 'x' } },
    });
    assertNg(response, 401);
  });

  test("a valid key on another tenant's path: 403 on every endpoint", async () => {
    for (const [method, url, payload] of endpoints(demo)) {
      const response = await call(method as 'GET', url, {
        key: other.apiKey,
        ...(payload ? { payload } : {}),
      });
      assertNg(response, 403);
    }
    for (const [method, url, payload] of endpoints(other)) {
      const response = await call(method as 'GET', url, {
        key: demo.apiKey,
        ...(payload ? { payload } : {}),
      });
      assertNg(response, 403);
    }
    // Same contract, other service group.
    const sameContract = await call('GET', '/api/v1/contracts/1/servicegroups/2/crawler/statuses');
    assertNg(sameContract, 403);
  });

  test("another tenant's request id: 404 on cancel and download", async () => {
    assertNg(await cancel(finishedId, other), 404);
    for (const file of ['url_list.csv.gz', 'crawl_objects.tar.gz']) {
      const foreign = await call('GET', downloadPathOf(other, finishedId, file), { key: other.apiKey });
      assertNg(foreign, 404);
    }
    // The owner gets its redirect, so the 404 above is about ownership.
    const own = await call('GET', downloadPathOf(demo, finishedId, 'url_list.csv.gz'));
    assert.equal(own.statusCode, 302, own.body);
  });

  test('a revoked key: 401', async () => {
    const revoked = await kumo.createTenant('revoked');
    assert.equal((await statuses('', revoked)).statusCode, 200);
    const [record] = await kumo.service.store.apiKeys.list(revoked.contractId);
    assert.ok(record);
    await kumo.service.store.apiKeys.revoke(record.id, Date.now() * 1000);
    assertNg(await statuses('', revoked), 401);
  });
});

describe('HTTP conventions', () => {
  test('X-Request-ID is echoed, on failures too', async () => {
    const ok = await call('GET', `${demo.crawlerPath}/statuses`, {
      headers: { 'x-request-id': 'client-id-42' },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-request-id'], 'client-id-42');
    const denied = await call('GET', `${demo.crawlerPath}/statuses`, {
      key: null,
      headers: { 'x-request-id': 'client-id-43' },
    });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['x-request-id'], 'client-id-43');
    const invalid = await postSetting({}, { 'x-request-id': 'client-id-44' });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.headers['x-request-id'], 'client-id-44');
    const missing = await call('GET', '/api/v1/nothing', { headers: { 'x-request-id': 'client-id-45' } });
    assert.equal(missing.headers['x-request-id'], 'client-id-45');
  });

  test('X-Request-ID is generated when absent or unusable', async () => {
    const first = await statuses();
    const second = await statuses();
    assert.match(String(first.headers['x-request-id']), UUID);
    assert.match(String(second.headers['x-request-id']), UUID);
    assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
    const spaced = await call('GET', `${demo.crawlerPath}/statuses`, {
      headers: { 'x-request-id': 'has space' },
    });
    assert.match(String(spaced.headers['x-request-id']), UUID);
    const long = await call('GET', `${demo.crawlerPath}/statuses`, {
      headers: { 'x-request-id': 'x'.repeat(201) },
    });
    assert.match(String(long.headers['x-request-id']), UUID);
    const notFound = await call('GET', '/nothing-here', { key: null });
    assert.match(String(notFound.headers['x-request-id']), UUID);
  });

  test('a wrong method on a known path: 405 with Allow', async () => {
    const cases: [string, string, RegExp][] = [
      ['DELETE', `${demo.crawlerPath}/request`, /^POST$/],
      ['GET', `${demo.crawlerPath}/request`, /^POST$/],
      ['POST', `${demo.crawlerPath}/statuses`, /\bGET\b/],
      ['DELETE', `${demo.crawlerPath}/histories`, /\bGET\b/],
      ['GET', `${demo.crawlerPath}/statuses/requests/${finishedId}/cancel`, /^PUT$/],
      ['PATCH', downloadPathOf(demo, finishedId, 'url_list.csv.gz'), /\bGET\b/],
    ];
    for (const [method, url, allow] of cases) {
      const response = await call(method as 'GET', url);
      assertNg(response, 405);
      assert.match(String(response.headers.allow), allow, `${method} ${url}`);
    }
  });

  test('an Accept header that excludes JSON: 406 NG', async () => {
    for (const accept of ['text/html', 'application/xml', 'application/json;q=0, text/html']) {
      const response = await call('GET', `${demo.crawlerPath}/statuses`, { headers: { accept } });
      assertNg(response, 406);
    }
    for (const accept of ['application/json', '*/*', 'text/html, application/json;q=0.5', 'application/*']) {
      const response = await call('GET', `${demo.crawlerPath}/statuses`, { headers: { accept } });
      assert.equal(response.statusCode, 200, `${accept}: ${response.body}`);
    }
  });

  test('an unknown path: 404 NG', async () => {
    assertNg(await call('GET', '/api/v1/nothing'), 404);
    assertNg(await call('GET', '/nothing-here', { key: null }), 404);
    assertNg(await call('GET', `${demo.crawlerPath}/statuses/requests/${finishedId}`), 404);
  });

  test('the health check answers OK', async () => {
    const response = await call('GET', '/api/v1.0/finder_service/health_check', { key: null });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'OK');
  });

  test('OpenAPI 3 document at /docs/json and the UI at /docs', async () => {
    const spec = await call('GET', '/docs/json', { key: null });
    assert.equal(spec.statusCode, 200, spec.body);
    assert.match(String(spec.json.openapi), /^3\./);
    const paths = Object.keys(spec.json.paths ?? {});
    const crawler = '/api/v1/contracts/{contract_id}/servicegroups/{servicegroup_id}/crawler';
    for (const route of [
      `${crawler}/request`,
      `${crawler}/statuses`,
      `${crawler}/histories`,
      `${crawler}/statuses/requests/{instant_crawl_request_id}/cancel`,
    ]) {
      assert.ok(paths.includes(route), `${route} missing from ${paths.join(', ')}`);
    }
    assert.ok(spec.json.paths[`${crawler}/request`].post);

    let ui = await call('GET', '/docs', { key: null });
    if (ui.statusCode >= 300 && ui.statusCode < 400) {
      const location = String(ui.headers.location);
      ui = await call('GET', location.startsWith('/') ? location : `/docs/${location}`, { key: null });
    }
    assert.equal(ui.statusCode, 200);
    assert.match(String(ui.headers['content-type']), /text\/html/);
  });
});
