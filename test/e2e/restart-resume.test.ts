/**
 * Runs survive a restart of the service (docs/reference/run-states.md, Restarts): a run that
 * was running resumes from its stored frontier without fetching finished URLs again. Once with a
 * graceful stop of the in-process service, once with SIGKILL of a `kumo serve` child process.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  DEMO_TENANT,
  downloadArtifact,
  freePort,
  makeTempDir,
  parseCsv,
  pollUntil,
  startTestService,
  TEST_API_KEY,
  type TestService,
} from '../support/service-harness.js';
import { startServeProcess } from '../support/serve-process.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

const DEPTH_LIMIT = 6;
/** Pages of /many/N, linking to N+1..N+5 (see trap-server.ts). */
const MANY_MAX = 199;
const MANY_FANOUT = 5;
/**
 * 100 ms between requests to the host, so the ~31 pages take about 3 s and the stop lands in the
 * middle (the service writes progress at most once a second).
 */
const CRAWL_SETTING = (trap: TrapServer) => ({
  seed_urls: [`${trap.baseUrl}/many/0`],
  depth_limit: DEPTH_LIMIT,
  base_concurrent_requests: 2,
  download_delay: 0.1,
});

/** A fresh fixture server per test, so its hit counts belong to that test alone. */
let trap: TrapServer;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  trap = await startTrapServer();
  const own = trap;
  cleanups.push(() => own.close());
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The /many/N paths within `depthLimit` hops of /many/0. */
function reachablePaths(depthLimit: number): string[] {
  const depth = new Map<number, number>([[0, 0]]);
  const queue = [0];
  while (queue.length > 0) {
    const page = queue.shift()!;
    const d = depth.get(page)!;
    if (d === depthLimit) continue;
    for (let next = page + 1; next <= Math.min(page + MANY_FANOUT, MANY_MAX); next++) {
      if (!depth.has(next)) {
        depth.set(next, d + 1);
        queue.push(next);
      }
    }
  }
  return [...depth.keys()].sort((a, b) => a - b).map((n) => `/many/${n}`);
}

const manyHits = () => [...trap.hits].filter(([url]) => url.startsWith('/many/'));

/** Checks the URL list of the finished run: one row per reachable page, no duplicates. */
function assertCompleteUrlList(csv: string, expected: string[]): string[] {
  const [header, ...rows] = parseCsv(csv);
  assert.equal(header?.[0], 'crawl_url');
  const crawled = rows.map((row) => row[0]!);
  const duplicates = crawled.filter((url, index) => crawled.indexOf(url) !== index);
  assert.deepEqual(duplicates, [], 'no URL is listed twice');
  const paths = crawled.map((url) => {
    assert.ok(url.startsWith(trap.baseUrl), url);
    return url.slice(trap.baseUrl.length);
  });
  assert.deepEqual([...paths].sort(), [...expected].sort());
  for (const row of rows) assert.equal(row[2], 'true', `row ${row.join(',')}`);
  return paths;
}

test('a graceful stop leaves the run running; the next start resumes it without refetching', async () => {
  const dataDir = await makeTempDir('kumo-restart-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const expected = reachablePaths(DEPTH_LIMIT);

  let kumo: TestService | undefined = await startTestService({ dataDir, port });
  cleanups.push(async () => kumo?.close());
  const id = await kumo.requestCrawl(CRAWL_SETTING(trap));
  const before = await kumo.waitForStatus(id, (status) => status.crawled_url_count >= 5, {
    timeoutMs: 10_000,
  });
  assert.equal(before.crawl_execution_status_dtype_id, 2020);
  await kumo.close();
  kumo = undefined;

  // The stop interrupted the run: not every page was fetched, and the store still says running.
  const fetchedBeforeStop = manyHits().length;
  assert.ok(fetchedBeforeStop >= 5 && fetchedBeforeStop < expected.length, `fetched ${fetchedBeforeStop}`);
  const db = new Database(path.join(dataDir, 'kumo.db'), { readonly: true });
  const row = db.prepare('SELECT state FROM crawl_runs WHERE request_id = ?').get(id) as { state: number };
  db.close();
  assert.equal(row.state, 2020);

  kumo = await startTestService({ dataDir, port });
  const history = await kumo.waitForFinished(id, { timeoutMs: 20_000 });
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, expected.length);
  // The run keeps its first start time across the restart.
  assert.equal(history.start_datetime, before.start_datetime);

  const csv = (await downloadArtifact(kumo.url, TEST_API_KEY, DEMO_TENANT, id, 'url_list.csv.gz')).toString();
  assertCompleteUrlList(csv, expected);
  const hits = manyHits();
  assert.deepEqual(hits.map(([url]) => url).sort(), [...expected].sort(), 'nothing outside the depth limit');
  const refetched = hits.filter(([, count]) => count !== 1);
  assert.deepEqual(refetched, [], 'every page is fetched exactly once');
});

const SERVE_ENV = { KUMO_LOG_LEVEL: 'silent', KUMO_RETRY_BASE_DELAY_MS: '50' };

test('after SIGKILL of kumo serve, the next start resumes the run and lists every page once', async () => {
  const dataDir = await makeTempDir('kumo-sigkill-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const expected = reachablePaths(DEPTH_LIMIT);

  const first = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const id = await first.requestCrawl(CRAWL_SETTING(trap));
  await pollUntil('5 pages crawled', async () => {
    const status = await first.statusOf(id);
    return status !== undefined && status.crawled_url_count >= 5 ? status : undefined;
  });
  assert.equal((await first.kill()).code, null);
  // The killed process left its lock file behind; the next start takes it over.
  assert.ok(existsSync(path.join(dataDir, 'serve.pid')));
  const fetchedBeforeKill = manyHits().length;
  assert.ok(fetchedBeforeKill >= 5 && fetchedBeforeKill < expected.length, `fetched ${fetchedBeforeKill}`);
  const countsAtKill = new Map(manyHits());

  const second = await startServeProcess({ dataDir, port, env: SERVE_ENV, cleanups });
  const history = await second.waitForFinished(id, 20_000);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, expected.length);

  const csv = (
    await downloadArtifact(second.url, TEST_API_KEY, DEMO_TENANT, id, 'url_list.csv.gz')
  ).toString();
  assertCompleteUrlList(csv, expected);
  // Only a page in flight at the kill (at most base_concurrent_requests of them) may be fetched twice.
  const hits = manyHits();
  assert.deepEqual(hits.map(([url]) => url).sort(), [...expected].sort(), 'nothing outside the depth limit');
  const refetched = hits.filter(([, count]) => count > 1);
  assert.ok(
    refetched.length <= 2 && refetched.every(([url, count]) => count === 2 && countsAtKill.has(url)),
    `fetched more than once: ${JSON.stringify(refetched)}`,
  );

  assert.equal((await second.stop('SIGTERM')).code, 0, second.output());
});
