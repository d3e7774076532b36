/**
 * `npm run bench:search`: builds the index of a generated corpus (search-corpus.ts) through
 * BatchIndexer (as kumo index) in batches of 500, then measures, in process, the site search as the API
 * runs it (SiteSearch: facets, highlights, did-you-mean) over a fixed query mix and suggest over
 * a fixed prefix mix, and finally the search API over HTTP with autocannon.
 *
 * Then it reopens the index as after a restart and measures the suggester's build in the
 * background and suggest while an update is written (suggest-build-bench.ts).
 *
 * Knobs: BENCH_DOCS (50000), BENCH_ROUNDS (30, at least 20 are sensible), BENCH_UPDATED_DOCS
 * (2000, pages changed by that update), BENCH_HTTP_SECONDS (10;
 * 0 skips HTTP), BENCH_HTTP_SERVER (child | inprocess), BENCH_CPU_PROFILE (a directory: one
 * .cpuprofile per phase of this process, and http-server.cpuprofile of the child server).
 * Progress goes to stderr, the report to stdout.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BatchIndexer } from '../src/search/indexing.js';
import { SearchIndex } from '../src/search/local-index.js';
import { SearchActivity, SiteSearch } from '../src/search/site/index.js';
import type { SiteSearchResult } from '../src/search/index.js';
import { searchIndexFile } from '../src/config/index.js';
import { systemClock } from '../src/util/index.js';
import { indexFileSize } from './index-file-size.js';
import { summarize, timed, timedAsync } from './latency-stats.js';
import { PhaseProfiler } from './phase-profiler.js';
import { corpusDocument } from './search-corpus.js';
import { measureHttp, type ServerMode } from './search-http.js';
import { loggedQueries, QUERY_MIX, siteSearchRequest, SUGGEST_PREFIXES } from './search-queries.js';
import { count, GOALS, mb, ms, SearchBenchReport } from './search-report.js';
import { BENCH_SEARCH_CONFIG } from './search-site-map.js';
import { measureSuggestBuild } from './suggest-build-bench.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number.parseInt(raw, 10);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
}

const DOCS = envInt('BENCH_DOCS', 50_000);
const ROUNDS = Math.max(1, envInt('BENCH_ROUNDS', 30));
const HTTP_SECONDS = envInt('BENCH_HTTP_SECONDS', 10);
const SERVER_MODE: ServerMode = process.env.BENCH_HTTP_SERVER === 'inprocess' ? 'inprocess' : 'child';
const BATCH = 500;
/** The engine's code reaches its optimized form after some 40 searches of a kind. */
const WARMUP_ROUNDS = 10;
const SUGGEST_ROUNDS = ROUNDS * 10;
const LOGGED_QUERIES = 2000;
/** Pages changed by the update written while suggest is measured after a restart. */
const UPDATED_DOCS = envInt('BENCH_UPDATED_DOCS', 2000);

const startedAt = performance.now();
const PROFILE_DIRECTORY = process.env.BENCH_CPU_PROFILE
  ? path.resolve(process.env.BENCH_CPU_PROFILE)
  : undefined;
const profiler = new PhaseProfiler(PROFILE_DIRECTORY);
const report = new SearchBenchReport();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kumo-search-bench-'));
const indexFile = searchIndexFile(dataDir, 1);
mkdirSync(path.dirname(indexFile), { recursive: true });

