/**
 * `npm run bench:engines`: Kumo's search beside two engines installed from Debian packages, on
 * the same pages and the same queries in one run: the PostgreSQL 15 manual and the Apache HTTP
 * Server manual in English and Japanese (engines-corpus.ts), asked the queries of their
 * judgments.
 *
 * - Indexing: Kumo as `kumo index` builds (kumo-engine.ts) beside Groonga's load (groonga-load.ts).
 * - Engine tail: Kumo's parse, match and top 10 (Searcher.top) beside Xapian's parse and
 *   get_mset (xapian-anchor.py), each timed inside its own process.
 * - HTTP: the real Kumo service in a child process, full answers (highlights, facets), beside
 *   Groonga's own HTTP server answering a select of the top 10 without snippets, one after the
 *   other, at 16 connections and at 1 (served-engine.ts).
 * - Memory: each server's RSS at idle and after the loads.
 *
 * Knobs: BENCH_SECONDS (10, each measured load), BENCH_WARMUP_SECONDS (2), BENCH_ROUNDS (20),
 * BENCH_WARMUP_ROUNDS (5), BENCH_QUERIES (200). Progress goes to stderr, the report to stdout.
 * Exit status 2 when a Debian package is missing, 1 when a measurement failed, 64 on a bad knob;
 * Ctrl-C stops the servers and removes the temporary files (130).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { searchIndexFile } from '../../src/config/index.js';
import { searchPath } from '../search-queries.js';
import {
  ENGINES_SEARCH_CONFIG,
  type EnginesCorpus,
  loadEnginesCorpus,
  locateCorpora,
} from './engines-corpus.js';
import { type EnginesOptions, enginesOptions } from './engines-options.js';
import { EnginesReport } from './engines-report.js';
import { printCorpus, printHttp, printIndexing, printMemory, printTail } from './engines-sections.js';
import { loadGroonga } from './groonga-load.js';
import { groongaHitsOf, groongaSelectPath } from './groonga-query.js';
import { startGroongaServer } from './groonga-server.js';
import { indexWithKumo, kumoTail } from './kumo-engine.js';
import { startKumoServer } from './kumo-server.js';
import { missingAnchorPackages, missingPackagesMessage } from './prerequisites.js';
import { RunResources } from './run-resources.js';
import { type LoadPlan, measureServed, type ServedFigures } from './served-engine.js';
import { runXapian } from './xapian-anchor.js';

/**
 * Groonga's server closes the connection after every answer, so it is loaded a connection per
 * request; Kumo is loaded that way too (the like-for-like figure), then kept alive with
 * autocannon, as browsers reach it.
 */
const GROONGA_PLANS: readonly LoadPlan[] = [
  { client: 'fresh', connections: 16 },
  { client: 'fresh', connections: 1 },
];
const KUMO_PLANS: readonly LoadPlan[] = [
  ...GROONGA_PLANS,
  { client: 'kept-alive', connections: 16 },
  { client: 'kept-alive', connections: 1 },
];

let options: EnginesOptions;
try {
  options = enginesOptions();
} catch (error) {
  process.stderr.write(`bench:engines: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(64);
}

const { located, missing: missingCorpora } = locateCorpora();
const missing = [...missingAnchorPackages(), ...missingCorpora];
if (missing.length > 0) {
  process.stderr.write(missingPackagesMessage(missing));
  process.exit(2);
}

const startedAt = performance.now();
const resources = new RunResources();
resources.releaseOnSignals();
const report = new EnginesReport();
try {
  await run(loadEnginesCorpus(located, options.queries));
  report.heading(report.summary());
  report.line('run time', `${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
} catch (error) {
  process.stderr.write(
    `bench:engines: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await resources.release();
}

async function run(corpus: EnginesCorpus): Promise<void> {
  const { documents, queries } = corpus;
  const texts = queries.map(({ text }) => text);
  printCorpus(report, corpus, options);

  // Kumo's index goes where the service of the HTTP part reads search service 1's.
  const dataDir = resources.tempFolder('kumo-engines-bench-');
  const indexFile = searchIndexFile(dataDir, 1);
  mkdirSync(path.dirname(indexFile), { recursive: true });
  process.stderr.write(`kumo: indexing ${documents.length} pages\n`);
  const kumoIndexing = await indexWithKumo(indexFile, documents);
  const groonga = await loadGroonga(resources.tempFolder('kumo-engines-groonga-'), documents, resources);

  const xapian = await runXapian(
    resources.tempFolder('kumo-engines-xapian-'),
    documents,
    texts,
    options.warmupRounds,
    options.rounds,
    resources,
  );
  process.stderr.write(
    `kumo: ${texts.length} queries x ${options.rounds} rounds after ${options.warmupRounds} warm-up rounds\n`,
  );
  const kumo = kumoTail(indexFile, texts, options.warmupRounds, options.rounds);
  printIndexing(report, {
    documents: documents.length,
    kumo: kumoIndexing,
    groonga,
    xapianSeconds: xapian.indexSeconds,
  });
  printTail(report, { queries, rounds: options.rounds, kumo, xapian });

  // One server at a time, so neither competes with the other for the cores.
  const kumoHttp = await measureKumo(dataDir, texts);
  const groongaHttp = await measureGroonga(groonga.database, texts);
  printHttp(report, {
    kumo: kumoHttp,
    kumoPlans: KUMO_PLANS,
    groonga: groongaHttp,
    groongaPlans: GROONGA_PLANS,
  });
  printMemory(report, kumoHttp, groongaHttp);
}

async function measureKumo(dataDir: string, texts: readonly string[]): Promise<ServedFigures> {
  const server = await startKumoServer(dataDir, ENGINES_SEARCH_CONFIG, resources);
  process.stderr.write(`kumo: service listening on ${server.url} (pid ${server.pid})\n`);
  try {
    return await measureServed(
      'kumo',
      server,
      texts.map((text) => `${searchPath({ kind: 'judgment', q: text })}&number_per_page=10`),
      (answer) => {
        const hits = (answer as { organic?: { hits?: unknown } }).organic?.hits;
        return typeof hits === 'number' ? hits : new Error(JSON.stringify(answer).slice(0, 200));
      },
      KUMO_PLANS,
      options,
    );
  } finally {
    await server.stop();
  }
}

async function measureGroonga(database: string, texts: readonly string[]): Promise<ServedFigures> {
  const server = await startGroongaServer(database, resources.tempFolder('kumo-engines-log-'), resources);
  process.stderr.write(`groonga: server listening on ${server.url} (pid ${server.pid})\n`);
  try {
    return await measureServed(
      'groonga',
      server,
      texts.map(groongaSelectPath),
      groongaHitsOf,
      GROONGA_PLANS,
      options,
    );
  } finally {
    await server.stop();
  }
}
