/**
 * A run taken over by another machine (docs/design/scale-out.md, Run leases): two `kumo serve`
 * processes with data directories of their own share one PostgreSQL database and one
 * S3-compatible bucket. The first is killed with SIGKILL in the middle of an instant crawl of a
 * 300-page local site; the second, started then, takes the run (it holds the database alone, so
 * it ends the dead one's leases at start) and resumes it from the last checkpoint, in the database
 * and the bucket only (it has none of the first one's files). The URL
 * list then has each page once and the bundle is whole; the pages fetched again are only some of
 * those the first process had fetched. A process stopped gracefully hands its run back at once,
 * and a cancel recorded in the database by another process reaches the worker at once (the
 * database tells it), at the latest at its next heartbeat.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import postgresClient from 'postgres';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { CLUSTER_ADMIN_TOKEN, metricOf, startClusterProcess } from '../support/cluster-processes.js';
import { DEMO_TENANT, downloadArtifact, pollUntil, TEST_API_KEY } from '../support/service-harness.js';
import { assertEveryPageOnce, startTreeSite } from '../support/tree-site.js';

const PAGE_COUNT = 300;
/** About 40 pages a second at CONCURRENCY: the kill comes mid-way even on a slow machine. */
const PAGE_DELAY_MS = 100;
const CONCURRENCY = 4;
const LEASE_SECONDS = 3;

let postgres: PostgresServer;
let s3: TestS3Server;
before(async () => {
  [postgres, s3] = await Promise.all([startPostgresServer(), startS3Server()]);
});
after(async () => {
  await Promise.all([postgres.stop(), s3.stop()]);
});

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two processes' worth of settings on one database and bucket: the cluster of these tests. */
async function clusterEnv(leaseSeconds: number): Promise<Record<string, string>> {
  return {
    ...s3.env,
    KUMO_DATABASE_URL: await postgres.createDatabase(),
    KUMO_SECRET_KEY: 'ab'.repeat(32),
    KUMO_BLOB_URL: `s3://${s3.bucket}/cluster`,
    KUMO_RUN_LEASE_SECONDS: String(leaseSeconds),
    KUMO_CHECKPOINT_SECONDS: '1',
    KUMO_LOG_LEVEL: 'warn',
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
    KUMO_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN,
  };
}

/** A `kumo serve` of the cluster, with a data directory of its own (another machine). */
const startWorker = (env: Record<string, string>) => startClusterProcess(env, cleanups);

test('a worker killed mid-run: another machine resumes the run from its checkpoints, every page listed once', async () => {
  const site = await startTreeSite(PAGE_COUNT, PAGE_DELAY_MS);
  cleanups.push(() => site.close());
  const env = await clusterEnv(LEASE_SECONDS);
  const first = await startWorker(env);
  const id = await first.requestCrawl({
    seed_urls: [`${site.baseUrl}/p/0`],
    base_concurrent_requests: CONCURRENCY,
  });
  // Some way in, the pages fetched so far are noted; once two checkpoints have been saved since
  // (one a second), the last one holds every one of them but those in flight at that moment.
  await pollUntil(
    '60 pages crawled',
    async () => ((await first.statusOf(id))?.crawled_url_count ?? 0) >= 60 || undefined,
    15_000,
    50,
  );
  const fetchedBeforeCheckpoint = new Set(site.hits.keys());
  const checkpoints = 'kumo_run_checkpoints_total{outcome="saved"}';
  const savedBefore = await metricOf(first.url, checkpoints);
  await pollUntil(
    'two more checkpoints saved',
    async () => (await metricOf(first.url, checkpoints)) >= savedBefore + 2 || undefined,
    15_000,
    50,
  );
  assert.deepEqual(await first.kill(), { code: null, signal: 'SIGKILL' });
  const fetchedByFirst = new Set(site.hits.keys());
  assert.ok(
    fetchedByFirst.size < PAGE_COUNT,
    `the kill came in the middle: ${fetchedByFirst.size} pages fetched`,
  );

  const second = await startWorker(env);
  const history = await second.waitForFinished(id, 30_000);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  assert.equal(history.crawled_url_count, PAGE_COUNT);

  await assertEveryPageOnce(site, PAGE_COUNT, (file) =>
    downloadArtifact(second.url, TEST_API_KEY, DEMO_TENANT, id, file),
  );
  // What the checkpoints held was not fetched again: of the pages noted, only those then in
  // flight (at most one per concurrent request); whatever the machine's speed, which decides how
  // many pages came after the last checkpoint.
  const refetched = [...site.hits].filter(([, count]) => count > 1).map(([url]) => url);
  for (const url of refetched) assert.ok(fetchedByFirst.has(url), url);
  const heldButFetchedAgain = refetched.filter((url) => fetchedBeforeCheckpoint.has(url));
  assert.ok(
    heldButFetchedAgain.length <= CONCURRENCY,
    `fetched again although checkpointed: ${heldButFetchedAgain.join(', ')}`,
  );
  assert.ok(
    refetched.length < fetchedByFirst.size,
    `fetched twice: ${refetched.length} of ${fetchedByFirst.size}`,
  );
  // Its health check reports the leases it renews.
  const health = await fetch(`${second.url}/api/v1.0/finder_service/health_check`);
  assert.equal(health.status, 200);
  const components = ((await health.json()) as { components: { run_leases?: { status: string } } })
    .components;
  assert.equal(components.run_leases?.status, 'OK');
  // The second process says what it did: one run taken over, checkpoints written.
  assert.equal(await metricOf(second.url, 'kumo_runs_taken_over_total'), 1);
  assert.ok((await metricOf(second.url, 'kumo_run_checkpoints_total{outcome="saved"}')) > 0);

  assert.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null }, second.output());
});

