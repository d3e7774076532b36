/**
 * Graceful shutdown (docs/operations.md "Stopping and restarting"): once the stop begins every
 * request answers 503 NG with Retry-After (health check included, on new and kept-alive
 * connections), pages being fetched finish and are stored within the drain bound, the runs stay
 * 2020 with their progress checkpointed, and the next start resumes them. `kumo serve` does the
 * same on SIGTERM and exits 0; a second signal exits at once.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import http, { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  crawlerPathOf,
  DEMO_TENANT,
  downloadArtifact,
  freePort,
  makeTempDir,
  parseCsv,
  pollUntil,
  type RunView,
  startTestService,
  TEST_API_KEY,
  type TestService,
} from '../support/service-harness.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { type ServeProcess, startServeProcess } from '../support/serve-process.js';

const HEALTH = '/api/v1.0/finder_service/health_check';
const SHUTTING_DOWN = { status: 'NG', message: 'the service is shutting down; retry later' };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ChainSite extends LocalServer {
  hits: Map<string, number>;
  /** Paths requested and not answered yet. */
  inFlight: Set<string>;
  /** Pages that do not answer while in this set (the response waits until it is removed). */
  hanging: Set<string>;
}

/** Pages /c/0 .. /c/<count-1>, each linking to the next, each answering after `delayMs`. */
async function startChainSite(count: number, delayMs: number): Promise<ChainSite> {
  const hits = new Map<string, number>();
  const inFlight = new Set<string>();
  const hanging = new Set<string>();
  const answer = (url: string, page: number, res: ServerResponse) => {
    if (res.destroyed) return;
    if (hanging.has(url)) {
      setTimeout(() => answer(url, page, res), 50);
      return;
    }
    inFlight.delete(url);
    const next = page + 1 < count ? `<a href="/c/${page + 1}">next</a>` : '';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><head><title>Chain ${page}</title></head><body>${next}</body></html>`);
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const match = /^\/c\/(\d+)$/.exec(url);
    const page = match ? Number(match[1]) : -1;
    if (page < 0 || page >= count) {
      res.writeHead(404).end();
      return;
    }
    hits.set(url, (hits.get(url) ?? 0) + 1);
    inFlight.add(url);
    res.on('close', () => inFlight.delete(url));
    setTimeout(() => answer(url, page, res), delayMs);
  });
  const { baseUrl, close } = await listenLocally(server);
  return {
    baseUrl,
    hits,
    inFlight,
    hanging,
    close: () => {
      hanging.clear();
      return close();
    },
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

/** A GET through `agent` (keep-alive to see a reused connection), with the demo key. */
function get(url: string, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { 'x-mf-apikey': TEST_API_KEY } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          reusedSocket: request.reusedSocket,
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function assertShuttingDown(answer: Answer, what: string): void {
  assert.equal(answer.status, 503, `${what}: ${answer.body}`);
  assert.deepEqual(JSON.parse(answer.body), SHUTTING_DOWN, what);
  assert.equal(answer.headers['retry-after'], '30', what);
  assert.equal(answer.headers.connection, 'close', what);
}

/** The run's row in the record store, read while no service holds the data directory. */
function storedRun(dataDir: string, requestId: number): { state: number; crawled_count: number } {
  const db = new Database(path.join(dataDir, 'kumo.db'), { readonly: true });
  try {
    return db.prepare('SELECT state, crawled_count FROM crawl_runs WHERE request_id = ?').get(requestId) as {
      state: number;
      crawled_count: number;
    };
  } finally {
    db.close();
  }
}

function runCount(dataDir: string): number {
  const db = new Database(path.join(dataDir, 'kumo.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM crawl_runs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function listedPaths(service: TestService, id: number, site: ChainSite): Promise<string[]> {
  const csv = await downloadArtifact(service.url, TEST_API_KEY, DEMO_TENANT, id, 'url_list.csv.gz');
  const [, ...rows] = parseCsv(csv.toString());
  return rows.map((row) => row[0]!.slice(site.baseUrl.length));
}

/** A GET of the demo tenant's crawler API with its key, which must answer 200; returns the body. */
async function crawlerGet(service: TestService, pathAndQuery: string): Promise<unknown> {
  const response = await service.inject({
    method: 'GET',
    url: `${service.tenant.crawlerPath}${pathAndQuery}`,
    headers: { 'x-mf-apikey': TEST_API_KEY },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json;
}

/**
 * Polls at 100 ms, not the harness's 25 ms: the instant crawl API limits requests per key, and
 * these polls are not what the tests are about.
 */
async function statusOf(service: TestService, id: number): Promise<RunView | undefined> {
  const body = await crawlerGet(service, `/statuses?instant_crawl_request_ids=${id}`);
  return (body as { crawl_status: RunView }).crawl_status;
}

function finishedRun(service: TestService, id: number): Promise<RunView> {
  return pollUntil(
    `request ${id} to finish`,
    async () => {
      const body = await crawlerGet(service, `/histories?instant_crawl_request_id=${id}`);
      return (body as { crawl_histories: RunView[] }).crawl_histories[0];
    },
    15_000,
    100,
  );
}

/** A chain site, and a data directory and port for the service; both go after the test. */
async function setUpChainCrawl(
  pages: number,
  delayMs: number,
  dataDirPrefix: string,
): Promise<{ site: ChainSite; dataDir: string; port: number }> {
  const site = await startChainSite(pages, delayMs);
  cleanups.push(() => site.close());
  const dataDir = await makeTempDir(dataDirPrefix);
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { site, dataDir, port: await freePort() };
}

const chainPaths = (count: number) => Array.from({ length: count }, (_, page) => `/c/${page}`);

test('during the stop requests answer 503 with Retry-After, the page in flight is stored, the run resumes', async () => {
  const PAGES = 10;
  const { site, dataDir, port } = await setUpChainCrawl(PAGES, 400, 'kumo-stop-');
  let kumo: TestService | undefined = await startTestService({ dataDir, port });
  cleanups.push(async () => kumo?.close());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(async () => agent.destroy());
  const statuses = `${kumo.url}${crawlerPathOf(DEMO_TENANT)}/statuses`;

  const id = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/c/0`], base_concurrent_requests: 1 });
  await pollUntil(
    '2 pages crawled',
    async () => ((await statusOf(kumo!, id))?.crawled_url_count ?? 0) >= 2 || undefined,
    10_000,
    100,
  );
  const inFlight = await pollUntil('a page in flight', () => [...site.inFlight][0]);
  // A connection the client keeps alive, opened before the stop.
  assert.equal((await get(statuses, agent)).status, 200);

  const started = Date.now();
  const closing = kumo.close();
  const kept = await get(`${statuses}?instant_crawl_request_ids=${id}`, agent);
  assert.ok(kept.reusedSocket, 'the request went over the kept-alive connection');
  assertShuttingDown(kept, 'a request on a kept-alive connection');
  assertShuttingDown(await get(`${kumo.url}${HEALTH}`, false), 'the health check');
  const crawl = await fetch(`${kumo.url}${crawlerPathOf(DEMO_TENANT)}/request`, {
    method: 'POST',
    headers: { 'x-mf-apikey': TEST_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ setting: { seed_urls: [`${site.baseUrl}/c/0`] } }),
  });
  assert.equal(crawl.status, 503);
  assert.equal(crawl.headers.get('retry-after'), '30');
  assert.deepEqual(await crawl.json(), SHUTTING_DOWN);
  await closing;
  kumo = undefined;
  assert.ok(Date.now() - started < 5000, `the drain waited for one page only: ${Date.now() - started} ms`);

  // The page in flight finished and was stored; the progress is checkpointed; no new run was taken.
  assert.equal(site.hits.get(inFlight), 1);
  assert.equal(site.inFlight.size, 0);
  const fetched = site.hits.size;
  assert.ok(fetched < PAGES, `the stop came in the middle: ${fetched} pages`);
  assert.deepEqual(storedRun(dataDir, id), { state: 2020, crawled_count: fetched });
  assert.equal(runCount(dataDir), 1, 'the refused request created no run');

  kumo = await startTestService({ dataDir, port });
  const history = await finishedRun(kumo, id);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, PAGES);
  assert.deepEqual((await listedPaths(kumo, id, site)).sort(), chainPaths(PAGES).sort());
  assert.deepEqual(
    [...site.hits].filter(([, count]) => count !== 1),
    [],
    'no page is fetched twice, not even the one in flight at the stop',
  );
  assert.equal((await get(`${kumo.url}${HEALTH}`, false)).status, 200);
});

