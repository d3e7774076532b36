/**
 * Runs survive a restart of the service (decisions.md "Run states and transitions"): a run that
 * was running resumes from its stored frontier without fetching finished URLs again. Once with a
 * graceful stop of the in-process service, once with SIGKILL of a `kumo serve` child process.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
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
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

const MAIN_JS = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
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
const cleanups: (() => Promise<void>)[] = [];

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

interface ServeProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

function spawnServe(dataDir: string, port: number): ServeProcess {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('KUMO_')) env[name] = value;
  const child = spawn(process.execPath, [MAIN_JS, 'serve'], {
    env: {
      ...env,
      KUMO_DATA_DIR: dataDir,
      KUMO_PORT: String(port),
      KUMO_HOST: '127.0.0.1',
      KUMO_BOOTSTRAP_API_KEY: TEST_API_KEY,
      KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
      KUMO_LOG_LEVEL: 'silent',
      KUMO_RETRY_BASE_DELAY_MS: '50',
      KUMO_FETCH_TIMEOUT_SECONDS: '5',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitListening(serve: ServeProcess): Promise<void> {
  let exitCode: number | null | undefined;
  void serve.exited.then((code) => {
    exitCode = code;
  });
  await pollUntil('kumo serve to listen', () => {
    if (exitCode !== undefined) throw new Error(`kumo serve exited (${exitCode}): ${serve.output()}`);
    return serve.output().includes('listening on') ? true : undefined;
  });
}

async function stopServe(serve: ServeProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill(signal);
  return serve.exited;
}

test('after SIGKILL of kumo serve, the next start resumes the run and lists every page once', async () => {
  const dataDir = await makeTempDir('kumo-sigkill-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const crawler = `${baseUrl}${crawlerPathOf(DEMO_TENANT)}`;
  const headers = { 'x-mf-apikey': TEST_API_KEY, 'content-type': 'application/json' };
  const expected = reachablePaths(DEPTH_LIMIT);

  const first = spawnServe(dataDir, port);
  cleanups.push(async () => void (await stopServe(first, 'SIGKILL')));
  await waitListening(first);
  const requested = await fetch(`${crawler}/request`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ setting: CRAWL_SETTING(trap) }),
  });
  assert.equal(requested.status, 200);
  const id = ((await requested.json()) as { instant_crawl_request_id: number }).instant_crawl_request_id;

  const statusOf = async (): Promise<RunView | undefined> => {
    const response = await fetch(`${crawler}/statuses?instant_crawl_request_ids=${id}`, { headers });
    const body = (await response.json()) as { crawl_status: RunView | Record<string, never> };
    return 'instant_crawl_request_id' in body.crawl_status ? (body.crawl_status as RunView) : undefined;
  };
  await pollUntil('5 pages crawled', async () => {
    const status = await statusOf();
    return status !== undefined && status.crawled_url_count >= 5 ? status : undefined;
  });
  assert.equal(await stopServe(first, 'SIGKILL'), null);
  // The killed process left its lock file behind; the next start takes it over.
  assert.ok(existsSync(path.join(dataDir, 'serve.pid')));
  const fetchedBeforeKill = manyHits().length;
  assert.ok(fetchedBeforeKill >= 5 && fetchedBeforeKill < expected.length, `fetched ${fetchedBeforeKill}`);
  const countsAtKill = new Map(manyHits());

  const second = spawnServe(dataDir, port);
  cleanups.push(async () => void (await stopServe(second, 'SIGKILL')));
  await waitListening(second);
  const history = await pollUntil(
    'the resumed run to finish',
    async () => {
      const response = await fetch(`${crawler}/histories?instant_crawl_request_id=${id}`, { headers });
      const body = (await response.json()) as { crawl_histories: RunView[] };
      return body.crawl_histories[0];
    },
    20_000,
    100,
  );
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, expected.length);

  const csv = (await downloadArtifact(baseUrl, TEST_API_KEY, DEMO_TENANT, id, 'url_list.csv.gz')).toString();
  assertCompleteUrlList(csv, expected);
  // Only a page in flight at the kill (at most base_concurrent_requests of them) may be fetched twice.
  const hits = manyHits();
  assert.deepEqual(hits.map(([url]) => url).sort(), [...expected].sort(), 'nothing outside the depth limit');
  const refetched = hits.filter(([, count]) => count > 1);
  assert.ok(
    refetched.length <= 2 && refetched.every(([url, count]) => count === 2 && countsAtKill.has(url)),
    `fetched more than once: ${JSON.stringify(refetched)}`,
  );

  assert.equal(await stopServe(second, 'SIGTERM'), 0, second.output());
});
