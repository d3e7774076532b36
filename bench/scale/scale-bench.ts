/**
 * `npm run bench:scale`: Kumo on large sites, measured as a user runs it (docs/scaling.md, Large
 * sites). For each corpus, `kumo crawl` fetches every page it reaches; the report gives its rate
 * over the whole crawl and over the first and last 10,000 pages (the last tenth against the first
 * on a site under 20,000 pages), its peak RSS and its RSS along the way, and the time and peak
 * RSS of what follows the last fetch (the run's report and artifacts). Then `kumo index` loads the
 * crawl's bundle into a search service of a fresh data directory (scale-index.ts): its time,
 * pages per second and peak RSS, and the index file's bytes per page; and Groonga loads the
 * same text (scale-groonga.ts) for its time, peak RSS and bytes per page beside them. Last,
 * `kumo serve` on that data directory answers the corpus's queries (scale-search.ts): time to
 * start, the first search (which opens the index), p50/p99 at 1 and 16 connections for
 * BENCH_SCALE_SEARCH_SECONDS (20) each, and the search process's RSS after the load.
 * Then, unless left out of `--corpus`, `services`: many small search services served by one
 * `kumo serve` (scale-services.ts): BENCH_SCALE_SERVICES (1,000) of BENCH_SCALE_SERVICE_PAGES
 * (100) generated pages, with BENCH_SCALE_OPEN_SERVICES (256) open at most, then every one open.
 * `--crawl-only` leaves the indexing and searching out; without it, the bench exits 2 at once when `groonga` is
 * missing (Debian's groonga-bin).
 *
 * Corpora (`-- --corpus <name>[,<name>...]`, default every one found on this machine):
 * - `generated`: the bench's generated site (bench-site-pages.ts) of BENCH_SCALE_PAGES pages
 *   (1,000,000), BENCH_LINKS links (50) and BENCH_PAGE_BYTES bytes (15,000) each;
 * - `rust-doc`, `openjdk-doc`: Debian's rust-doc and openjdk-17-doc served from their folders.
 * BENCH_CONCURRENCY (16) is the crawl's concurrency.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchSite, startBenchSite, startFolderSite } from '../bench-site.js';
import { megabytes } from '../bench-report.js';
import { runs } from '../engines/prerequisites.js';
import { RunResources } from '../engines/run-resources.js';
import { rateBetween, rssUpTo, scaleCrawl, type ScaleCrawlResult } from './scale-crawl.js';
import { scaleGroonga, type ScaleGroongaResult } from './scale-groonga.js';
import { scaleIndex, type ScaleIndexResult } from './scale-index.js';
import { SCALE_QUERIES } from './scale-queries.js';
import { scaleSearch, type ScaleSearchResult } from './scale-search.js';
import { prepareServices, scaleServices, type ScaleServicesResult } from './scale-services.js';

interface Corpus {
  name: string;
  describe: string;
  start(): Promise<{ site: BenchSite; seed: string }>;
}

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const value = Number.parseInt(raw, 10);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name}: expected a positive integer, got ${raw}`);
  return value;
}

const pages = envInt('BENCH_SCALE_PAGES', 1_000_000);
const linksPerPage = envInt('BENCH_LINKS', 50);
const pageBytes = envInt('BENCH_PAGE_BYTES', 15_000);
const concurrency = envInt('BENCH_CONCURRENCY', 16);
const searchSeconds = envInt('BENCH_SCALE_SEARCH_SECONDS', 20);
const serviceCount = envInt('BENCH_SCALE_SERVICES', 1000);
const servicePages = envInt('BENCH_SCALE_SERVICE_PAGES', 100);
const openServices = envInt('BENCH_SCALE_OPEN_SERVICES', 256);
/** The part of the bench that is no corpus: many small services on one node. */
const SERVICES_PART = 'services';

/** A Debian documentation package's folder, when installed, served from `start`. */
function folderCorpus(name: string, folder: string, start: string, describe: string): Corpus | undefined {
  if (!existsSync(`${folder}${start}`)) return undefined;
  return {
    name,
    describe: `${describe} (${folder}${start})`,
    start: async () => {
      const site = await startFolderSite(folder);
      return { site, seed: `${site.baseUrl}${start}` };
    },
  };
}

