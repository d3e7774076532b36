/**
 * A cluster whose API process does not serve search (docs/operations.md, Roles): an `api,scheduler`
 * process, a worker and a search node, each with a data directory of its own on one PostgreSQL
 * database and one bucket, the API process told where search is reached
 * (KUMO_SEARCH_PUBLIC_URL) unless a test leaves it out, and the demo search service filled by a
 * crawl of a small tree site (pages titled "Page N").
 */
import { rm } from 'node:fs/promises';
import { adminCall, type ClusterBackends, CLUSTER_ADMIN_TOKEN } from './cluster-processes.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { freePort, makeTempDir, pollUntil } from './service-harness.js';
import { startTreeSite } from './tree-site.js';

export const SEARCHED_SITE_PAGES = 7;

export interface SplitSearchCluster {
  /** The process with the roles api and scheduler: the console and the management API. */
  api: ServeProcess;
  /** The process with the search role alone. */
  search: ServeProcess;
  /** The shared environment, for a further process of the same cluster. */
  env: Record<string, string>;
  /** Starts one more process of the cluster with `roles` and further variables. */
  start(roles: string, env?: Record<string, string>, port?: number): Promise<ServeProcess>;
}

/** Starts the cluster and crawls the tree site into the demo search service. */
export async function startSplitSearchCluster(
  backends: ClusterBackends,
  options: { tellSearchAddress: boolean },
): Promise<SplitSearchCluster> {
  const { cleanups } = backends;
  const site = await startTreeSite(SEARCHED_SITE_PAGES, 0);
  cleanups.push(() => site.close());
  const env: Record<string, string> = {
    ...backends.s3().env,
    KUMO_DATABASE_URL: await backends.postgres().createDatabase(),
    KUMO_SECRET_KEY: 'ab'.repeat(32),
    KUMO_BLOB_URL: `s3://${backends.s3().bucket}/split-search`,
    KUMO_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN,
    KUMO_SIGNING_SECRET: 'the-download-signing-secret-of-the-split-cluster',
    KUMO_LOG_LEVEL: 'warn',
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
  };
  const start = async (roles: string, more: Record<string, string> = {}, port?: number) => {
    const dataDir = await makeTempDir('kumo-split-');
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return startServeProcess({
      dataDir,
      port: port ?? (await freePort()),
      env: { ...env, KUMO_ROLES: roles, ...more },
      cleanups,
    });
  };
  const searchPort = await freePort();
  const searchUrl = `http://127.0.0.1:${searchPort}`;
  const api = await start(
    'api,scheduler',
    options.tellSearchAddress ? { KUMO_SEARCH_PUBLIC_URL: searchUrl } : {},
  );
  // The search node lets the console's origin (KUMO_PUBLIC_URL) frame its hosted pages.
  const search = await start(
    'search',
    { KUMO_PUBLIC_URL: api.url, KUMO_SEARCH_PUBLIC_URL: searchUrl },
    searchPort,
  );
  await start('worker');
  await crawlIntoDemoSearch(api, search, `${site.baseUrl}/p/0`);
  return { api, search, env, start };
}

/** Runs a crawl of `seed` feeding the demo search service; resolves when the node finds every page. */
async function crawlIntoDemoSearch(api: ServeProcess, search: ServeProcess, seed: string): Promise<void> {
  const created = (await adminCall(api, 'POST', '/service_settings', {
    setting: { seed_urls: [seed] },
    schedule: { interval: 0 },
    service_id: 1,
  })) as { service_setting_id: number };
  await adminCall(api, 'POST', `/service_settings/${created.service_setting_id}/run`);
  await pollUntil(
    'the crawled pages to reach the search node',
    async () => {
      const response = await fetch(`${search.url}/api/v1.0/finder_service/documents/1/1/1/search?q=page`);
      if (response.status !== 200) return undefined;
      const body = (await response.json()) as { organic: { hits: number } };
      return body.organic.hits >= SEARCHED_SITE_PAGES ? true : undefined;
    },
    60_000,
    200,
  );
}
