/**
 * A cluster of processes that each take some roles (docs/operations.md, Roles), every one with a
 * data directory of its own on one PostgreSQL database and one bucket: two API processes started
 * at once (one demo tenant between them), two workers, two schedulers and two search nodes.
 * Several instant crawls run at once on the workers and one worker is killed with SIGKILL in the
 * middle: the other finishes every run, each page listed once and each bundle whole, downloaded
 * through either API process. A schedule slot fires once although two schedulers look and one is
 * killed and started again in the slot; its run's pages reach both search nodes while they answer
 * a search load, whole or not at all, and a node killed during the load leaves the other
 * answering every request.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  adminCall,
  clusterBackends,
  CLUSTER_ADMIN_TOKEN,
  healthOf,
  metricOf,
  pageHits,
  searchStatus,
  startClusterProcess,
  startSearchLoad,
} from '../support/cluster-processes.js';
import type { ServeProcess } from '../support/serve-process.js';
import {
  crawlerPathOf,
  DEMO_TENANT,
  downloadPathOf,
  pollUntil,
  TEST_API_KEY,
} from '../support/service-harness.js';
import { assertEveryPageOnce, startTreeSite, type TreeSite } from '../support/tree-site.js';

const CRAWLS = 3;
const PAGE_COUNT = 150;
const PAGE_DELAY_MS = 40;
const SEARCHED_PAGES = 25;

const backends = clusterBackends();
const { cleanups } = backends;

/** A run's file through `first`'s signed URL, fetched from `second`: the API processes share the signing secret. */
async function downloadAcross(first: ServeProcess, second: ServeProcess, id: number, file: string) {
  const answer = await fetch(`${first.url}${downloadPathOf(DEMO_TENANT, id, file)}`, {
    headers: { 'x-mf-apikey': TEST_API_KEY },
    redirect: 'manual',
  });
  assert.equal(answer.status, 302, await answer.clone().text());
  const signed = new URL(answer.headers.get('location')!);
  const body = await fetch(`${second.url}${signed.pathname}${signed.search}`);
  assert.equal(body.status, 200);
  const { gunzipSync } = await import('node:zlib');
  return gunzipSync(Buffer.from(await body.arrayBuffer()));
}

type Member = Awaited<ReturnType<typeof startClusterProcess>>;

/** The index generation copies in a process's cache (`<data>/cache/search/<service>/<generation>.db`). */
async function generationCopies(dataDir: string): Promise<string[]> {
  const folder = path.join(dataDir, 'cache', 'search', '1');
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.db'));
}

/** The runs of a crawl service setting the schedulers started, from its histories. */
async function runsOf(api: ServeProcess, settingId: number): Promise<{ state: number }[]> {
  const range = 'from_datetime=2026-01-01T00:00:00Z&to_datetime=2099-01-01T00:00:00Z';
  const response = await fetch(
    `${api.url}/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories?${range}`,
  );
  assert.equal(response.status, 200, await response.clone().text());
  const body = (await response.json()) as { contents: { crawl_execution_status_dtype_id: number }[] };
  return body.contents.map((run) => ({ state: run.crawl_execution_status_dtype_id }));
}

/** The next minute of the hour at least 20 s away (UTC), for an hourly slot soon. */
function nextSlotMinute(): number {
  const now = new Date();
  const ahead = now.getUTCSeconds() > 40 ? 2 : 1;
  return (now.getUTCMinutes() + ahead) % 60;
}

