/**
 * `npm run bench:small-runs`: what a small instant crawl costs the service, start to end, as a
 * programmer calling the API many times sees it (docs/design/crawl.md, Threads kept warm between
 * runs). A service on the embedded defaults crawls, one run after another, a few pages of a real
 * documentation site (Debian's postgresql-doc-15, served from a child process on loopback) and of
 * a generated one; prints, per site, the median and 90th percentile time from the request to the
 * run's end (polled every 10 ms), the service's processor time per run, and the run threads it
 * started. Options: `-- --runs N` (default 20), `--pages N` (documents_limit, default 5),
 * `--site <folder>` (default the PostgreSQL manual).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.js';
import { startKumo } from '../src/startup/service.js';
import { type BenchSite, startBenchSite, startFolderSite } from './bench-site.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    pages: { type: 'string', default: '5' },
    site: { type: 'string', default: '/usr/share/doc/postgresql-doc-15/html' },
  },
});
const runs = Number(values.runs);
const pages = Number(values.pages);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: ${values.runs} is not a positive integer`);
if (!Number.isInteger(pages) || pages < 1)
  throw new Error(`--pages: ${values.pages} is not a positive integer`);
if (!existsSync(values.site!)) {
  process.stderr.write(
    `bench:small-runs needs the site folder ${values.site} (Debian package postgresql-doc-15, or --site)\n`,
  );
  process.exit(2);
}

const CRAWLER = '/api/v1/contracts/1/servicegroups/1/crawler';
const FINISHED = new Set([2030, 2040, 2050, 2060]);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-small-runs-'));
const service = await startKumo(
  loadConfig({
    KUMO_DATA_DIR: dataDir,
    KUMO_HOST: '127.0.0.1',
    KUMO_PORT: '0',
    KUMO_LOG_LEVEL: 'silent',
    KUMO_ALLOW_PRIVATE_NETWORKS: 'true',
    // The bench polls every 10 ms, far above a client's share of the API.
    KUMO_RATE_LIMIT_PER_MINUTE: '100000',
  }),
);
const apiKey = service.createdDemoKey;
if (apiKey === undefined) throw new Error('the bench service did not create its demo key');

async function call(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}${url}`, {
    method,
    headers: { 'x-mf-apikey': apiKey!, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200)
    throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Milliseconds from the request to the run's end; throws when the run did not end 2030. */
async function oneRun(seed: string): Promise<number> {
  const started = performance.now();
  const { instant_crawl_request_id: id } = await call('POST', `${CRAWLER}/request`, {
    setting: { seed_urls: [seed], documents_limit: pages, robots_txt: false },
  });
  for (;;) {
    // A run is in the histories once it has ended.
    const answer = await call('GET', `${CRAWLER}/histories?instant_crawl_request_id=${String(id)}`);
    const [history] = answer.crawl_histories as { crawl_execution_status_dtype_id: number }[];
    const state = history?.crawl_execution_status_dtype_id;
    if (state !== undefined && FINISHED.has(state)) {
      if (state !== 2030) throw new Error(`run of request ${String(id)} ended ${state}`);
      return performance.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function threadsStarted(): Promise<number> {
  const metrics = await service.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${service.createdAdminToken ?? ''}` },
  });
  const line = /^kumo_run_threads_started_total (\d+)$/m.exec(metrics.body);
  return line === null ? 0 : Number(line[1]);
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function measure(name: string, site: BenchSite, seedPath: string): Promise<void> {
  const seed = `${site.baseUrl}${seedPath}`;
  await oneRun(seed); // The first run loads what every later one reuses (routes, the browser probe).
  const threadsBefore = await threadsStarted();
  const cpuBefore = process.cpuUsage();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    times.push(await oneRun(seed));
    process.stderr.write(`\r${name}: run ${run + 1}/${runs}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const threads = (await threadsStarted()) - threadsBefore;
  times.sort((a, b) => a - b);
  process.stderr.write('\n');
  process.stdout.write(
    `${name.padEnd(34)} median ${percentile(times, 0.5).toFixed(0).padStart(5)} ms  ` +
      `p90 ${percentile(times, 0.9).toFixed(0).padStart(5)} ms  ` +
      `processor ${((cpu.user + cpu.system) / 1000 / runs).toFixed(0).padStart(5)} ms/run  ` +
      `run threads started ${threads}\n`,
  );
}

process.stdout.write(`bench:small-runs  ${runs} runs of documents_limit ${pages}, one after another\n`);
const real = await startFolderSite(values.site!);
const generated = await startBenchSite({ pages: 1000, linksPerPage: 20, pageBytes: 15_000 });
try {
  await measure(`real: ${path.basename(path.dirname(values.site!))}`, real, '/index.html');
  await measure('generated: 1,000-page site', generated, '/');
} finally {
  await Promise.all([real.close(), generated.close()]);
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
}
