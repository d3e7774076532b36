/**
 * `npm run load:search`: the search API of a real `kumo serve` (a child process on 127.0.0.1)
 * held at its measured capacity while a crawl runs, for the release notes' load figures.
 *
 * 1. Indexes a generated corpus (search-corpus.ts, --docs, default 20,000) into search service 1
 *    as `kumo index` does, then starts `kumo serve` over that data directory and gives search
 *    service 1 the benchmark's categories and drill-down rule through the management API.
 * 2. Starts a fixture site on 127.0.0.1 (search-load-site.ts: pages of the crawl benchmark, each
 *    answered after --page-delay ms) and requests an instant crawl of it through the API, at the
 *    default concurrency; the site is large enough that the crawl outlasts the load.
 * 3. With the crawl running: a 5 s warm-up, then a ramp of autocannon runs (--step-seconds each
 *    at --ramp connections) over the search mix (search-load-mix.ts), stopping at the first step
 *    over the p99 target (--p99-target ms) or with an error; capacity is the step with the most
 *    requests/s among those within the target. --connections N skips the ramp.
 * 4. Holds that connection count for --duration s (60) and prints requests/s, latency, errors,
 *    the pages the crawl fetched meanwhile, the server's RSS and how many requests took the server
 *    itself over 1 s (its request-time histogram: the client's latencies include time the client
 *    waited for a CPU it shares with the server). Exits 1 when any request of the hold failed,
 *    answered non-2xx or took the server over 1 s, or when the crawl was not running throughout.
 *
 * Everything stays on loopback. Progress goes to stderr, the figures to stdout. The crawl is
 * cancelled, both children stopped and the data directory removed at the end, also on SIGINT.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BatchIndexer } from '../src/search/indexing.js';
import { SearchIndex } from '../src/search/local-index.js';
import { searchIndexFile } from '../src/config/index.js';
import { DEFAULT_CONCURRENCY } from '../src/domain/index.js';
import { corpusDocument } from './search-corpus.js';
import { LOAD_MIX } from './search-load-mix.js';
import { type KumoServe, type LoadSite, startKumoServe, startLoadSite } from './search-load-processes.js';
import { count, GOALS, type Goal, mb, SearchBenchReport } from './search-report.js';
import { BENCH_SEARCH_CONFIG } from './search-site-map.js';
import { serverLatencyCounts, slowerThanBound } from './server-latency.js';

const USAGE =
  'usage: npm run load:search [-- [--duration S] [--connections N] [--ramp 1,2,4,8,16] [--step-seconds S]\n' +
  '                               [--p99-target MS] [--docs N] [--page-delay MS] [--site-pages N]]\n';

interface LoadOptions {
  duration: number;
  connections: number | undefined;
  ramp: number[];
  stepSeconds: number;
  p99Target: number;
  docs: number;
  pageDelay: number;
  sitePages: number | undefined;
}

const WARMUP_SECONDS = 5;
/**
 * A request the server took longer than this to answer counts as slow: the bound the service
 * keeps while a crawl runs (no crawl work runs on the API thread; docs/design/crawl.md, Crawl
 * threads). It must be a bucket bound of kumo_http_request_duration_seconds.
 */
const SLOW_REQUEST_SECONDS = 1;
const WARMUP_CONNECTIONS = 4;
const PROGRESS_EVERY_MS = 5000;
const BATCH = 500;

function wholeNumber(raw: string | undefined, name: string, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`--${name}: expected a whole number >= ${min}`);
  return Number(raw);
}

function loadOptions(args: string[]): LoadOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      ramp: { type: 'string' },
      'step-seconds': { type: 'string' },
      'p99-target': { type: 'string' },
      docs: { type: 'string' },
      'page-delay': { type: 'string' },
      'site-pages': { type: 'string' },
    },
  });
  const ramp = (values.ramp ?? '1,2,4,8,16').split(',').map((step) => wholeNumber(step.trim(), 'ramp', 0));
  return {
    duration: wholeNumber(values.duration, 'duration', 60),
    connections:
      values.connections === undefined ? undefined : wholeNumber(values.connections, 'connections', 0),
    ramp,
    stepSeconds: wholeNumber(values['step-seconds'], 'step-seconds', 10),
    p99Target: wholeNumber(values['p99-target'], 'p99-target', 100),
    docs: wholeNumber(values.docs, 'docs', 20_000),
    pageDelay: wholeNumber(values['page-delay'], 'page-delay', 100, 0),
    sitePages:
      values['site-pages'] === undefined ? undefined : wholeNumber(values['site-pages'], 'site-pages', 0, 2),
  };
}

