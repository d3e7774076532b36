/**
 * The runs of a service group through the management API on a real service and a real crawl of
 * a loopback fixture site (docs/api.md, Runs): start an instant crawl, follow it with server-sent
 * events to its end, list it, filter its URL report by status, type, depth and text, read its
 * failures grouped by kind, download an artifact with the admin credential, and cancel.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const ADMIN_TOKEN = 'test-admin-token-runs-0123456789';
let kumo: TestService;
let site: LocalServer;
let group: string;

const PAGES: Record<string, { status: number; type: string; body: string }> = {
  '/': {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: '<a href="/guide/a">a</a><a href="/guide/b">b</a><a href="/missing">m</a><a href="/broken">x</a><a href="/data.json">d</a>',
  },
  '/guide/a': { status: 200, type: 'text/html', body: '<a href="/guide/deep">deep</a>' },
  '/guide/b': { status: 200, type: 'text/html', body: 'b' },
  '/guide/deep': { status: 200, type: 'text/html', body: 'deep' },
  '/missing': { status: 404, type: 'text/html', body: 'no' },
  '/broken': { status: 500, type: 'text/plain', body: 'oops' },
  '/data.json': { status: 200, type: 'application/json', body: '{}' },
};

before(async () => {
  site = await listenLocally(
    createServer((request, response) => {
      const page = PAGES[request.url ?? ''] ?? { status: 404, type: 'text/plain', body: 'none' };
      response.writeHead(page.status, { 'content-type': page.type });
      response.end(page.body);
    }),
    '127.0.0.6',
  );
  kumo = await startTestService({ overrides: { adminToken: ADMIN_TOKEN } });
  const tenant = await kumo.createTenant('runs');
  group = `/admin/v1/contracts/${tenant.contractId}/servicegroups/${tenant.servicegroupId}`;
});
after(async () => {
  await kumo?.close();
  await site?.close();
});

async function admin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${kumo.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  return { status: response.status, json: (text === '' ? undefined : JSON.parse(text)) as any };
}

/** Reads the run's server-sent events to their end: each `run` event's data, then the `end` one. */
async function followEvents(
  runId: number,
): Promise<{ runs: { crawl_execution_status_dtype_id: number; crawled_count: number }[]; ended: boolean }> {
  const response = await fetch(`${kumo.url}${group}/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'text/event-stream' },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  const events = text
    .split('\n\n')
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: /^data: (.*)$/m.exec(block)?.[1],
    }))
    .filter((event) => event.event !== undefined);
  return {
    runs: events.filter((event) => event.event === 'run').map((event) => JSON.parse(event.data!)),
    ended: events.at(-1)?.event === 'end',
  };
}

describe('runs of a service group', () => {
  test('an instant crawl started here is followed to its end, listed, reported and downloaded', async () => {
    const started = await admin('POST', `${group}/runs`, { setting: { seed_urls: [`${site.baseUrl}/`] } });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const runId = started.json.run.id as number;
    assert.equal(started.json.run.kind, 'instant');
    assert.equal(started.json.run.trigger, 'api');

    const followed = await followEvents(runId);
    assert.ok(followed.ended, 'the stream ends with an end event');
    const final = followed.runs.at(-1)!;
    assert.equal(final.crawl_execution_status_dtype_id, 2030);
    assert.equal(final.crawled_count, 7);

    const listed = await admin('GET', `${group}/runs?kind=instant&state=ended`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.runs.map((run: { id: number }) => run.id),
      [runId],
    );
    assert.deepEqual((await admin('GET', `${group}/runs?state=active`)).json.runs, []);

    const report = await admin('GET', `${group}/runs/${runId}/report`);
    assert.equal(report.status, 200, JSON.stringify(report.json));
    assert.equal(report.json.rows, 7);
    assert.deepEqual(report.json.depths, [
      { value: 0, count: 1 },
      { value: 1, count: 5 },
      { value: 2, count: 1 },
    ]);
    assert.deepEqual(
      report.json.content_types.find((type: { value: string }) => type.value === 'text/html'),
      { value: 'text/html', count: 5 },
    );
    assert.deepEqual(
      report.json.error_groups.map((group: { kind: string; count: number; examples: { url: string }[] }) => [
        group.kind,
        group.count,
        group.examples.map((row) => row.url),
      ]),
      [
        ['HTTP 404', 1, [`${site.baseUrl}/missing`]],
        ['HTTP 500', 1, [`${site.baseUrl}/broken`]],
      ],
    );

    const urls = (query: string) => admin('GET', `${group}/runs/${runId}/urls?${query}`);
    const paths = (answer: { json: { urls: { url: string }[] } }) =>
      answer.json.urls.map((row) => row.url.slice(site.baseUrl.length));
    assert.deepEqual(paths(await urls('ok=false')), ['/missing', '/broken']);
    assert.deepEqual(paths(await urls('status=5xx')), ['/broken']);
    assert.deepEqual(paths(await urls('depth=2')), ['/guide/deep']);
    assert.deepEqual(paths(await urls('content_type=application/json')), ['/data.json']);
    assert.deepEqual((await urls('q=GUIDE&limit=2')).json.matched, 3);
    assert.equal(paths(await urls('q=GUIDE&limit=2')).length, 2);
    // Rows are listed in the order they were stored: /guide/b and /guide/deep are fetched at the
    // same time, so the third row is whichever of them was stored last.
    const allGuides = paths(await urls('q=guide&limit=3'));
    assert.deepEqual(allGuides.slice().sort(), ['/guide/a', '/guide/b', '/guide/deep']);
    assert.deepEqual(paths(await urls('q=guide&offset=2&limit=2')), allGuides.slice(2));
    assert.equal((await urls('status=9xx')).status, 400);

    const file = await fetch(`${kumo.url}${group}/runs/${runId}/files/url_list.csv.gz`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(file.status, 200);
    const csv = gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8');
    assert.equal(csv.trim().split('\r\n').length, 8, 'a header and 7 rows');

    assert.equal((await admin('POST', `${group}/runs/${runId}/cancel`)).status, 409);
    assert.equal((await admin('GET', `${group}/runs/999999`)).status, 404);
    assert.equal((await admin('GET', `${group}/runs/${runId}/screenshots/1`)).status, 404);
  });

  test('a bad setting is a 400 naming the field; a pending run is cancelled', async () => {
    const bad = await admin('POST', `${group}/runs`, { setting: { seed_urls: ['ftp://x.example/'] } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.json.errors), /setting\.seed_urls\[0\]/);

    // A site that never answers keeps the run running until it is cancelled.
    const stalled = await listenLocally(
      createServer(() => {}),
      '127.0.0.7',
    );
    try {
      const started = await admin('POST', `${group}/runs`, {
        setting: { seed_urls: [`${stalled.baseUrl}/`] },
      });
      const runId = started.json.run.id as number;
      const cancelled = await admin('POST', `${group}/runs/${runId}/cancel`);
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.json));
      assert.equal(cancelled.json.run.is_cancel_request, true);
      const followed = await followEvents(runId);
      assert.ok(followed.ended);
      assert.equal(followed.runs.at(-1)!.crawl_execution_status_dtype_id, 2050);
      const report = await admin('GET', `${group}/runs/${runId}/report`);
      assert.equal(report.status, 404, 'a cancelled instant run has no artifacts and no report');
    } finally {
      await stalled.close();
    }
  });
});
