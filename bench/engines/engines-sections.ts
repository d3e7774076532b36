/**
 * The sections of the bench:engines report: what was measured, and each of Kumo's figures
 * beside its anchor's, with the goals.
 */
import os from 'node:os';
import { percentile, summarize } from '../latency-stats.js';
import { count, mb, ms } from '../search-report.js';
import type { CorpusQuery, EnginesCorpus } from './engines-corpus.js';
import type { EnginesOptions } from './engines-options.js';
import { ENGINE_GOALS, type EnginesReport, ratio } from './engines-report.js';
import type { GroongaLoads } from './groonga-load.js';
import type { LoadFigures } from './http-load.js';
import type { KumoIndexing, TailSamples } from './kumo-engine.js';
import type { LoadPlan, ServedFigures } from './served-engine.js';
import type { XapianFigures } from './xapian-anchor.js';

/** Slowest queries listed under the engine tail. */
const SLOWEST = 5;

export function printCorpus(report: EnginesReport, corpus: EnginesCorpus, options: EnginesOptions): void {
  const { sets, documents, queries, textChars, distinctQueries } = corpus;
  const japanese = queries.filter((query) => query.japanese);
  process.stdout.write(
    `bench:engines  Kumo beside Groonga and Xapian: ${count(documents.length)} pages, ${count(queries.length)} queries; ` +
      `${options.rounds} rounds after ${options.warmupRounds} warm-up rounds in process; HTTP ${options.seconds} s ` +
      `per load after ${options.warmupSeconds} s unmeasured\n`,
  );
  const cpus = os.cpus();
  report.line(
    'machine',
    `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg()[0]!.toFixed(2)} at the start, Node.js ${process.version}`,
  );
  report.heading('Corpus (pages extracted by pageTextOf; queries from the judgments of eval:search)');
  for (const { spec, root, packageVersion, pages } of sets) {
    report.line(spec.label, `${count(pages)} pages, Debian ${spec.debianPackage} ${packageVersion}: ${root}`);
  }
  report.line(
    'text indexed',
    `${(textChars / 1e6).toFixed(1)} million characters (title, description, headings, body)`,
  );
  const bySet = (key: string) => queries.filter((query) => query.set === key).length;
  report.line(
    'queries',
    `${count(queries.length)} of ${count(distinctQueries)} distinct: ${count(queries.length - japanese.length)} English, ` +
      `${count(japanese.length)} Japanese (by set: ${sets.map(({ spec }) => `${spec.key} ${bySet(spec.key)}`).join(', ')})`,
  );
  report.line('  e.g.', examples(queries));
}

function examples(queries: readonly CorpusQuery[]): string {
  const spread = (list: readonly CorpusQuery[], n: number) =>
    Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / n)]!.text);
  const english = spread(
    queries.filter((query) => !query.japanese),
    4,
  );
  const japanese = spread(
    queries.filter((query) => query.japanese),
    3,
  );
  return [...english, ...japanese].map((text) => `"${text}"`).join(', ');
}

export interface IndexingFigures {
  documents: number;
  kumo: KumoIndexing;
  groonga: GroongaLoads;
  xapianSeconds: number;
}

export function printIndexing(report: EnginesReport, figures: IndexingFigures): void {
  const { documents, kumo, groonga } = figures;
  const perSecond = (milliseconds: number) => documents / (milliseconds / 1000);
  const kumoRate = perSecond(kumo.ms);
  const online = perSecond(groonga.onlineMs);
  const offline = perSecond(groonga.offlineMs);
  report.heading(
    `Indexing (${count(documents)} pages; Groonga: one groonga process from start to exit)`,
    'Kumo BatchIndexer',
    'Groonga load',
  );
  report.pair(
    'index kept up to date',
    `${docsPerSecond(kumoRate)} (${seconds(kumo.ms)})`,
    `${docsPerSecond(online)} (${seconds(groonga.onlineMs)}), index column first`,
  );
  report.pair(
    'bulk load',
    '(the same: one way)',
    `${docsPerSecond(offline)} (${seconds(groonga.offlineMs)}), index after the load`,
  );
  report.line(
    'Kumo / Groonga docs/s',
    `${ratio(kumoRate / online)} (index first), ${ratio(kumoRate / offline)} (bulk)`,
  );
  report.line('  Kumo index', `${kumo.segments} segments; Groonga loaded ${mb(groonga.loadBytes)} of JSON`);
  report.line(
    'for reference: Xapian',
    `${docsPerSecond(documents / figures.xapianSeconds)} (${figures.xapianSeconds.toFixed(2)} s; TermGenerator through the Python bindings, CJK n-grams, glass on disk)`,
  );
}

export interface TailFigures {
  queries: readonly CorpusQuery[];
  rounds: number;
  kumo: TailSamples;
  xapian: XapianFigures;
}

