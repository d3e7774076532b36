/**
 * The many-services part of `npm run bench:scale` (docs/scaling.md, Many services on one node):
 * BENCH_SCALE_SERVICES (1,000) search services of BENCH_SCALE_SERVICE_PAGES (100) generated pages
 * each, in one data directory, served by one `kumo serve`. Each service is searched once in
 * turn (its first search opens it), then services drawn in a seeded random order are searched
 * at 16 connections for BENCH_SCALE_SEARCH_SECONDS; after each, the process's RSS and the files
 * it holds open. It runs with the limit of open services as given (KUMO_SEARCH_OPEN_SERVICES,
 * 256 by default) and with every service open, to show what the limit holds back.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { searchIndexFile } from '../../src/config/index.js';
import { SearchIndex } from '../../src/search/local-index.js';
import { ensureDataDir, openRecordStore } from '../../src/startup/index.js';
import { systemClock } from '../../src/util/index.js';
import { random } from '../bench-site-pages.js';
import { type LoadFigures, runLoad } from '../engines/http-load.js';
import { processMemory } from '../engines/process-memory.js';
import type { RunResources } from '../engines/run-resources.js';
import { type CreatedService, prepareSearchService } from './scale-index.js';
import { searchPathOf, startKumoServe } from './scale-search.js';

const VOCABULARY = 20_000;
const WORDS_PER_PAGE = 200;

/** A service's pages and the word its query asks for. */
export interface PreparedService extends CreatedService {
  query: string;
}

/** What a process holds: its resident set and its open files, index files among them. */
export interface ProcessHolding {
  rss: number;
  peakRss: number;
  openFiles: number;
  /** Open descriptors of search index files (the file, its WAL, its shared memory). */
  indexFiles: number;
}

export interface ScaleServicesResult {
  maxOpen: number;
  /** Each service's first search, which opens it: p50, p99 and max in ms. */
  firstSearches: { p50: number; p99: number; max: number };
  afterFirst: ProcessHolding;
  load: LoadFigures;
  afterLoad: ProcessHolding;
}

/** A word of the generated vocabulary: letters only, so the analyzer keeps it one word. */
function wordOf(n: number): string {
  let word = '';
  let rest = n;
  do {
    word += 'etaoinshrdlucmfw'[rest % 16];
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return `${word}k`;
}

/**
 * `count` search services in a fresh data directory, each with `pagesEach` pages of generated
 * text written into its index file, with a word of its pages to search for.
 */
export async function prepareServices(
  dataDir: string,
  count: number,
  pagesEach: number,
  progress: (done: number) => void,
): Promise<PreparedService[]> {
  const first = await prepareSearchService(dataDir);
  const store = await openRecordStore(
    { databaseUrl: undefined, secretKey: undefined },
    ensureDataDir(dataDir),
  );
  const created: CreatedService[] = [first];
  try {
    const tenant = { contractId: first.contract, servicegroupId: first.group };
    for (let n = 1; n < count; n += 1) {
      const record = await store.searchServices.create(tenant, `bench ${n}`, {}, systemClock.nowMicros());
      created.push({ ...first, service: record.id });
    }
  } finally {
    await store.close();
  }
  const next = random(7);
  const prepared: PreparedService[] = [];
  for (const [n, service] of created.entries()) {
    const index = new SearchIndex(searchIndexFile(dataDir, service.service));
    try {
      const pages = Array.from({ length: pagesEach }, (_, page) => ({
        url: `https://site${service.service}.example/page/${page}.html`,
        title: `Page ${page} of site ${service.service}`,
        description: '',
        body: Array.from({ length: WORDS_PER_PAGE }, () => wordOf(Math.floor(next() ** 2 * VOCABULARY))).join(
          ' ',
        ),
      }));
      index.writer.upsert(pages, 'bundle:bench');
      // A word of the service's first page, so that every service's query finds something.
      prepared.push({ ...service, query: pages[0]!.body.split(' ')[n % WORDS_PER_PAGE]! });
    } finally {
      index.close();
    }
    if ((n + 1) % 100 === 0) progress(n + 1);
  }
  return prepared;
}

/** `kumo serve` on `dataDir` with at most `maxOpen` services open, searched as the module says. */
export async function scaleServices(
  dataDir: string,
  services: readonly PreparedService[],
  maxOpen: number,
  seconds: number,
  resources: RunResources,
): Promise<ScaleServicesResult> {
  const serve = await startKumoServe(dataDir, { KUMO_SEARCH_OPEN_SERVICES: String(maxOpen) }, resources);
  const { base, child } = serve;
  try {
    const paths = services.map((service) => searchPathOf(service, service.query));
    const firsts: number[] = [];
    for (const path of paths) {
      const started = performance.now();
      const response = await fetch(base + path);
      const body = (await response.json()) as { organic?: { hits: number } };
      if (response.status !== 200 || body.organic === undefined || body.organic.hits === 0)
        throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      firsts.push(performance.now() - started);
    }
    const afterFirst = holding(child.pid!);
    const draw = random(11);
    const drawn = Array.from({ length: paths.length * 4 }, () => paths[Math.floor(draw() * paths.length)]!);
    const load = await runLoad(base, drawn, 16, seconds);
    return {
      maxOpen,
      firstSearches: percentiles(firsts),
      afterFirst,
      load,
      afterLoad: holding(child.pid!),
    };
  } finally {
    await serve.stop();
  }
}

function holding(pid: number): ProcessHolding {
  const memory = processMemory(pid);
  if (memory === undefined) throw new Error('kumo serve exited during the bench');
  let openFiles = 0;
  let indexFiles = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    openFiles += 1;
    try {
      if (/\/search\/service-\d+\.db(?:-wal|-shm)?$/.test(readlinkSync(`/proc/${pid}/fd/${fd}`)))
        indexFiles += 1;
    } catch {
      // Closed since the listing.
    }
  }
  return { ...memory, openFiles, indexFiles };
}

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)! };
}
