/**
 * `npm run bench:cluster`: what the shared backends cost a crawl. The same instant crawl of a
 * generated local site (bench-site.ts) through a real `kumo serve`, in turns:
 *
 * - `embedded`: SQLite and the data directory (the default);
 * - `postgres`: the service records in PostgreSQL (Debian's server, started in a temporary folder),
 *   reached through a relay that counts round trips and bytes (pg-wire-counter.ts);
 * - `postgres+s3`: and the artifacts in an S3-compatible store (s3rver on loopback).
 *
 * Each turn starts a fresh server and data directory, requests the crawl and waits until its
 * history says it ended (artifacts packaged, and uploaded with S3). Prints per mode the median of
 * the turns: pages/s from the request to the end, the ratio to the embedded mode (the issue's
 * goal: at least 80%), and PostgreSQL round trips and bytes per crawled page (goal: at most 2
 * round trips). Then, on PostgreSQL, how long a cancel recorded in the database by another
 * process (the flag alone, as another process's API sets it) takes to end a running crawl: the
 * worker learns it from its lease heartbeat (docs/design/scale-out.md, Run leases). Then a cluster
 * of split roles (cluster-workers.ts): several crawls at once with one worker process, then two.
 * Last, search nodes (cluster-search.ts): the time from a run's end to its pages being searchable
 * on two search nodes, and search requests/s with one node and with two. Then re-crawls
 * (cluster-deltas.ts): the bench's generated site of BENCH_RECRAWL_PAGES (100,000) pages and
 * Debian's rust-doc when installed, crawled again after 1% and 10% of their pages changed, with
 * the bytes each run moves to the bucket and to each search node. `-- --only recrawl` runs that
 * part alone. Options (environment): BENCH_PAGES (2000), BENCH_TURNS (3), BENCH_LINKS (20),
 * BENCH_PAGE_BYTES (15000), BENCH_SEARCH_SECONDS (10), BENCH_RECRAWL_PAGES (100000).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { startS3Server } from '../test/support/s3-server.js';
import { parseArgs } from 'node:util';
import { startBenchSite, startFolderSite } from './bench-site.js';
import { measureRecrawlDeltas } from './cluster-deltas.js';
import { startWireCounter, type WireCounts } from './pg-wire-counter.js';
import { startKumoServe } from './search-load-processes.js';
import { measureSearchNodes } from './cluster-search.js';
import { crawlWithWorkers, type WorkerTurn } from './cluster-workers.js';
import postgresClient from 'postgres';

type Mode = 'embedded' | 'postgres' | 'postgres+s3';
const MODES: readonly Mode[] = ['embedded', 'postgres', 'postgres+s3'];

interface Turn {
  pages: number;
  seconds: number;
  wire?: WireCounts;
}

const numberOf = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: expected a positive whole number`);
  return value;
};
const pages = numberOf('BENCH_PAGES', 2000);
const turns = numberOf('BENCH_TURNS', 3);
const linksPerPage = numberOf('BENCH_LINKS', 20);
const pageBytes = numberOf('BENCH_PAGE_BYTES', 15000);
const searchSeconds = numberOf('BENCH_SEARCH_SECONDS', 10);
const recrawlPages = numberOf('BENCH_RECRAWL_PAGES', 100_000);
const { values } = parseArgs({ options: { only: { type: 'string' } } });
if (values.only !== undefined && values.only !== 'recrawl')
  throw new Error(`--only: ${values.only} is not a part that runs alone (recrawl)`);
const RUST_DOC = '/usr/share/doc/rust-doc/html';

const site = await startBenchSite({ pages, linksPerPage, pageBytes });
const postgres = await startPostgresServer();
const s3 = await startS3Server('kumo-bench');
const serverUrl = new URL(postgres.url);
const relay = await startWireCounter({ host: serverUrl.hostname, port: Number(serverUrl.port) });
process.stdout.write(
  values.only === 'recrawl'
    ? `bench:cluster  re-crawls only: the generated site of ${recrawlPages} pages, then rust-doc\n`
    : `bench:cluster  ${pages} pages of ~${pageBytes} bytes, ${linksPerPage} links each; ${turns} turns of ${MODES.join(', ')}\n`,
);

async function crawlOnce(mode: Mode, turn: number): Promise<Turn> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-cluster-bench-'));
  const env: Record<string, string> = {};
  if (mode !== 'embedded') {
    const database = new URL(await postgres.createDatabase());
    database.port = String(relay.port);
    env.KUMO_DATABASE_URL = database.toString();
  }
  if (mode === 'postgres+s3') Object.assign(env, s3.env, { KUMO_BLOB_URL: `s3://${s3.bucket}/turn-${turn}` });
  const serve = await startKumoServe(dataDir, { env });
  try {
    const before = relay.counts();
    const started = performance.now();
    const requestId = await serve.requestCrawl({
      seed_urls: [`${site.baseUrl}/`],
      documents_limit: pages,
      depth_limit: 20,
      robots_txt: false,
    });
    let progress = await serve.crawlProgress(requestId);
    while (progress.active) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      progress = await serve.crawlProgress(requestId);
    }
    const seconds = (performance.now() - started) / 1000;
    if (progress.state !== 'stopped') throw new Error(`${mode}: the crawl ended ${progress.state}`);
    const after = relay.counts();
    const wire =
      mode === 'embedded'
        ? undefined
        : {
            roundTrips: after.roundTrips - before.roundTrips,
            bytesToServer: after.bytesToServer - before.bytesToServer,
            bytesToClient: after.bytesToClient - before.bytesToClient,
          };
    process.stderr.write(
      `  ${mode.padEnd(12)} turn ${turn}: ${progress.crawled} pages in ${seconds.toFixed(2)} s\n`,
    );
    return { pages: progress.crawled, seconds, ...(wire && { wire }) };
  } finally {
    await serve.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Milliseconds from a cancel flag set in the database to the crawl's end as its history says. */