export function printTail(report: EnginesReport, figures: TailFigures): void {
  const { queries, kumo, xapian } = figures;
  const kumoAll = summarize(kumo.perQuery.flat());
  const xapianAll = summarize(xapian.total.flat());
  const xapianMset = summarize(xapian.msetOnly.flat());
  report.heading(
    `Engine tail (match + top 10, in process; ${count(queries.length)} queries x ${figures.rounds} rounds)`,
    'Kumo Searcher.top',
    `Xapian ${xapian.version} parse + get_mset`,
  );
  report.pair('p50', ms(kumoAll.p50), ms(xapianAll.p50));
  report.pair('p99', ms(kumoAll.p99), ms(xapianAll.p99));
  report.pair('max', ms(kumoAll.max), ms(xapianAll.max));
  for (const japanese of [false, true]) {
    const pick = (samples: number[][]) =>
      summarize(samples.filter((_, at) => queries[at]!.japanese === japanese).flat());
    const ours = pick(kumo.perQuery);
    const theirs = pick(xapian.total);
    const label = `${japanese ? 'Japanese' : 'English'} (${queries.filter((query) => query.japanese === japanese).length}) p50 / p99`;
    report.pair(label, `${ms(ours.p50)} / ${ms(ours.p99)}`, `${ms(theirs.p50)} / ${ms(theirs.p99)}`);
  }
  // The p99 of the samples also catches the moments the process lost its core to another one
  // (on a shared machine, most of the slow samples); without those samples, and as the p99 of
  // each query's median over the rounds, it is the engine's own slow queries.
  const kumoKept = summarize(notPreempted(kumo.perQuery, kumo.preempted));
  const xapianKept = summarize(notPreempted(xapian.total, xapian.preempted));
  const preemptedCount = (flags: boolean[][]) => flags.flat().filter(Boolean).length;
  report.pair('p99, samples not preempted', ms(kumoKept.p99), ms(xapianKept.p99));
  report.pair(
    '  samples preempted',
    `${count(preemptedCount(kumo.preempted))} of ${count(kumoAll.count)}`,
    `${count(preemptedCount(xapian.preempted))} of ${count(xapianAll.count)}`,
  );
  const kumoMedians = mediansOf(kumo.perQuery);
  const xapianMedians = mediansOf(xapian.total);
  report.pair(
    'p99 of per-query medians',
    ms(percentile(sorted(kumoMedians), 99)),
    ms(percentile(sorted(xapianMedians), 99)),
  );
  report.pair('get_mset alone p50 / p99', '', `${ms(xapianMset.p50)} / ${ms(xapianMset.p99)}`);
  report.pair(
    'queries without a match',
    count(kumo.hits.filter((hits) => hits === 0).length),
    `${count(xapian.empty.filter(Boolean).length)}${xapian.parseFallbacks > 0 ? ` (${xapian.parseFallbacks} read as plain words)` : ''}`,
  );
  const slowest = kumoMedians
    .map((median, at) => ({ median, at }))
    .sort((a, b) => b.median - a.median)
    .slice(0, SLOWEST);
  for (const [rank, { median, at }] of slowest.entries()) {
    report.pair(
      rank === 0 ? 'slowest for Kumo (medians)' : '',
      `${ms(median)} ${count(kumo.hits[at]!)} hits`,
      `${ms(xapianMedians[at]!)}  "${queries[at]!.text}"`,
    );
  }
  report.line('Kumo p99 / Xapian p99', ratio(kumoAll.p99 / xapianAll.p99), {
    goal: ENGINE_GOALS.tailRatio,
    value: kumoAll.p99 / xapianAll.p99,
  });
  report.line('  samples not preempted', ratio(kumoKept.p99 / xapianKept.p99));
  report.line(
    '  of per-query medians',
    ratio(percentile(sorted(kumoMedians), 99) / percentile(sorted(xapianMedians), 99)),
  );
  report.line('  against get_mset alone', ratio(kumoAll.p99 / xapianMset.p99));
}

function notPreempted(perQuery: readonly number[][], preempted: readonly boolean[][]): number[] {
  return perQuery.flatMap((samples, at) => samples.filter((_, round) => !preempted[at]![round]));
}

