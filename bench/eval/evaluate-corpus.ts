import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CorpusSpec } from './corpus-spec.js';
import { EngineSystem } from './engine-system.js';
import type { CorpusMode, EvalCorpus } from './eval-corpus.js';
import type { SetFigures, SystemFigures } from './eval-figures.js';
import { failuresOf, type RankingFailure } from './failure-list.js';
import { printComparison, printExamples, line, summaryOf } from './eval-report.js';
import { Fts5Baseline } from './fts5-baseline.js';
import { judgmentsOf, type Judgment } from './judgments.js';
import { listingAboveOf } from './listing-above.js';
import { loadCorpus } from './load-corpus.js';
import { packageVersionOf } from './package-files.js';
import { contentPageUrls } from './page-documents.js';
import { printCorpus, printListingWinners } from './corpus-report.js';
import { printQuality } from './quality-report.js';
import { runSystem, type SystemRun } from './run-system.js';
import { SnippetTally, type SnippetFigures } from './snippet-quality.js';
import { suggestFiguresOf, type SuggestFigures } from './suggest-quality.js';
import { TemplateMatcher, templateBlocksOf, templateRunsOf } from './template-blocks.js';

/** Listing pages kept in the figures: those the engine put above the relevant page most often. */
const LISTING_WINNERS = 10;

export interface CorpusResult {
  /** False when a system failed (its figures are missing from the report). */
  ok: boolean;
  figures: SetFigures;
  /** The engine's queries without a relevant page first (empty when the engine failed). */
  failures: RankingFailure[];
}

/** Crawls (or reads) one set, judges it by its index, and reports engine against baselines. */
export async function evaluateCorpus(
  spec: CorpusSpec,
  root: string,
  mode: CorpusMode,
): Promise<CorpusResult> {
  process.stderr.write(`${spec.label}: ${mode === 'crawl' ? 'crawling the site' : 'loading pages'}\n`);
  const started = performance.now();
  // The judgments are made among the content pages of the folder, whatever the crawl reaches.
  const contentUrls = contentPageUrls(root, spec.baseUrl, (file) => !spec.isListing(file));
  const corpus = await loadCorpus(spec, root, mode, contentUrls);
  try {
    const entries = spec
      .indexFiles(root)
      .flatMap((file) =>
        spec.parseIndex(readFileSync(path.join(root, file), 'utf8'), new URL(file, spec.baseUrl).href),
      );
    const judged = judgmentsOf(entries, contentUrls, spec.judgmentOptions);
    const template = templateBlocksOf([...corpus.blocksByUrl.values()]);
    const loadSeconds = (performance.now() - started) / 1000;
    const packageVersion = packageVersionOf(spec.debianPackage);

    process.stdout.write(`\n== ${spec.label}\n`);
    printCorpus(spec, root, corpus, packageVersion);
    line('index entries', `${judged.entries} read, ${judged.eligible} distinct usable queries`);
    line('judgments', `${judged.judgments.length} queries, ${judged.judgedPages} judged pages`);
    line('how judged', spec.judgmentNote);
    line(mode === 'crawl' ? 'crawl and load time' : 'load time', `${loadSeconds.toFixed(2)} s`);
    const figures: SetFigures = {
      key: spec.key,
      label: spec.label,
      debianPackage: spec.debianPackage,
      packageVersion,
      corpus: mode,
      pages: corpus.documents.length,
      ...(corpus.crawl !== undefined && { crawl: corpus.crawl }),
      queries: judged.judgments.length,
      judgedPages: judged.judgedPages,
      templateBlocks: template.size,
      systems: [],
    };
    if (judged.judgments.length === 0) return { ok: true, figures, failures: [] };
    return await compareSystems(spec, corpus, judged.judgments, template, figures);
  } finally {
    await corpus.dispose();
  }
}

/** The engine and the baselines on one indexed corpus, printed and put in `figures`. */
async function compareSystems(
  spec: CorpusSpec,
  corpus: EvalCorpus,
  judgments: readonly Judgment[],
  template: ReadonlySet<string>,
  figures: SetFigures,
): Promise<CorpusResult> {
  const matchers = new Map<string, TemplateMatcher>();
  const matcherOf = (url: string): TemplateMatcher => {
    let matcher = matchers.get(url);
    if (matcher === undefined) {
      matcher = new TemplateMatcher(templateRunsOf(corpus.blocksByUrl.get(url) ?? [], template));
      matchers.set(url, matcher);
    }
    return matcher;
  };
  const isListing = (url: string) => corpus.urls.isListing(url);
  let quality: { snippets: SnippetFigures; suggest: SuggestFigures[] } | undefined;
  const engine = await runSystem(
    'engine',
    () => EngineSystem.open(),
    corpus,
    judgments,
    async (system) => {
      quality = await measureQuality(system, judgments, matcherOf);
    },
  );
  const baselines: SystemRun[] = [];
  for (const tokenizer of spec.baselines) {
    const create = () => new Fts5Baseline(tokenizer);
    baselines.push(await runSystem(`FTS5 ${tokenizer}`, create, corpus, judgments));
  }
  printComparison(engine, baselines, judgments, isListing);
  if (quality !== undefined) printQuality(template.size, quality.snippets, quality.suggest);
  const first = baselines[0];
  if (first !== undefined) printExamples(engine, first, judgments);
  figures.systems = [engine, ...baselines].map((run) => systemFiguresOf(run, judgments, isListing));
  if (quality !== undefined) {
    figures.snippets = quality.snippets;
    figures.suggest = quality.suggest;
  }
  if (engine.error === undefined) {
    const winners = listingAboveOf(engine.rankings, judgments, isListing).pages;
    printListingWinners(corpus.urls, winners);
    figures.listingWinners = winners.slice(0, LISTING_WINNERS);
  }
  return {
    ok: [engine, ...baselines].every((run) => run.error === undefined),
    figures,
    failures: engine.error === undefined ? failuresOf(engine, judgments, corpus.documents, isListing) : [],
  };
}

/**
 * Snippet and suggest quality of the engine, through the site search API on its index: the
 * results it showed for the judged queries, and suggest on an activity of its own
 * (site-search-probe.ts).
 */
async function measureQuality(
  system: EngineSystem,
  judgments: readonly Judgment[],
  matcherOf: (url: string) => TemplateMatcher,
): Promise<{ snippets: SnippetFigures; suggest: SuggestFigures[] }> {
  const queries = judgments.map(({ query }) => query);
  await system.probe.suggestionsSettled();
  const suggest = suggestFiguresOf(queries, (prefix) => system.probe.suggest(prefix));
  const tally = new SnippetTally(matcherOf);
  for (const query of queries) tally.add(query, system.shown.get(query) ?? []);
  return { snippets: tally.figures(), suggest };
}

function systemFiguresOf(
  run: SystemRun,
  judgments: readonly Judgment[],
  isListing: (url: string) => boolean,
): SystemFigures {
  if (run.error !== undefined) return { name: run.name, error: run.error };
  const summary = summaryOf(run, judgments, isListing);
  return {
    name: run.name,
    mrr: summary.mrr,
    ndcg: summary.ndcg,
    missed: summary.missed,
    empty: summary.empty,
    listingAbove: summary.listingAbove,
    indexSeconds: run.indexSeconds,
    searchSeconds: run.searchSeconds,
  };
}