test('a worker stopped gracefully hands its run back: another machine resumes it at once, fetching nothing twice', async () => {
  const site = await startTreeSite(PAGE_COUNT, PAGE_DELAY_MS);
  cleanups.push(() => site.close());
  // A lease far longer than the test: only a hand-back lets the second process take the run.
  const env = await clusterEnv(600);
  const first = await startWorker(env);
  const id = await first.requestCrawl({
    seed_urls: [`${site.baseUrl}/p/0`],
    base_concurrent_requests: CONCURRENCY,
  });
  await pollUntil(
    '60 pages crawled',
    async () => ((await first.statusOf(id))?.crawled_url_count ?? 0) >= 60 || undefined,
    15_000,
    50,
  );
  assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null }, first.output());
  const fetchedByFirst = new Set(site.hits.keys());
  assert.ok(
    fetchedByFirst.size < PAGE_COUNT,
    `the stop came in the middle: ${fetchedByFirst.size} pages fetched`,
  );

  const second = await startWorker(env);
  const history = await second.waitForFinished(id, 20_000);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  await assertEveryPageOnce(site, PAGE_COUNT, (file) =>
    downloadArtifact(second.url, TEST_API_KEY, DEMO_TENANT, id, file),
  );
  // The drain stored the pages in flight and checkpointed them: no page was fetched twice.
  assert.deepEqual(
    [...site.hits].filter(([, count]) => count > 1),
    [],
  );
  assert.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null }, second.output());
});

test('a cancel recorded by another process reaches the worker at once', async () => {
  const site = await startTreeSite(PAGE_COUNT, 200);
  cleanups.push(() => site.close());
  const env = await clusterEnv(30);
  const worker = await startWorker(env);
  const id = await worker.requestCrawl({ seed_urls: [`${site.baseUrl}/p/0`], base_concurrent_requests: 1 });
  await pollUntil(
    'the run to start',
    async () => ((await worker.statusOf(id))?.crawled_url_count ?? 0) >= 1 || undefined,
  );
  // What another process's API does on a cancel: the flag in the shared database, nothing more.
  const database = postgresClient(env.KUMO_DATABASE_URL!);
  cleanups.push(() => database.end());
  const askedAt = Date.now();
  await database`UPDATE crawl_runs SET is_cancel_request = TRUE WHERE request_id = ${id}`;
  const history = await worker.waitForFinished(id, 10_000);
  const tookMs = Date.now() - askedAt;
  assert.equal(history.crawl_execution_status_dtype_id, 2050, JSON.stringify(history));
  // Told at the commit, else at the next heartbeat (2 s); the page in flight (0.2 s); the history poll.
  assert.ok(tookMs < 2500, `the cancel took ${tookMs} ms to end the run`);
});