let options: LoadOptions;
try {
  options = loadOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

/**
 * Pages enough for the crawl to outlast warm-up, ramp and hold with a minute to spare even at
 * 1.5 times the rate the site's delay allows at the default concurrency (the crawl is cancelled
 * at the end, so the size costs nothing but the frontier).
 */
function sitePages(): number {
  if (options.sitePages !== undefined) return options.sitePages;
  const rampSeconds = options.connections === undefined ? options.ramp.length * options.stepSeconds : 0;
  const seconds = WARMUP_SECONDS + rampSeconds + options.duration + 60;
  const perSecond = (DEFAULT_CONCURRENCY * 1000) / Math.max(options.pageDelay, 10);
  return Math.max(5000, Math.ceil((seconds * perSecond * 1.5) / 1000) * 1000);
}

// ---------------------------------------------------------------- interruption and cleanup

class Interrupted extends Error {}

let interrupted: NodeJS.Signals | undefined;
let running: autocannon.Instance | undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-search-load-'));
let serve: KumoServe | undefined;
let site: LoadSite | undefined;
let crawlId: number | undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted !== undefined) {
      // A second signal: no more waiting (the children go with their parent or on their own signal).
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    }
    interrupted = signal;
    process.stderr.write(
      `\n${signal}: stopping the load, the crawl and the server (again to exit at once)\n`,
    );
    running?.stop();
  });
}

function checkInterrupted(): void {
  if (interrupted !== undefined) throw new Interrupted();
}

async function cleanUp(): Promise<void> {
  if (serve !== undefined && crawlId !== undefined) {
    // The crawl would otherwise drain at the stop; a server told to stop by the signal answers 503.
    await serve.cancelCrawl(crawlId).catch(() => undefined);
  }
  await serve?.stop();
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- load runs

interface StepFigures {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latency: autocannon.Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** The server's memory, sampled every second while a run goes on. */
interface Watch {
  rssPeak: number;
}

/** One autocannon run over the mix, with a progress line on stderr every PROGRESS_EVERY_MS. */
async function load(
  label: string,
  connections: number,
  seconds: number,
  watch: Watch = { rssPeak: 0 },
): Promise<StepFigures> {
  const server = serve!;
  let responses = 0;
  let failed = 0;
  let non2xx = 0;
  let lastResponses = 0;
  const started = performance.now();
  const sampleRss = () => (watch.rssPeak = Math.max(watch.rssPeak, server.rss() ?? 0));
  const rssTimer = setInterval(sampleRss, 1000);
  const progressTimer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    const rate = (responses - lastResponses) / (PROGRESS_EVERY_MS / 1000);
    lastResponses = responses;
    void server.crawlProgress(crawlId!).then(
      (crawl) => {
        process.stderr.write(
          `  ${label} ${elapsed.toFixed(0).padStart(3)} s: ${count(responses)} responses (${rate.toFixed(0)}/s), ` +
            `${failed} errors, ${non2xx} non-2xx; crawl ${crawl.state}, ${count(crawl.crawled)} pages; ` +
            `server RSS ${mb(server.rss() ?? 0)}\n`,
        );
      },
      (error: unknown) =>
        process.stderr.write(`  ${label}: crawl status failed: ${(error as Error).message}\n`),
    );
  }, PROGRESS_EVERY_MS);
  try {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      running = autocannon(
        {
          url: server.url,
          connections,
          duration: seconds,
          requests: LOAD_MIX.map((request) => ({ method: 'GET', path: request.path })),
        },
        (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
      );
      running.on('response', (_client, statusCode) => {
        responses += 1;
        if (statusCode < 200 || statusCode > 299) non2xx += 1;
      });
      running.on('reqError', () => (failed += 1));
    });
    sampleRss();
    return {
      connections,
      seconds: result.duration,
      requests: result.requests.total,
      requestsPerSecond: result.requests.total / result.duration,
      latency: result.latency,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
    };
  } finally {
    running = undefined;
    clearInterval(rssTimer);
    clearInterval(progressTimer);
  }
}

const withinTarget = (step: StepFigures) =>
  step.errors === 0 && step.non2xx === 0 && step.latency.p99 <= options.p99Target;

function stepRow(step: StepFigures | undefined, ...cells: string[]): string {
  const values = step
    ? [
        String(step.connections),
        step.requestsPerSecond.toFixed(1),
        `${step.latency.p50} ms`,
        `${step.latency.p99} ms`,
        String(step.errors),
        String(step.non2xx),
      ]
    : cells;
  const widths = [13, 10, 9, 9, 8, 9];
  const row = values.map((value, at) => value.padStart(widths[at]!)).join('');
  return step ? `${row}   ${withinTarget(step) ? 'within target' : 'over target'}` : row;
}