const CORPORA: Corpus[] = [
  {
    name: 'generated',
    describe: `generated site: ${pages} pages of ~${pageBytes} bytes, ${linksPerPage} links each`,
    start: async () => {
      const site = await startBenchSite({ pages, linksPerPage, pageBytes });
      return { site, seed: `${site.baseUrl}/` };
    },
  },
  folderCorpus('rust-doc', '/usr/share/doc/rust-doc/html', '/index.html', "Debian's rust-doc"),
  folderCorpus(
    'openjdk-doc',
    '/usr/share/doc/openjdk-17-doc/api',
    '/index.html',
    "Debian's openjdk-17-doc API pages",
  ),
].filter((corpus): corpus is Corpus => corpus !== undefined);

const { values } = parseArgs({
  options: { corpus: { type: 'string' }, 'crawl-only': { type: 'boolean', default: false } },
  strict: true,
});
const known = [...CORPORA.map((corpus) => corpus.name), SERVICES_PART];
const wanted = values.corpus?.split(',') ?? known;
for (const name of wanted) {
  if (!known.includes(name)) throw new Error(`--corpus: ${name} is not one of ${known.join(', ')} here`);
}

if (!values['crawl-only'] && !runs('groonga', ['--version'])) {
  process.stderr.write(
    'bench:scale loads each corpus into Groonga beside kumo index; missing: groonga-bin\n' +
      '  install: sudo apt-get install groonga-bin (or run with --crawl-only)\n',
  );
  process.exit(2);
}