function mediansOf(perQuery: readonly number[][]): number[] {
  return perQuery.map((samples) => percentile(sorted(samples), 50));
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

export interface HttpSection {
  kumo: ServedFigures;
  kumoPlans: readonly LoadPlan[];
  groonga: ServedFigures;
  groongaPlans: readonly LoadPlan[];
}

export function printHttp(report: EnginesReport, figures: HttpSection): void {
  const { kumo, groonga } = figures;
  const kumoLoad = (plan: LoadPlan) => loadOf(kumo, figures.kumoPlans, plan);
  const groongaLoad = (plan: LoadPlan) => loadOf(groonga, figures.groongaPlans, plan);
  report.heading(
    'HTTP (loopback, closed loop, each connection asking the queries in turn)',
    'Kumo site search API',
    'Groonga HTTP /d/select',
  );
  report.pair('answer', 'full: highlights, facets', 'top 10: _key, title, _score');
  report.pair('first answer', ms(kumo.firstAnswerMs), ms(groonga.firstAnswerMs));
  report.pair('queries without a match', count(kumo.emptyAnswers), count(groonga.emptyAnswers));
  for (const plan of figures.groongaPlans) {
    loadRows(report, `${plan.connections} conn., new one per request`, kumoLoad(plan), groongaLoad(plan));
  }
  for (const plan of figures.kumoPlans.filter((plan) => plan.client === 'kept-alive')) {
    loadRows(report, `${plan.connections} conn. kept alive (autocannon)`, kumoLoad(plan), undefined);
  }
  const sameClient = { client: 'fresh', connections: 16 } as const;
  const share = (kumoLoad(sameClient).requestsPerSecond / groongaLoad(sameClient).requestsPerSecond) * 100;
  report.line(
    `Kumo req/s / Groonga's, 16 conn.`,
    `${share.toFixed(0)}% (both a new connection per request)`,
    {
      goal: ENGINE_GOALS.httpShare,
      value: share,
    },
  );
  const keptMany = kumoLoad({ client: 'kept-alive', connections: 16 });
  const keptOne = kumoLoad({ client: 'kept-alive', connections: 1 });
  report.line(
    '  Kumo kept alive / Groonga',
    `${((keptMany.requestsPerSecond / groongaLoad(sameClient).requestsPerSecond) * 100).toFixed(0)}%`,
  );
  report.line('Kumo p99, 16 conn. kept alive', ms(keptMany.p99), {
    goal: ENGINE_GOALS.httpP99,
    value: keptMany.p99,
  });
  report.line('Kumo p50, 1 conn. kept alive', ms(keptOne.p50), {
    goal: ENGINE_GOALS.httpP50One,
    value: keptOne.p50,
  });
  const failures = kumo.loads.reduce((sum, load) => sum + load.errors + load.non2xx + load.timeouts, 0);
  report.line('Kumo errors, non-2xx, timeouts', count(failures), {
    goal: ENGINE_GOALS.failures,
    value: failures,
  });
}

function loadOf(figures: ServedFigures, plans: readonly LoadPlan[], wanted: LoadPlan): LoadFigures {
  const at = plans.findIndex(
    (plan) => plan.client === wanted.client && plan.connections === wanted.connections,
  );
  const load = figures.loads[at];
  if (load === undefined) throw new Error(`no load of ${wanted.connections} connections (${wanted.client})`);
  return load;
}

function loadRows(
  report: EnginesReport,
  title: string,
  kumo: LoadFigures,
  groonga: LoadFigures | undefined,
): void {
  const other = (text: (load: LoadFigures) => string) => (groonga === undefined ? '' : text(groonga));
  const rate = (load: LoadFigures) => `${count(Math.round(load.requestsPerSecond))} req/s`;
  const latency = (load: LoadFigures) => `${ms(load.p50)} / ${ms(load.p99)}`;
  const failures = (load: LoadFigures) => `${load.errors} / ${load.non2xx} / ${load.timeouts}`;
  report.pair(title, rate(kumo), other(rate));
  report.pair('  p50 / p99', latency(kumo), other(latency));
  report.pair(
    '  max',
    ms(kumo.max),
    other((load) => ms(load.max)),
  );
  report.pair('  errors / non-2xx / timeouts', failures(kumo), other(failures));
  const cpu = (load: LoadFigures) =>
    load.serverCpuMsPerRequest === undefined ? 'not measured' : ms(load.serverCpuMsPerRequest);
  report.pair('  server CPU per request', cpu(kumo), other(cpu));
}

export function printMemory(report: EnginesReport, kumo: ServedFigures, groonga: ServedFigures): void {
  report.heading('Memory of the server process (VmRSS)', 'Kumo service', 'Groonga server');
  report.pair('idle, 1 s after the start', mb(kumo.idle.rss), mb(groonga.idle.rss), {
    goal: ENGINE_GOALS.idleRss,
    value: kumo.idle.rss / 1024 / 1024,
  });
  report.pair('after the loads', mb(kumo.afterLoad.rss), mb(groonga.afterLoad.rss), {
    goal: ENGINE_GOALS.servingRss,
    value: kumo.afterLoad.rss / 1024 / 1024,
  });
  report.pair('peak (VmHWM)', mb(kumo.afterLoad.peakRss), mb(groonga.afterLoad.peakRss));
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

function docsPerSecond(value: number): string {
  return `${count(Math.round(value))} docs/s`;
}
