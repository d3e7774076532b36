/**
 * A run thread that ended its run cleanly takes the next run (docs/design/crawl.md, Threads kept
 * warm between runs): runs one after another start one thread, and each run crawls its own pages
 * whole, as on a new thread: nothing of an earlier run (its links seen, its cancel, its pace)
 * reaches the next.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import {
  downloadPathOf,
  metricValue,
  startTestService,
  type TestService,
} from '../support/service-harness.js';

let kumo: TestService;
let site: LocalServer;

/** /a links /a1 and /a2, /b links /b1; /hang never answers. */
const PAGES: Record<string, string> = {
  '/a': '<a href="/a1">one</a> <a href="/a2">two</a>',
  '/a1': '<p>a one</p>',
  '/a2': '<p>a two</p>',
  '/b': '<a href="/b1">one</a>',
  '/b1': '<p>b one</p>',
};

before(async () => {
  site = await listenLocally(
    createServer((req, res) => {
      if (req.url === '/hang') return;
      const body = PAGES[req.url ?? ''];
      if (body === undefined) return res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<html><body>${body}</body></html>`);
    }),
  );
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

const threadsStarted = () => metricValue(kumo, 'kumo_run_threads_started_total');

/** The crawl_url column of the run's url_list.csv.gz, as downloaded through the API. */
async function crawledUrls(requestId: number): Promise<string[]> {
  const redirect = await kumo.inject({
    method: 'GET',
    url: downloadPathOf(kumo.tenant, requestId, 'url_list.csv.gz'),
    headers: { 'x-mf-apikey': kumo.apiKey },
  });
  assert.equal(redirect.statusCode, 302, redirect.body);
  const signed = new URL(String(redirect.headers.location));
  const response = await fetch(signed);
  assert.equal(response.status, 200);
  const rows = gunzipSync(Buffer.from(await response.arrayBuffer()))
    .toString('utf8')
    .trim()
    .split('\r\n')
    .slice(1);
  return rows.map((row) => row.split(',')[0]!).sort();
}

async function crawl(seed: string): Promise<{ id: number; urls: string[] }> {
  const id = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}${seed}`], robots_txt: false });
  const history = await kumo.waitForFinished(id, { timeoutMs: 30_000 });
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  return { id, urls: await crawledUrls(id) };
}

test('runs one after another share one thread, and each crawls its own pages whole', async () => {
  const before = await threadsStarted();
  const first = await crawl('/a');
  const again = await crawl('/a');
  const other = await crawl('/b');
  const pagesOf = (...paths: string[]) => paths.map((p) => `${site.baseUrl}${p}`).sort();
  assert.deepEqual(first.urls, pagesOf('/a', '/a1', '/a2'));
  // The links the first run saw do not count as seen in the second: it follows them again.
  assert.deepEqual(again.urls, pagesOf('/a', '/a1', '/a2'));
  assert.deepEqual(other.urls, pagesOf('/b', '/b1'));
  assert.equal((await threadsStarted()) - before, 1, 'the second and third runs took the first run’s thread');
});

test('the thread of a cancelled run takes the next run, which its cancel does not touch', async () => {
  const blocked = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/hang`], robots_txt: false });
  await kumo.waitForStatus(blocked, (status) => status.crawl_execution_status_dtype_id === 2020);
  const cancelled = await kumo.inject({
    method: 'PUT',
    url: `${kumo.tenant.crawlerPath}/statuses/requests/${blocked}/cancel`,
    headers: { 'x-mf-apikey': kumo.apiKey },
  });
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  const history = await kumo.waitForFinished(blocked, { timeoutMs: 10_000 });
  assert.equal(history.crawl_execution_status_dtype_id, 2050);
  const before = await threadsStarted();
  const next = await crawl('/a');
  assert.equal(next.urls.length, 3);
  assert.equal((await threadsStarted()) - before, 0, 'the next run took the cancelled run’s thread');
});