async function cancelFromElsewhere(turn: number): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-cluster-bench-'));
  const databaseUrl = await postgres.createDatabase();
  const serve = await startKumoServe(dataDir, { env: { KUMO_DATABASE_URL: databaseUrl } });
  const database = postgresClient(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    // Paced, so the crawl is still running when the cancel comes.
    const requestId = await serve.requestCrawl({
      seed_urls: [`${site.baseUrl}/`],
      documents_limit: pages,
      download_delay: 0.1,
      robots_txt: false,
    });
    while ((await serve.crawlProgress(requestId)).crawled < 3)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = performance.now();
    await database`UPDATE crawl_runs SET is_cancel_request = TRUE WHERE request_id = ${requestId}`;
    let progress = await serve.crawlProgress(requestId);
    while (progress.active) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      progress = await serve.crawlProgress(requestId);
    }
    const ms = performance.now() - asked;
    if (progress.state !== 'stopped by cancel') throw new Error(`cancel: the crawl ended ${progress.state}`);
    process.stderr.write(`  cancel       turn ${turn}: ended ${ms.toFixed(0)} ms after the flag\n`);
    return ms;
  } finally {
    await database.end();
    await serve.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Sites crawled at once by the split cluster, each a host of its own (its own port). */
const WORKER_SITES = 4;
const pagesPerSite = Math.ceil(pages / 2);

/** Turns of the split cluster with one worker process, then two, interleaved. */
async function measureWorkers(): Promise<Map<number, (WorkerTurn & { wire: WireCounts })[]>> {
  const extra = await Promise.all(
    Array.from({ length: WORKER_SITES - 1 }, () => startBenchSite({ pages, linksPerPage, pageBytes })),
  );
  const figures = new Map<number, (WorkerTurn & { wire: WireCounts })[]>([
    [1, []],
    [2, []],
  ]);
  try {
    for (let turn = 1; turn <= turns; turn++)
      for (const workers of figures.keys()) {
        const database = new URL(await postgres.createDatabase());
        database.port = String(relay.port);
        const before = relay.counts();
        const result = await crawlWithWorkers(
          {
            databaseUrl: database.toString(),
            s3Env: s3.env,
            bucket: s3.bucket,
            siteUrls: [site.baseUrl, ...extra.map((one) => one.baseUrl)],
          },
          workers,
          pagesPerSite,
          turn,
        );
        const after = relay.counts();
        figures.get(workers)!.push({
          ...result,
          wire: {
            roundTrips: after.roundTrips - before.roundTrips,
            bytesToServer: after.bytesToServer - before.bytesToServer,
            bytesToClient: after.bytesToClient - before.bytesToClient,
          },
        });
      }
  } finally {
    await Promise.all(extra.map((one) => one.close()));
  }
  return figures;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The re-crawl part: the generated site, then rust-doc when installed. */
async function measureRecrawls(): Promise<void> {
  const generated = await startBenchSite({ pages: recrawlPages, linksPerPage, pageBytes });
  try {
    await measureRecrawlDeltas(`generated-${recrawlPages}`, generated, `${generated.baseUrl}/`, {
      postgres,
      s3,
    });
  } finally {
    await generated.close();
  }
  if (!existsSync(RUST_DOC)) {
    process.stdout.write(`
rust-doc: not measured, ${RUST_DOC} is not installed (apt-get install rust-doc)
`);
    return;
  }
  const rustDoc = await startFolderSite(RUST_DOC);
  try {
    await measureRecrawlDeltas('rust-doc', rustDoc, `${rustDoc.baseUrl}/index.html`, { postgres, s3 });
  } finally {
    await rustDoc.close();
  }
}

try {
  if (values.only === 'recrawl') await measureRecrawls();
  else await measureEveryPart();
} finally {
  await relay.close();
  await s3.stop();
  await postgres.stop();
  await site.close();
}

async function measureEveryPart(): Promise<void> {
  const results = new Map<Mode, Turn[]>(MODES.map((mode) => [mode, []]));
  // Interleaved, so a change in the machine's load falls on every mode alike.
  for (let turn = 1; turn <= turns; turn++)
    for (const mode of MODES) results.get(mode)!.push(await crawlOnce(mode, turn));

  const rate = (mode: Mode) => median(results.get(mode)!.map((one) => one.pages / one.seconds));
  const embedded = rate('embedded');
  process.stdout.write(
    `\n${'mode'.padEnd(14)}${'pages/s'.padStart(10)}${'vs embedded'.padStart(13)}${'PG round trips/page'.padStart(21)}${'PG bytes/page'.padStart(15)}\n`,
  );
  for (const mode of MODES) {
    const list = results.get(mode)!;
    const perPage = (pick: (wire: WireCounts) => number) =>
      list[0]!.wire === undefined ? '-' : median(list.map((one) => pick(one.wire!) / one.pages)).toFixed(2);
    process.stdout.write(
      `${mode.padEnd(14)}${rate(mode).toFixed(1).padStart(10)}${`${((rate(mode) / embedded) * 100).toFixed(0)}%`.padStart(13)}` +
        `${perPage((wire) => wire.roundTrips).padStart(21)}` +
        `${perPage((wire) => wire.bytesToServer + wire.bytesToClient).padStart(15)}\n`,
    );
  }
  const cancels: number[] = [];
  for (let turn = 1; turn <= turns; turn++) cancels.push(await cancelFromElsewhere(turn));
  process.stdout.write(
    `\ncancel recorded by another process -> run ended: median ${median(cancels).toFixed(0)} ms, ` +
      `max ${Math.max(...cancels).toFixed(0)} ms (${turns} turns; heartbeat every 2 s)\n`,
  );
  const workerFigures = await measureWorkers();
  process.stdout.write(
    `\nsplit roles (one api,scheduler process; worker processes of 2 run slots each; ${WORKER_SITES} crawls of ` +
      `${pagesPerSite} pages at once, one site each):\n`,
  );
  for (const [workers, list] of workerFigures) {
    const perPage = median(list.map((one) => one.wire.roundTrips / one.pages)).toFixed(2);
    process.stdout.write(
      `  ${workers} worker process${workers === 1 ? ' ' : 'es'}: ${median(list.map((one) => one.pages / one.seconds)).toFixed(1)} pages/s, ` +
        `${perPage} PG round trips/page; request to running ${median(list.map((one) => one.startMs)).toFixed(0)} ms; ` +
        `pages per worker (last turn): ${list.at(-1)!.pagesPerWorker.join(', ')}\n`,
    );
  }
  const search = await measureSearchNodes(
    { databaseUrl: await postgres.createDatabase(), s3Env: s3.env, bucket: s3.bucket, siteUrl: site.baseUrl },
    [Math.ceil(pages / 4), Math.ceil(pages / 2), pages],
    searchSeconds,
  );
  process.stdout.write('\nsearch nodes (two, beside the crawling process):\n');
  for (const run of search.runs)
    process.stdout.write(
      `  run of ${String(run.documents).padStart(5)} pages: searchable on every node ${Math.max(...run.msPerNode).toFixed(0)} ms after its end\n`,
    );
  if (search.generationBytes !== undefined)
    process.stdout.write(
      `  one generation (the whole index file): ${(search.generationBytes / 1e6).toFixed(1)} MB\n`,
    );
  const rateLine = (label: string, figures: typeof search.oneNode) =>
    `  ${label}: ${figures.requestsPerSecond.toFixed(0)} requests/s, p99 ${figures.p99} ms, ${figures.errors} errors\n`;
  process.stdout.write(rateLine('search, 1 node ', search.oneNode));
  process.stdout.write(rateLine('search, 2 nodes', search.twoNodes));
  await measureRecrawls();
  process.stdout.write(
    `\nGoals: one-worker PostgreSQL throughput >= 80% of embedded; <= 2 PostgreSQL round trips per crawled page; ` +
      `a new generation searchable on every node within 2 s; a re-crawl changing 1% of 100,000 pages moves at ` +
      `most 5% of the index's bytes to each node and is searchable on every node within 5 s.\n`,
  );
}