try {
  process.stdout.write(
    `bench:search  ${count(DOCS)} documents; ${QUERY_MIX.length} queries x ${ROUNDS} rounds ` +
      `(after ${WARMUP_ROUNDS} warm-up rounds); ` +
      `suggest ${SUGGEST_PREFIXES.length} prefixes x ${SUGGEST_ROUNDS} rounds; HTTP ${HTTP_SECONDS} s at 4 connections (server: ${SERVER_MODE})\n`,
  );

  // Indexing as `kumo index` does it (BatchIndexer: analysis in a worker thread while the
  // previous batch is written). The documents are generated first: that is not the engine's work.
  const indexing = await profiled('indexing', async () => {
    const generated = timed(() => Array.from({ length: DOCS }, (_, i) => corpusDocument(i)));
    let textBytes = 0;
    for (const document of generated.value) {
      textBytes += Buffer.byteLength(document.title) + Buffer.byteLength(document.headings ?? '');
      textBytes += Buffer.byteLength(document.description) + Buffer.byteLength(document.body);
    }
    const index = new SearchIndex(indexFile);
    const started = performance.now();
    const indexer = new BatchIndexer(
      index.writer.forFeed('bench:corpus'),
      (totals) => {
        const done = totals.added + totals.updated + totals.unchanged;
        if (done % 5000 === 0 || done === DOCS) {
          const rate = Math.round(done / ((performance.now() - started) / 1000));
          process.stderr.write(`  indexed ${count(done)} / ${count(DOCS)}  (${count(rate)} docs/s)\n`);
        }
      },
      { batchSize: BATCH },
    );
    for (const document of generated.value) await indexer.add(document);
    await indexer.finish();
    const indexMs = performance.now() - started;
    const segments = index.searcher().snapshot.segments.length;
    const size = indexFileSize(indexFile);
    index.close();
    return { indexMs, generationMs: generated.ms, textBytes, segments, size };
  });
  const { fileBytes, walBytes, freeBytes, objects } = indexing.size;
  const docsPerSecond = DOCS / (indexing.indexMs / 1000);
  report.heading('Indexing (BatchIndexer as kumo index: batches of 500, analysis in a worker thread)');
  report.line(
    'documents',
    `${count(DOCS)}, ${(indexing.textBytes / DOCS / 1024).toFixed(2)} KB of text each (UTF-8)`,
  );
  report.line('indexing', `${count(Math.round(docsPerSecond))} docs/s`, {
    goal: GOALS.indexing,
    value: docsPerSecond,
  });
  report.line(
    '  time',
    `${(indexing.indexMs / 1000).toFixed(1)} s (generating the documents before: ${(indexing.generationMs / 1000).toFixed(1)} s)`,
  );
  report.line('index size', `${mb(fileBytes + walBytes)} (file ${mb(fileBytes)} + wal ${mb(walBytes)})`);
  report.line('  free pages', `${mb(freeBytes)} (left by segment merges)`);
  for (const { name, bytes } of objects.slice(0, 3)) {
    report.line(`  ${name.replace('sqlite_autoindex_documents_1', 'url index')}`, mb(bytes));
  }
  report.line('segments', String(indexing.segments));

  // Search in process, as the API runs it: a fresh open, as after a restart of the service.
  const opened = timed(() => new SearchIndex(indexFile));
  const index = opened.value;
  const site = new SiteSearch(index, BENCH_SEARCH_CONFIG, new SearchActivity(index.store, systemClock));
  const first = await timedAsync(() => site.search(siteSearchRequest(QUERY_MIX[0]!)));
  const perQuery = QUERY_MIX.map(() => [] as number[]);
  const results: SiteSearchResult[] = [];
  await profiled('search', async () => {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
      for (const [at, query] of QUERY_MIX.entries()) {
        const { ms: took, value } = await timedAsync(() => site.search(siteSearchRequest(query)));
        if (round >= WARMUP_ROUNDS) perQuery[at]!.push(took);
        results[at] = value;
      }
    }
  });
  const overall = summarize(perQuery.flat());
  report.heading(`Search in process (SiteSearch.search: page of 10, facets, highlights, did-you-mean)`);
  report.line('index open', `${(opened.ms / 1000).toFixed(2)} s (reading ${indexing.segments} segments)`);
  report.line('first search', `${ms(first.ms)} (builds facets in the facet threads)`);
  report.line('search p50', ms(overall.p50), { goal: GOALS.searchP50, value: overall.p50 });
  report.line('search p99', ms(overall.p99), { goal: GOALS.searchP99, value: overall.p99 });
  report.line('search max', `${ms(overall.max)} (${count(overall.count)} searches)`);
  QUERY_MIX.forEach((query, at) => {
    const result = results[at]!;
    const { p50 } = summarize(perQuery[at]!);
    const text =
      query.drilldown !== undefined ? `${query.q} [${query.drilldown.replace('\t', '/')}]` : query.q;
    const extra =
      result.spellcheck.main_phrase !== '' ? `, did you mean "${result.spellcheck.main_phrase}"` : '';
    report.line(
      `  ${query.kind}`,
      `${ms(p50).padStart(9)}  ${text}: ${count(result.organic.hits)} hits${extra}`,
    );
  });

  // Suggest over a query log: the mix's queries plus visitors' queries drawn by word frequency.
  for (const query of loggedQueries(LOGGED_QUERIES)) site.activity.recordQuery(query, 1);
  await site.activity.flush();
  const built = await timedAsync(() => site.suggesterBuilt());
  const perPrefix = SUGGEST_PREFIXES.map(() => [] as number[]);
  const suggestions = await profiled('suggest', () =>
    SUGGEST_PREFIXES.map(({ prefix }, at) => {
      let words: string[] = [];
      for (let round = 0; round < SUGGEST_ROUNDS; round += 1) {
        const { ms: took, value } = timed(() => site.suggest(prefix, 10));
        perPrefix[at]!.push(took);
        words = value.map((suggestion) => suggestion.word);
      }
      return words;
    }),
  );
  const suggest = summarize(perPrefix.flat());
  report.heading(
    `Suggest in process (SiteSearch.suggest, 10 completions; ${count(LOGGED_QUERIES)} logged queries)`,
  );
  report.line('suggester build', `${ms(built.ms)} (in the background, after the logged queries came)`);
  report.line('suggest p50', ms(suggest.p50));
  report.line('suggest p99', ms(suggest.p99), { goal: GOALS.suggestP99, value: suggest.p99 });
  report.line('suggest max', `${ms(suggest.max)} (${count(suggest.count)} calls)`);
  SUGGEST_PREFIXES.forEach(({ kind, prefix }, at) => {
    const top = suggestions[at]!.slice(0, 3).join(', ');
    report.line(`  ${kind}`, `${ms(summarize(perPrefix[at]!).p50).padStart(9)}  "${prefix}" → ${top}`);
  });
  index.close();

  // Suggest after a restart: the first suggester is built in the background from the phrases
  // stored at indexing, then rebuilt while an update of changed pages is written.
  const update = Array.from({ length: Math.min(UPDATED_DOCS, DOCS) }, (_, i) => {
    const document = corpusDocument(i * Math.max(1, Math.floor(DOCS / UPDATED_DOCS)));
    return { ...document, title: `${document.title} revised`, body: `${document.body} Revised.` };
  });
  const build = await profiled('suggest-build', () => measureSuggestBuild(indexFile, update));
  report.heading(
    `Suggest after a restart (first suggester built in the background; ${count(update.length)} pages updated meanwhile)`,
  );
  report.line('index open', `${(build.openMs / 1000).toFixed(2)} s`);
  report.line('first full suggester', `${(build.firstSuggesterMs / 1000).toFixed(2)} s after the open`);
  report.line('longest event-loop stall', ms(build.longestStallMs), {
    goal: GOALS.suggestStall,
    value: build.longestStallMs,
  });
  report.line('RSS', mb(build.rssAfterBuildBytes));
  report.line(
    'suggest during update',
    `p50 ${ms(build.duringUpdate.p50)}, p99 ${ms(build.duringUpdate.p99)}, max ${ms(build.duringUpdate.max)} ` +
      `(${count(build.duringUpdate.count)} calls)`,
  );
  report.line(
    '  update',
    `${(build.updateMs / 1000).toFixed(1)} s; suggester rebuilt ${(build.rebuildAfterUpdateMs / 1000).toFixed(2)} s after it`,
  );
  report.line('  longest stall', `${ms(build.longestStallDuringUpdateMs)} (writes of the update included)`);
  report.line('  RSS', mb(build.rssAfterUpdateBytes));

  if (HTTP_SECONDS > 0) {
    const http = await profiled('http', () =>
      measureHttp(dataDir, QUERY_MIX, HTTP_SECONDS, SERVER_MODE, PROFILE_DIRECTORY),
    );
    const mismatched = QUERY_MIX.filter((query, at) => http.hits.get(query) !== results[at]!.organic.hits);
    report.heading(
      `Search over HTTP (GET .../search, autocannon, ${http.connections} connections, ` +
        `server ${http.mode === 'child' ? 'in a child process' : 'in this process'})`,
    );
    report.line('first request', `${ms(http.firstRequestMs)} (opens the index, builds facets)`);
    report.line(
      'requests/s',
      `${http.requestsPerSecond.toFixed(1)} (${count(http.requests)} in ${http.seconds.toFixed(1)} s)`,
    );
    report.line('latency p50', `${http.latencyP50} ms`);
    report.line('latency p99', `${http.latencyP99} ms`);
    report.line('latency max', `${http.latencyMax} ms`);
    report.line('non-2xx responses', count(http.non2xx), { goal: GOALS.non2xx, value: http.non2xx });
    report.line('errors', count(http.errors), { goal: GOALS.non2xx, value: http.errors });
    report.line(
      'hits as in process',
      mismatched.length === 0 ? 'yes, every query' : `NO: ${mismatched.map((query) => query.q).join(', ')}`,
    );
  }

  report.heading(report.summary());
  report.line('run time', `${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
} finally {
  profiler.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function profiled<T>(phase: string, run: () => Promise<T> | T): Promise<T> {
  return profiler.profiled(phase, run);
}
