/**
 * Search nodes of a cluster (docs/design/scale-out.md, Search nodes; docs/operations.md, Roles): one
 * `kumo serve` crawls and feeds the demo search service, two `kumo serve --roles search`
 * processes with data directories of their own answer its searches from the generations it
 * publishes to the database and the bucket. A run's pages reach both nodes; searches on the nodes
 * are counted in the analytics the first process shows; a generation published while the nodes
 * answer a search load is seen whole or not at all; a node killed with SIGKILL during the load
 * leaves the other answering every request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServeProcess } from '../support/serve-process.js';
import { pollUntil } from '../support/service-harness.js';
import {
  adminCall,
  clusterBackends,
  CLUSTER_ADMIN_TOKEN,
  DEMO_GROUP,
  pageHits,
  startClusterProcess,
  startSearchLoad,
} from '../support/cluster-processes.js';
import { startTreeSite } from '../support/tree-site.js';

const backends = clusterBackends();
const { cleanups } = backends;

const start = (env: Record<string, string>) => startClusterProcess(env, cleanups);
const admin = adminCall;
const hits = pageHits;

/** A setting of the demo search service crawling `seed`, run now; resolves when its run has finished. */
async function crawlIntoSearch(full: ServeProcess, seed: string): Promise<void> {
  const created = (await admin(full, 'POST', '/service_settings', {
    setting: { seed_urls: [seed] },
    schedule: { interval: 2, hour: 3, min: 0 },
    service_id: 1,
  })) as { service_setting_id: number };
  const settingId = created.service_setting_id;
  await admin(full, 'POST', `/service_settings/${settingId}/run`);
  const range = 'from_datetime=2026-01-01T00:00:00%2B09:00&to_datetime=2099-01-01T00:00:00%2B09:00';
  await pollUntil(
    `the run of setting ${settingId} to finish`,
    async () => {
      const response = await fetch(
        `${full.url}/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories?${range}`,
      );
      const body = (await response.json()) as { contents: { crawl_execution_status_dtype_id: number }[] };
      return body.contents.find((run) => run.crawl_execution_status_dtype_id === 2030);
    },
    30_000,
    50,
  );
}

test('two search nodes serve what the crawling process publishes, count their searches centrally, and survive each other', async () => {
  const [first, second] = await Promise.all([startTreeSite(30, 0), startTreeSite(20, 0)]);
  cleanups.push(
    () => first.close(),
    () => second.close(),
  );
  const env = {
    ...backends.s3().env,
    KUMO_DATABASE_URL: await backends.postgres().createDatabase(),
    KUMO_SECRET_KEY: 'cd'.repeat(32),
    KUMO_BLOB_URL: `s3://${backends.s3().bucket}/nodes`,
    KUMO_LOG_LEVEL: 'warn',
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
    KUMO_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN,
  };
  const full = await start(env);
  const nodes = await Promise.all([
    start({ ...env, KUMO_ROLES: 'search' }),
    start({ ...env, KUMO_ROLES: 'search' }),
  ]);
  assert.match(nodes[0]!.output(), /listening on http:\/\/127\.0\.0\.1:\d+ as a search node/);
  // A search node answers the site search API only.
  assert.equal(
    (
      await fetch(`${nodes[0]!.url}${DEMO_GROUP}/service_settings`, {
        headers: { authorization: `Bearer ${CLUSTER_ADMIN_TOKEN}` },
      })
    ).status,
    404,
  );
  assert.equal(await hits(nodes[0]!), 0);
  // Its health check names what it depends on: the database and the bucket, no scheduler; and
  // says how many services it serves from an older generation than the newest.
  const health = (await (await fetch(`${nodes[0]!.url}/api/v1.0/finder_service/health_check`)).json()) as {
    status: string;
    components: Record<string, { status?: string; behind?: number }>;
  };
  assert.equal(health.status, 'OK');
  assert.deepEqual(Object.keys(health.components).sort(), ['blob_store', 'search_generations', 'store']);
  assert.deepEqual(health.components.search_generations, { behind: 0 });

  await crawlIntoSearch(full, `${first.baseUrl}/p/0`);
  assert.equal(await hits(full), 30);
  for (const node of nodes)
    await pollUntil(
      'the run to be searchable on the node',
      async () => (await hits(node)) === 30 || undefined,
      10_000,
      20,
    );

  // Every answer during the load comes from one generation: 30 pages, or 30 + 20 once the second
  // site's run is published. One node is killed in the middle; the other answers every request.
  const load = startSearchLoad([nodes[0]!, nodes[1]!]);
  await crawlIntoSearch(full, `${second.baseUrl}/p/0`);
  assert.deepEqual(await nodes[0]!.kill(), { code: null, signal: 'SIGKILL' });
  await pollUntil(
    'the second site to be searchable on the live node',
    async () => load.seen.has(50) || undefined,
    10_000,
    20,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const survivorRequests = await load.stop();
  // The live node fetched both generations' objects, and is behind on none.
  const metrics = await (
    await fetch(`${nodes[1]!.url}/metrics`, { headers: { authorization: `Bearer ${CLUSTER_ADMIN_TOKEN}` } })
  ).text();
  assert.match(metrics, /^kumo_search_services_behind 0$/m);
  const fetched = Number(/^kumo_search_generation_fetched_bytes_total (\d+)$/m.exec(metrics)?.[1]);
  assert.ok(fetched > 0, `fetched ${fetched} bytes`);
  assert.deepEqual(
    [...load.seen].sort((a, b) => a - b),
    [30, 50],
  );

  // The searches the nodes answered are in the analytics the crawling process shows.
  await pollUntil(
    'the nodes searches in the analytics',
    async () => {
      const report = (await admin(full, 'GET', '/search_services/1/analytics')) as {
        totals: { searches: number };
        top_queries: { query: string; searches: number }[];
      };
      return report.totals.searches >= survivorRequests && report.top_queries[0]?.query === 'page'
        ? report
        : undefined;
    },
    10_000,
    100,
  );
});
