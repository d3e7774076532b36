/**
 * The worker part of bench:cluster (docs/operations.md, Roles): a cluster of split roles on one
 * PostgreSQL database and one bucket, one `kumo serve --roles api,scheduler` and N processes with
 * `--roles worker`, each with two run slots. The API process is asked for one instant crawl per
 * site at once (every site a host of its own, so no host's pace binds them together); the turn
 * lasts from the first request until the API's histories say every run ended. Throughput is the
 * pages of all runs over that time. Before, a one-page crawl measures how soon a request made on
 * the API process runs on a worker (told by PostgreSQL, not found at a poll).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startKumoServe, type KumoServe } from './search-load-processes.js';

export interface WorkerTurn {
  pages: number;
  seconds: number;
  /** Pages each worker process fetched: how the runs were shared (a probe's page included). */
  pagesPerWorker: number[];
  /** Milliseconds from a crawl request on the API process to its run running on a worker. */
  startMs: number;
}

export interface WorkerBackends {
  databaseUrl: string;
  s3Env: Record<string, string>;
  bucket: string;
  siteUrls: readonly string[];
}

/** Runs one turn with `workers` worker processes; `pagesPerSite` pages of each site. */
export async function crawlWithWorkers(
  backends: WorkerBackends,
  workers: number,
  pagesPerSite: number,
  turn: number,
): Promise<WorkerTurn> {
  const env = {
    ...backends.s3Env,
    KUMO_DATABASE_URL: backends.databaseUrl,
    KUMO_SECRET_KEY: 'ab'.repeat(32),
    KUMO_BLOB_URL: `s3://${backends.bucket}/workers-${workers}-${turn}`,
    KUMO_SIGNING_SECRET: 'bench-cluster-signing-secret',
    KUMO_RATE_LIMIT_PER_MINUTE: '0',
    KUMO_WORKER_CONCURRENCY: '2',
    KUMO_MAX_RUNNING_PER_CONTRACT: String(backends.siteUrls.length),
  };
  const folders: string[] = [];
  const processes: KumoServe[] = [];
  const serve = async (roles: string) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-worker-bench-'));
    folders.push(dataDir);
    const started = await startKumoServe(dataDir, { env: { ...env, KUMO_ROLES: roles } });
    processes.push(started);
    return started;
  };
  try {
    const api = await serve('api,scheduler');
    const pool = await Promise.all(Array.from({ length: workers }, () => serve('worker')));
    // The queue as a client sees it: from the request to its run running on a worker process.
    const asked = performance.now();
    const probe = await api.requestCrawl({ seed_urls: [`${backends.siteUrls[0]}/`], documents_limit: 1 });
    while ((await api.crawlProgress(probe)).state === 'not yet running')
      await new Promise((resolve) => setTimeout(resolve, 5));
    const startMs = performance.now() - asked;
    while ((await api.crawlProgress(probe)).active) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    const ids: number[] = [];
    for (const siteUrl of backends.siteUrls)
      ids.push(
        await api.requestCrawl({
          seed_urls: [`${siteUrl}/`],
          documents_limit: pagesPerSite,
          depth_limit: 20,
          robots_txt: false,
        }),
      );
    let pages = 0;
    for (const id of ids) {
      let progress = await api.crawlProgress(id);
      while (progress.active) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        progress = await api.crawlProgress(id);
      }
      if (progress.state !== 'stopped')
        throw new Error(`${workers} workers: a crawl ended ${progress.state}`);
      pages += progress.crawled;
    }
    const seconds = (performance.now() - started) / 1000;
    const pagesPerWorker = await Promise.all(pool.map((worker) => pagesFetched(worker)));
    process.stderr.write(
      `  ${`${workers} worker${workers === 1 ? '' : 's'}`.padEnd(12)} turn ${turn}: ${pages} pages in ` +
        `${seconds.toFixed(2)} s (pages per worker: ${pagesPerWorker.join(', ')}); a request ran ${startMs.toFixed(0)} ms after it was made\n`,
    );
    return { pages, seconds, pagesPerWorker, startMs };
  } finally {
    await Promise.all(processes.map((one) => one.stop()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

/** The pages a worker process fetched, from its /metrics (kumo_pages_fetched_total over its labels). */
async function pagesFetched(worker: KumoServe): Promise<number> {
  const text = await worker.metricsText();
  return text
    .split('\n')
    .filter((line) => line.startsWith('kumo_pages_fetched_total'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