// ---------------------------------------------------------------- the run

const report = new SearchBenchReport();
const p99Goal: Goal = { text: `<= ${options.p99Target} ms`, met: (ms) => ms <= options.p99Target };

async function main(): Promise<number> {
  const startedAt = performance.now();
  const pages = sitePages();
  process.stdout.write(
    `load:search  ${count(options.docs)} documents; ${LOAD_MIX.length} search URLs; ` +
      `crawl of ${count(pages)} pages at ${options.pageDelay} ms each, concurrency ${DEFAULT_CONCURRENCY}; ` +
      (options.connections === undefined
        ? `ramp ${options.ramp.join(', ')} connections x ${options.stepSeconds} s (p99 target ${options.p99Target} ms); `
        : '') +
      `hold ${options.duration} s; all on 127.0.0.1\n`,
  );

  // The corpus into search service 1's index, as `kumo index` writes it, before the server opens it.
  const indexFile = searchIndexFile(dataDir, 1);
  mkdirSync(path.dirname(indexFile), { recursive: true });
  const index = new SearchIndex(indexFile);
  const indexStarted = performance.now();
  const indexer = new BatchIndexer(
    index.writer.forFeed('bench:corpus'),
    (totals) => {
      const done = totals.added + totals.updated + totals.unchanged;
      if (done % 5000 === 0 || done === options.docs) {
        process.stderr.write(`  indexed ${count(done)} / ${count(options.docs)} documents\n`);
      }
    },
    { batchSize: BATCH },
  );
  try {
    for (let at = 0; at < options.docs; at += 1) {
      await indexer.add(corpusDocument(at));
      if (at % BATCH === 0) checkInterrupted();
    }
    await indexer.finish();
  } finally {
    index.close();
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;

  site = await startLoadSite({ pages, linksPerPage: 20, pageBytes: 10_000, delayMs: options.pageDelay });
  serve = await startKumoServe(dataDir);
  checkInterrupted();
  await serve.configureSearchService(BENCH_SEARCH_CONFIG);
  process.stderr.write(`  kumo serve on ${serve.url} (pid ${serve.pid}), fixture site on ${site.baseUrl}\n`);

  // Every URL of the mix answers 200 with a result before any load (this also opens the index).
  const firstStarted = performance.now();
  let firstMs = 0;
  for (const request of LOAD_MIX) {
    const { status, body } = await serve.get(request.path);
    const hits = (body as { organic?: { hits?: number } }).organic?.hits;
    if (status !== 200 || hits === undefined) {
      throw new Error(`${request.path} answered ${status}: ${JSON.stringify(body)}`);
    }
    if (firstMs === 0) firstMs = performance.now() - firstStarted;
  }

  crawlId = await serve.requestCrawl({ seed_urls: [`${site.baseUrl}/`] });
  const deadline = Date.now() + 60_000;
  let crawl = await serve.crawlProgress(crawlId);
  while (crawl.crawled === 0) {
    checkInterrupted();
    if (!crawl.active) throw new Error(`the crawl ended before it fetched a page (${crawl.state})`);
    if (Date.now() > deadline) throw new Error('the crawl did not fetch a page within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
    crawl = await serve.crawlProgress(crawlId);
  }
  process.stderr.write(`  crawl request ${crawlId} running\n`);

  await load('warm-up', WARMUP_CONNECTIONS, WARMUP_SECONDS);
  checkInterrupted();

  report.heading('Setup');
  report.line('corpus', `${count(options.docs)} documents indexed in ${indexSeconds.toFixed(1)} s`);
  report.line('first search', `${firstMs.toFixed(0)} ms (opens the index, builds facets)`);
  report.line('search mix', `${LOAD_MIX.length} URLs: English and Japanese queries, paging, sorting, facets`);
  report.line(
    'crawl',
    `instant crawl of ${site.baseUrl}/ (${count(pages)} pages, ${options.pageDelay} ms each)`,
  );

  let connections = options.connections;
  const steps: StepFigures[] = [];
  if (connections === undefined) {
    report.heading(
      `Capacity ramp (${options.stepSeconds} s per step while the crawl runs; target p99 <= ${options.p99Target} ms, no errors)`,
    );
    process.stdout.write(
      `${stepRow(undefined, 'connections', 'req/s', 'p50', 'p99', 'errors', 'non-2xx')}\n`,
    );
    for (const stepConnections of options.ramp) {
      const step = await load(`ramp ${stepConnections}c`, stepConnections, options.stepSeconds);
      checkInterrupted();
      steps.push(step);
      process.stdout.write(`${stepRow(step)}\n`);
      if (!withinTarget(step)) break;
    }
    const best = steps
      .filter(withinTarget)
      .reduce<StepFigures | undefined>(
        (top, step) => (top && top.requestsPerSecond >= step.requestsPerSecond ? top : step),
        undefined,
      );
    connections = best?.connections ?? 1;
    report.line(
      'capacity',
      best
        ? `${best.requestsPerSecond.toFixed(1)} requests/s at ${best.connections} connections`
        : 'no step met the target: holding at 1 connection',
    );
  }

  const watch: Watch = { rssPeak: 0 };
  const rssBefore = serve.rss() ?? 0;
  const crawlBefore = await serve.crawlProgress(crawlId);
  const serverBefore = serverLatencyCounts(await serve.metricsText(), SLOW_REQUEST_SECONDS);
  const holdStarted = performance.now();
  const hold = await load('hold', connections, options.duration, watch);
  const holdSeconds = (performance.now() - holdStarted) / 1000;
  checkInterrupted();
  const crawlAfter = await serve.crawlProgress(crawlId);
  const server = slowerThanBound(
    serverBefore,
    serverLatencyCounts(await serve.metricsText(), SLOW_REQUEST_SECONDS),
  );
  const rssAfter = serve.rss() ?? 0;

  report.heading(
    `Hold (${connections} connections for ${options.duration} s while the crawl runs, ` +
      `${options.connections === undefined ? 'the capacity found by the ramp' : 'set by --connections'})`,
  );
  report.line(
    'requests/s',
    `${hold.requestsPerSecond.toFixed(1)} (${count(hold.requests)} in ${hold.seconds.toFixed(1)} s)`,
  );
  report.line('latency p50', `${hold.latency.p50} ms`);
  report.line('latency p97.5', `${hold.latency.p97_5} ms`);
  report.line('latency p99', `${hold.latency.p99} ms`, { goal: p99Goal, value: hold.latency.p99 });
  report.line('latency max', `${hold.latency.max} ms (as the load client saw it)`);
  report.line(
    `server time > ${SLOW_REQUEST_SECONDS} s (histogram)`,
    `${count(server.slower)} of ${count(server.requests)} requests`,
    { goal: GOALS.non2xx, value: server.slower },
  );
  report.line('errors', count(hold.errors), { goal: GOALS.non2xx, value: hold.errors });
  report.line('non-2xx responses', count(hold.non2xx), { goal: GOALS.non2xx, value: hold.non2xx });
  report.line('timeouts', count(hold.timeouts));
  const crawled = crawlAfter.crawled - crawlBefore.crawled;
  report.line(
    'crawl during the hold',
    `${count(crawled)} pages (${(crawled / holdSeconds).toFixed(1)} pages/s); ` +
      `${crawlAfter.active ? 'still running' : `ENDED (${crawlAfter.state})`} at ${count(crawlAfter.crawled)} pages, ` +
      `${count(crawlAfter.total - crawlAfter.crawled)} queued`,
  );
  if (rssAfter > 0 || watch.rssPeak > 0) {
    report.line(
      'server RSS',
      `${mb(rssBefore)} before, ${mb(rssAfter)} after, peak ${mb(watch.rssPeak)} (kumo serve process)`,
    );
  }

  const failures: string[] = [];
  if (hold.errors > 0 || hold.non2xx > 0)
    failures.push(`${hold.errors} errors, ${hold.non2xx} non-2xx responses`);
  if (!crawlAfter.active) failures.push(`the crawl ended during the hold (${crawlAfter.state})`);
  if (server.slower > 0)
    failures.push(`${server.slower} requests took the server over ${SLOW_REQUEST_SECONDS} s`);
  report.heading(
    failures.length === 0
      ? 'PASS: no error or slow responses during the hold'
      : `FAIL: ${failures.join('; ')}`,
  );
  report.line('run time', `${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return failures.length === 0 ? 0 : 1;
}

let exitCode: number;
try {
  exitCode = await main();
} catch (error) {
  if (error instanceof Interrupted) exitCode = interrupted === 'SIGTERM' ? 143 : 130;
  else {
    process.stderr.write(`load:search: ${(error as Error).stack ?? String(error)}\n`);
    exitCode = 1;
  }
} finally {
  process.stderr.write('  cleaning up: cancelling the crawl, stopping kumo serve and the site\n');
  await cleanUp();
}
process.exit(exitCode);
