/**
 * Crawl runs execute in worker threads (docs/design/crawl.md, Crawl threads): a run that burns
 * CPU leaves the API answering at once, and a run whose thread dies ends 2040 with a message while
 * the service goes on.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { Agent, request } from 'undici';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { metricValue, startTestService, type TestService } from '../support/service-harness.js';

const HEALTH = '/api/v1.0/finder_service/health_check';
/** Links on the heavy page: seconds of link extraction, scope checks and frontier inserts. */
const HEAVY_LINKS = 150_000;
/** Links on the huge page: far more memory than the run's heap limit below allows. */
const HUGE_LINKS = 600_000;

let kumo: TestService;
let site: LocalServer;
let heavyPage: string;
let hugePage: string;

function pageWithLinks(count: number): string {
  const links: string[] = [];
  for (let i = 0; i < count; i++) links.push(`<a href="/p/${i}">page number ${i}</a>`);
  return `<!doctype html><html><head><title>many links</title></head><body>${links.join('\n')}</body></html>`;
}

before(async () => {
  heavyPage = pageWithLinks(HEAVY_LINKS);
  hugePage = pageWithLinks(HUGE_LINKS);
  site = await listenLocally(
    createServer((req, res) => {
      const body = req.url === '/heavy' ? heavyPage : req.url === '/huge' ? hugePage : '<p>leaf</p>';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    }),
  );
  // A small heap per run: the huge page exhausts it, the heavy one does not.
  kumo = await startTestService({ overrides: { runHeapMb: 96 } });
});

after(async () => {
  await kumo?.close();
  await site?.close();
});

/** The health check over a socket, as a load balancer asks it: its latency in ms. */
async function healthLatencyMs(client: Agent): Promise<number> {
  const started = performance.now();
  const response = await request(`${kumo.url}${HEALTH}`, { dispatcher: client });
  await response.body.text();
  assert.equal(response.statusCode, 200);
  return performance.now() - started;
}

test('the health check answers within 500 ms while a run spends seconds on one page', async () => {
  const client = new Agent();
  try {
    // Warm: the first request compiles the route and opens the connection.
    await healthLatencyMs(client);
    const id = await kumo.requestCrawl({
      seed_urls: [`${site.baseUrl}/heavy`],
      documents_limit: 1,
      robots_txt: false,
    });
    const latencies: number[] = [];
    let finished = false;
    const waited = kumo.waitForFinished(id, { timeoutMs: 120_000 }).finally(() => (finished = true));
    const runStarted = performance.now();
    while (!finished) {
      latencies.push(await healthLatencyMs(client));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const history = await waited;
    const runMs = performance.now() - runStarted;
    assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
    assert.equal(history.total_url_count, HEAVY_LINKS + 1);
    // The page took the run a while: the check below measured something.
    assert.ok(runMs > 1000, `the run took ${Math.round(runMs)} ms`);
    const worst = Math.max(...latencies);
    assert.ok(worst < 500, `the health check took up to ${Math.round(worst)} ms during the run`);
  } finally {
    await client.close();
  }
});

test('a run whose thread runs out of memory ends 2040 with a message; the service goes on', async () => {
  const id = await kumo.requestCrawl({
    seed_urls: [`${site.baseUrl}/huge`],
    documents_limit: 1,
    robots_txt: false,
  });
  const history = await kumo.waitForFinished(id, { timeoutMs: 120_000 });
  assert.equal(history.crawl_execution_status_dtype_id, 2040);
  const statuses = await kumo.inject({
    method: 'GET',
    url: `${kumo.tenant.crawlerPath}/histories?instant_crawl_request_id=${id}`,
    headers: { 'x-mf-apikey': kumo.apiKey },
  });
  const record = statuses.json.crawl_histories[0] as { message?: string };
  assert.match(JSON.stringify(record), /ran out of memory \(limit 96 MB\)/);
  const threadsAfterFailure = await metricValue(kumo, 'kumo_run_threads_started_total');
  // The service answers, and the next run crawls normally.
  const client = new Agent();
  try {
    assert.ok((await healthLatencyMs(client)) < 500);
  } finally {
    await client.close();
  }
  const next = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/leaf`], robots_txt: false });
  const nextHistory = await kumo.waitForFinished(next, { timeoutMs: 30_000 });
  assert.equal(nextHistory.crawl_execution_status_dtype_id, 2030);
  assert.equal(nextHistory.crawled_url_count, 1);
  // The thread that ran out of memory was not kept: the next run started a thread of its own.
  assert.equal(await metricValue(kumo, 'kumo_run_threads_started_total'), threadsAfterFailure + 1);
});