const resources = new RunResources();
resources.releaseOnSignals();
process.stdout.write(
  `bench:scale  crawl, concurrency ${concurrency}${values['crawl-only'] ? '' : '; kumo index; Groonga load'}\n`,
);
try {
  for (const corpus of CORPORA.filter((candidate) => wanted.includes(candidate.name))) {
    process.stdout.write(`\n${corpus.name}: ${corpus.describe}\n`);
    const out = resources.tempFolder('kumo-scale-crawl-');
    const { site, seed } = await corpus.start();
    let result: ScaleCrawlResult;
    try {
      result = await scaleCrawl({ site, seed, limit: Math.max(pages, 1_000_000), concurrency, out });
    } finally {
      await site.close();
    }
    printCrawl(result);
    if (values['crawl-only'] || result.exitCode !== 0) continue;
    const dataDir = path.join(resources.tempFolder('kumo-scale-index-'), 'data');
    const indexed = await scaleIndex(out, dataDir);
    if (indexed.exitCode !== 0) {
      line('kumo index', `exit code ${String(indexed.exitCode)}: ${indexed.lastLines.join(' / ')}`);
      continue;
    }
    const groonga = await scaleGroonga(
      indexed.indexFile,
      resources.tempFolder('kumo-scale-groonga-'),
      resources,
    );
    printIndexing(indexed, groonga);
    const queries = SCALE_QUERIES[corpus.name] ?? [];
    printSearch(await scaleSearch(dataDir, indexed.service, queries, searchSeconds, resources), queries);
  }
  if (!values['crawl-only'] && wanted.includes(SERVICES_PART)) {
    process.stdout.write(
      `\n${SERVICES_PART}: ${serviceCount} search services of ${servicePages} generated pages, one kumo serve\n`,
    );
    const dataDir = path.join(resources.tempFolder('kumo-scale-services-'), 'data');
    const started = performance.now();
    const services = await prepareServices(dataDir, serviceCount, servicePages, (done) =>
      process.stderr.write(`  ${done} services written\n`),
    );
    line('services written', `${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const maxOpen of [openServices, serviceCount])
      printServices(await scaleServices(dataDir, services, maxOpen, searchSeconds, resources));
  }
} finally {
  await resources.release();
}

function line(label: string, value: string): void {
  process.stdout.write(`  ${label.padEnd(26)}${value}\n`);
}

function printCrawl(result: ScaleCrawlResult): void {
  const { samples, served } = result;
  line('exit code', String(result.exitCode));
  line('requests answered', String(served));
  line('crawl', `${result.crawlSeconds.toFixed(1)} s, ${(served / result.crawlSeconds).toFixed(0)} pages/s`);
  const window = served >= 20_000 ? 10_000 : Math.floor(served / 10);
  if (window > 0) {
    const first = rateBetween(samples, 0, window);
    const last = rateBetween(samples, served - window, served);
    line(`first ${window} pages`, `${first.toFixed(0)} pages/s`);
    line(
      `last ${window} pages`,
      `${last.toFixed(0)} pages/s (${((last / first) * 100).toFixed(0)}% of the first)`,
    );
  }
  line('peak RSS', megabytes(result.peakRss));
  const marks = [0.1, 0.25, 0.5, 0.75, 1].map(
    (share) => `${share * 100}% ${megabytes(rssUpTo(samples, share * served), 0)}`,
  );
  line('peak RSS up to', marks.join(', '));
  line(
    'after the last fetch',
    `${(result.totalSeconds - result.crawlSeconds).toFixed(1)} s, peak RSS ${megabytes(result.endPhasePeakRss)}`,
  );
  for (const text of result.lastLines) line('kumo crawl said', text);
}

/**
 * `kumo index` beside Groonga's two loads: pages per second, peak RSS, and bytes per page of the
 * whole index file (the pages' stored text included, as Groonga's table holds it) and of its parts.
 */
function printIndexing(indexed: ScaleIndexResult, groonga: ScaleGroongaResult): void {
  const perPage = (bytes: number) => `${(bytes / Math.max(1, indexed.pages) / 1024).toFixed(1)} KB/page`;
  const rate = (seconds: number) => `${(indexed.pages / seconds).toFixed(0)} pages/s`;
  const { size } = indexed;
  line('kumo index', `${indexed.pages} pages in ${indexed.seconds.toFixed(1)} s, ${rate(indexed.seconds)}`);
  line('  peak RSS', megabytes(indexed.peakRss));
  const indexBytes = size.fileBytes + size.walBytes;
  line(
    '  index file',
    `${megabytes(indexBytes)}, ${perPage(indexBytes)} (free pages ${megabytes(size.freeBytes)})`,
  );
  for (const { name, bytes } of size.objects.slice(0, 5))
    line(`    ${name}`, `${megabytes(bytes)}, ${perPage(bytes)}`);
  line('groonga, indexed table', `${groonga.online.seconds.toFixed(1)} s, ${rate(groonga.online.seconds)}`);
  line('  peak RSS', megabytes(groonga.online.peakRss));
  line('  database', `${megabytes(groonga.online.bytes)}, ${perPage(groonga.online.bytes)}`);
  line(
    'groonga, load then index',
    `${groonga.offline.seconds.toFixed(1)} s, ${rate(groonga.offline.seconds)}`,
  );
  line('  peak RSS', megabytes(groonga.offline.peakRss));
  line('  database', `${megabytes(groonga.offline.bytes)}, ${perPage(groonga.offline.bytes)}`);
  line('  load command', `${megabytes(groonga.loadBytes)} for ${groonga.rows} pages`);
}

/** `kumo serve` on the index: start, first search, latency at 1 and 16 connections, RSS after. */
function printSearch(result: ScaleSearchResult, queries: readonly string[]): void {
  line('kumo serve', `up in ${result.startMs.toFixed(0)} ms`);
  line('  first search', `${result.firstSearchMs.toFixed(1)} ms (opens the index)`);
  const withHits = result.hits.filter((hits) => hits > 0).length;
  line('  queries', `${queries.length}, ${withHits} with hits, full answers (10 a page, snippets, facets)`);
  for (const load of result.loads)
    line(
      `  ${load.connections} connection${load.connections === 1 ? '' : 's'}`,
      `p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, ${load.requestsPerSecond.toFixed(0)} searches/s` +
        (load.non2xx + load.errors > 0 ? `, ${load.non2xx} non-2xx, ${load.errors} errors` : ''),
    );
  line('  RSS after the load', `${megabytes(result.rss)} (peak ${megabytes(result.peakRss)})`);
}

/** One `kumo serve` of the many services: first searches, the load, and what the process held. */
function printServices(result: ScaleServicesResult): void {
  const held = (holding: ScaleServicesResult['afterLoad']) =>
    `RSS ${megabytes(holding.rss)} (peak ${megabytes(holding.peakRss)}), ${holding.openFiles} open files, ` +
    `${holding.indexFiles} of index files`;
  line('KUMO_SEARCH_OPEN_SERVICES', String(result.maxOpen));
  const { p50, p99, max } = result.firstSearches;
  line(
    '  first searches',
    `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms (each opens its service)`,
  );
  line('  after them', held(result.afterFirst));
  const { load } = result;
  line(
    '  16 connections',
    `p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, ${load.requestsPerSecond.toFixed(0)} searches/s` +
      (load.non2xx + load.errors > 0 ? `, ${load.non2xx} non-2xx, ${load.errors} errors` : ''),
  );
  line('  after the load', held(result.afterLoad));
}
