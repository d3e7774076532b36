/**
 * The search part of bench:cluster (docs/design/scale-out.md, Search nodes): one crawling `kumo
 * serve` and two search nodes (`--roles search`) on one PostgreSQL database and one bucket.
 *
 * - Time to searchable: runs of a scheduled setting feeding the demo search service, each
 *   crawling more pages of the bench site than the last; from the moment the crawling process's
 *   history says a run finished (polled every 20 ms) to the moment each node answers with the new
 *   document count (polled every 10 ms). The goal: within 2 s on every node.
 * - Search requests/s with one node, then with both (autocannon, a few queries of the site's words,
 *   the same connections per node), and the bytes of one generation file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgresClient from 'postgres';
import { startKumoServe, type KumoServe } from './search-load-processes.js';

const GROUP = '/contracts/1/servicegroups/1';
const SEARCH = '/api/v1.0/finder_service/documents/1/1/1/search';
const QUERIES = ['crawler', 'search engine', 'weather report', '検索', '天気予報'];
const CONNECTIONS_PER_NODE = 8;

export interface SearchNodeFigures {
  /** Per run: pages indexed, and ms from the run's end to each node serving them. */
  runs: { documents: number; msPerNode: number[] }[];
  oneNode: { requestsPerSecond: number; p99: number; errors: number };
  twoNodes: { requestsPerSecond: number; p99: number; errors: number };
  generationBytes: number | undefined;
}

export interface ClusterBackends {
  databaseUrl: string;
  s3Env: Record<string, string>;
  bucket: string;
  siteUrl: string;
}

export async function measureSearchNodes(
  backends: ClusterBackends,
  documentLimits: readonly number[],
  seconds: number,
): Promise<SearchNodeFigures> {
  const env = {
    ...backends.s3Env,
    KUMO_DATABASE_URL: backends.databaseUrl,
    KUMO_SECRET_KEY: 'ef'.repeat(32),
    KUMO_BLOB_URL: `s3://${backends.bucket}/search-nodes`,
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
  };
  const folders: string[] = [];
  const serve = async (extra: Record<string, string>) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-search-node-bench-'));
    folders.push(dataDir);
    return startKumoServe(dataDir, { env: { ...env, ...extra } });
  };
  const full = await serve({});
  const nodes: KumoServe[] = [];
  try {
    nodes.push(await serve({ KUMO_ROLES: 'search' }), await serve({ KUMO_ROLES: 'search' }));
    const runs: SearchNodeFigures['runs'] = [];
    for (const limit of documentLimits) {
      await runSetting(full, backends.siteUrl, limit);
      const ended = performance.now();
      const documents = await hitsOf(full, 'crawler');
      const msPerNode = await Promise.all(
        nodes.map(async (node) => {
          while ((await hitsOf(node, 'crawler')) !== documents) await sleep(10);
          return performance.now() - ended;
        }),
      );
      process.stderr.write(
        `  search nodes: ${documents} documents on both nodes ${msPerNode.map((ms) => `${ms.toFixed(0)} ms`).join(', ')} after the run ended\n`,
      );
      runs.push({ documents, msPerNode });
    }
    const oneNode = await load([nodes[0]!], seconds);
    const twoNodes = await load(nodes, seconds);
    const database = postgresClient(backends.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [latest] = await database<{ bytes: string }[]>`
        SELECT bytes FROM search_generations ORDER BY published_us DESC LIMIT 1`;
      return { runs, oneNode, twoNodes, generationBytes: latest && Number(latest.bytes) };
    } finally {
      await database.end();
    }
  } finally {
    await Promise.all([...nodes, full].map((process) => process.stop()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

/** A new scheduled setting of the demo search service crawling `limit` pages, run now, awaited. */
async function runSetting(full: KumoServe, siteUrl: string, limit: number): Promise<void> {
  const created = await full.admin('POST', `${GROUP}/service_settings`, {
    setting: { seed_urls: [`${siteUrl}/`], documents_limit: limit, depth_limit: 20, robots_txt: false },
    schedule: { interval: 2, hour: 3, min: 0 },
    service_id: 1,
  });
  const settingId = created.service_setting_id as number;
  await full.admin('POST', `${GROUP}/service_settings/${settingId}/run`);
  const range = 'from_datetime=2020-01-01T00:00:00%2B09:00&to_datetime=2099-01-01T00:00:00%2B09:00';
  for (;;) {
    const { body } = await full.get(
      `/api/v1.0/crawler_service${GROUP}/service_settings/${settingId}/histories?${range}`,
    );
    const runs = (body as { contents: { crawl_execution_status_dtype_id: number }[] }).contents;
    const state = runs[0]?.crawl_execution_status_dtype_id;
    if (state === 2030) return;
    if (state !== undefined && state !== 2010 && state !== 2020) throw new Error(`the run ended ${state}`);
    await sleep(20);
  }
}

async function hitsOf(process: KumoServe, query: string): Promise<number> {
  const { status, body } = await process.get(`${SEARCH}?q=${encodeURIComponent(query)}`);
  if (status !== 200) throw new Error(`search answered ${status}`);
  return (body as { organic: { hits: number } }).organic.hits;
}

/** autocannon on each node at once, the same connections per node; the sum of their rates. */
async function load(
  nodes: readonly KumoServe[],
  seconds: number,
): Promise<{ requestsPerSecond: number; p99: number; errors: number }> {
  const results = await Promise.all(
    nodes.map((node) =>
      autocannon({
        url: node.url,
        connections: CONNECTIONS_PER_NODE,
        duration: seconds,
        requests: QUERIES.map((query) => ({
          method: 'GET',
          path: `${SEARCH}?q=${encodeURIComponent(query)}`,
        })),
      }),
    ),
  );
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.total / result.duration, 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