test('a fetch that does not end within the drain time is aborted; the run stays 2020 and resumes', async () => {
  const PAGES = 5;
  const { site, dataDir, port } = await setUpChainCrawl(PAGES, 10, 'kumo-stop-hang-');
  site.hanging.add('/c/2');
  // The fetch timeout is longer than the drain, so it is the drain's bound that ends the fetch.
  const overrides = { fetchTimeoutSeconds: 60 };
  let kumo: TestService | undefined = await startTestService({ dataDir, port, overrides });
  cleanups.push(async () => kumo?.close());

  const id = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/c/0`] });
  await pollUntil('/c/2 in flight', () => (site.inFlight.has('/c/2') ? true : undefined));
  const started = Date.now();
  await kumo.close();
  kumo = undefined;
  const elapsed = Date.now() - started;
  // 10 s of drain, then the fetch is aborted and unwinds.
  assert.ok(elapsed >= 9_500 && elapsed < 14_000, `stopped after ${elapsed} ms`);
  assert.equal(site.inFlight.size, 0, 'the hanging fetch was aborted');
  assert.deepEqual(storedRun(dataDir, id), { state: 2020, crawled_count: 2 });

  site.hanging.clear();
  kumo = await startTestService({ dataDir, port, overrides });
  const history = await finishedRun(kumo, id);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.deepEqual((await listedPaths(kumo, id, site)).sort(), chainPaths(PAGES).sort());
  assert.equal(site.hits.get('/c/2'), 2, 'the aborted page is fetched again');
});

/** Warnings only, and no rate limit: the status polls below are not what this test is about. */
const SERVE_ENV = { KUMO_LOG_LEVEL: 'warn', KUMO_RATE_LIMIT_PER_MINUTE: '0' };

/**
 * Polls the health check on new connections until the stop shows. (A check that passed the hook
 * just before the signal may still answer 503 for the stopped scheduler; that is not the one.)
 */
async function waitForShutdownAnswer(serve: ServeProcess): Promise<Answer> {
  return pollUntil('the health check to answer 503', async () => {
    assert.equal(serve.child.exitCode, null, `exited before answering 503: ${serve.output()}`);
    const answer = await get(`${serve.url}${HEALTH}`, false);
    return answer.status === 503 && answer.body.includes('shutting down') ? answer : undefined;
  });
}

test('kumo serve on SIGTERM answers 503 while it drains, exits 0, and the next start finishes the run', async () => {
  const PAGES = 6;
  const { site, dataDir, port } = await setUpChainCrawl(PAGES, 600, 'kumo-sigterm-');

  let serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const id = await serve.requestCrawl({ seed_urls: [`${site.baseUrl}/c/0`] });
  await pollUntil('/c/1 in flight', () => (site.inFlight.has('/c/1') ? true : undefined));
  const started = Date.now();
  serve.child.kill('SIGTERM');
  assertShuttingDown(await waitForShutdownAnswer(serve), 'the health check during the drain');
  assert.deepEqual(await serve.exited, { code: 0, signal: null }, serve.output());
  assert.ok(Date.now() - started < 5000, `stopped after ${Date.now() - started} ms`);
  assert.match(serve.output(), /SIGTERM received, stopping/);
  assert.match(serve.output(), /kumo serve: stopped/);
  assert.equal(site.hits.get('/c/1'), 1);
  assert.deepEqual(storedRun(dataDir, id), { state: 2020, crawled_count: 2 });

  serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const history = await serve.waitForFinished(id);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, PAGES);
  assert.deepEqual(
    [...site.hits].filter(([, count]) => count !== 1),
    [],
    'no page is fetched twice',
  );
  assert.deepEqual(await serve.stop('SIGTERM'), { code: 0, signal: null }, serve.output());
});

test('a second signal during the drain makes kumo serve exit at once; the run resumes as after a crash', async () => {
  const { site, dataDir, port } = await setUpChainCrawl(4, 10, 'kumo-sigterm-twice-');
  site.hanging.add('/c/1');

  const serve = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const id = await serve.requestCrawl({ seed_urls: [`${site.baseUrl}/c/0`] });
  await pollUntil('/c/1 in flight', () => (site.inFlight.has('/c/1') ? true : undefined));
  serve.child.kill('SIGTERM');
  await waitForShutdownAnswer(serve);
  const started = Date.now();
  serve.child.kill('SIGTERM');
  assert.deepEqual(await serve.exited, { code: 1, signal: null }, serve.output());
  assert.ok(Date.now() - started < 2000, `exited after ${Date.now() - started} ms`);
  assert.match(serve.output(), /SIGTERM received again/);
  assert.equal(storedRun(dataDir, id).state, 2020);
});