test('a cluster of split roles: workers share the runs and survive each other, a slot fires once, search nodes serve what a worker publishes', async () => {
  const sites: TreeSite[] = await Promise.all(
    Array.from({ length: CRAWLS }, () => startTreeSite(PAGE_COUNT, PAGE_DELAY_MS)),
  );
  const searched = await startTreeSite(SEARCHED_PAGES, 0);
  for (const site of [...sites, searched]) cleanups.push(() => site.close());
  const env = {
    ...backends.s3().env,
    KUMO_DATABASE_URL: await backends.postgres().createDatabase(),
    KUMO_SECRET_KEY: 'ef'.repeat(32),
    KUMO_BLOB_URL: `s3://${backends.s3().bucket}/split`,
    KUMO_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN,
    KUMO_SIGNING_SECRET: 'the-download-signing-secret-of-the-cluster',
    KUMO_TIMEZONE: 'UTC',
    KUMO_RUN_LEASE_SECONDS: '3',
    KUMO_CHECKPOINT_SECONDS: '1',
    KUMO_SCHEDULER_INTERVAL_SECONDS: '1',
    KUMO_WORKER_CONCURRENCY: '2',
    KUMO_MAX_RUNNING_PER_CONTRACT: '4',
    KUMO_LOG_LEVEL: 'warn',
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
  };
  const as = (roles: string) => startClusterProcess({ ...env, KUMO_ROLES: roles }, cleanups);
  // Two API processes starting at once create one demo tenant.
  const apis = await Promise.all([as('api'), as('api')]);
  const [api, otherApi] = apis as [ServeProcess, ServeProcess];
  const contracts = (await (
    await fetch(`${api.url}/admin/v1/contracts`, {
      headers: { authorization: `Bearer ${CLUSTER_ADMIN_TOKEN}` },
    })
  ).json()) as { contracts: { name: string }[] };
  assert.deepEqual(
    contracts.contracts.map((contract) => contract.name),
    ['demo'],
  );
  // No worker yet: a crawl waits for one, and the API process says so without counting slots it
  // does not know.
  const early = await api.requestCrawl({ seed_urls: [`${searched.baseUrl}/p/0`] });
  assert.equal((await api.statusOf(early))?.message, 'waiting: for a free run slot of the workers');
  const cancelled = await fetch(`${api.url}${crawlerPathOf(DEMO_TENANT)}/statuses/requests/${early}/cancel`, {
    method: 'PUT',
    headers: { 'x-mf-apikey': TEST_API_KEY },
  });
  assert.equal(cancelled.status, 200);
  assert.equal((await api.waitForFinished(early)).crawl_execution_status_dtype_id, 2050);

  const [firstWorker, secondWorker, firstScheduler, secondScheduler, firstNode, secondNode] =
    (await Promise.all(['worker', 'worker', 'scheduler', 'scheduler', 'search', 'search'].map(as))) as [
      Member,
      Member,
      Member,
      Member,
      Member,
      Member,
    ];
  assert.match(
    firstWorker.output(),
    /listening on http:\/\/127\.0\.0\.1:\d+ with the roles worker of a cluster/,
  );

  // Each process answers what its roles run, and its health check names what it depends on.
  assert.equal(await searchStatus(api), 404);
  assert.equal(await searchStatus(firstWorker), 404);
  assert.equal(await searchStatus(firstNode), 200);
  const components = async (process: ServeProcess) =>
    Object.keys((await healthOf(process)).components).sort();
  // Every process that opens search services of a cluster follows their generations and says
  // whether it is behind on any.
  assert.deepEqual(await components(api), ['blob_store', 'search_generations', 'store']);
  assert.deepEqual(await components(firstWorker), [
    'blob_store',
    'browser',
    'run_leases',
    'search_generations',
    'store',
  ]);
  assert.deepEqual(await components(firstScheduler), [
    'blob_store',
    'scheduler',
    'search_generations',
    'store',
  ]);
  assert.deepEqual(await components(firstNode), ['blob_store', 'search_generations', 'store']);

  // A setting of the demo search service, scheduled for a slot a minute or so away.
  const minute = nextSlotMinute();
  const { service_setting_id: settingId } = (await adminCall(api, 'POST', '/service_settings', {
    setting: { seed_urls: [`${searched.baseUrl}/p/0`] },
    schedule: { interval: 1, min: minute },
    service_id: 1,
  })) as { service_setting_id: number };

  // Instant crawls at once through the API process; the first worker dies in the middle of its runs.
  const ids: number[] = [];
  for (const site of sites)
    ids.push(await api.requestCrawl({ seed_urls: [`${site.baseUrl}/p/0`], base_concurrent_requests: 2 }));
  await pollUntil(
    'the first worker to hold a run in the middle',
    async () => {
      const held = (await healthOf(firstWorker)).components.run_leases?.held ?? 0;
      const crawled = sites.reduce((sum, site) => sum + site.hits.size, 0);
      return held > 0 && crawled >= 60 ? true : undefined;
    },
    20_000,
    50,
  );
  assert.deepEqual(await firstWorker.kill(), { code: null, signal: 'SIGKILL' });
  for (const [at, id] of ids.entries()) {
    const history = await api.waitForFinished(id, 60_000);
    assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
    assert.equal(history.crawled_url_count, PAGE_COUNT);
    await assertEveryPageOnce(sites[at]!, PAGE_COUNT, (file) => downloadAcross(api, otherApi, id, file));
  }
  assert.ok(
    (await metricOf(secondWorker.url, 'kumo_runs_taken_over_total')) >= 1,
    'the second worker took over',
  );

  // The slot fires once, whichever scheduler looks first; the search nodes answer a load meanwhile.
  const load = startSearchLoad([firstNode, secondNode]);
  await pollUntil(
    'the slot to start a run',
    async () => ((await runsOf(api, settingId)).length > 0 ? true : undefined),
    90_000,
    200,
  );
  // One scheduler dies in the slot and starts again: it finds the slot taken.
  await firstScheduler.kill();
  const restarted = await as('scheduler');
  await pollUntil('the restarted scheduler to look at the schedules', async () =>
    (await healthOf(restarted)).components.scheduler?.status === 'OK' ? true : undefined,
  );
  await pollUntil(
    'the run of the slot to finish',
    async () => ((await runsOf(api, settingId)).some((run) => run.state === 2030) ? true : undefined),
    30_000,
    100,
  );
  await pollUntil(
    'the run to be searchable on a node',
    () => (load.seen.has(SEARCHED_PAGES) ? true : undefined),
    10_000,
    20,
  );
  assert.deepEqual(await firstNode.kill(), { code: null, signal: 'SIGKILL' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await load.stop();
  assert.deepEqual(await runsOf(api, settingId), [{ state: 2030 }], 'one run for the slot');
  assert.deepEqual(
    [...load.seen].sort((a, b) => a - b).filter((count) => count !== 0),
    [SEARCHED_PAGES],
    'every answer came from one generation',
  );
  assert.equal(await pageHits(secondNode), SEARCHED_PAGES);
  // The worker that published the generation keeps no copy of it: it serves none.
  for (const worker of [firstWorker, secondWorker])
    assert.deepEqual(await generationCopies(worker.dataDir), [], `generation copies of ${worker.dataDir}`);

  for (const process of [api, otherApi, secondWorker, secondScheduler, restarted, secondNode])
    assert.deepEqual(await process.stop('SIGTERM'), { code: 0, signal: null }, process.output());
});
