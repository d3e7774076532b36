import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CorpusSpec } from './corpus-spec.js';
import { EngineSystem } from './engine-system.js';
import type { SetFigures, SystemFigures } from './eval-figures.js';
import { printComparison, printExamples, line, summaryOf } from './eval-report.js';
import { Fts5Baseline } from './fts5-baseline.js';
import { judgmentsOf, type Judgment } from './judgments.js';
import { packageVersionOf } from './package-files.js';
import { loadPages } from './page-documents.js';
import { printQuality } from './quality-report.js';
import { runSystem, type SystemRun } from './run-system.js';
import { SiteSearchProbe } from './site-search-probe.js';
import { SnippetTally, type SnippetFigures } from './snippet-quality.js';
import { suggestFiguresOf, type SuggestFigures } from './suggest-quality.js';
import { TemplateMatcher, templateBlocksOf, templateRunsOf, textBlocksOf } from './template-blocks.js';

export interface CorpusResult {
  /** False when a system failed (its figures are missing from the report). */
  ok: boolean;
  figures: SetFigures;
}

/** Loads one corpus from `root`, judges it by its index, and reports engine against baselines. */
export async function evaluateCorpus(spec: CorpusSpec, root: string): Promise<CorpusResult> {
  process.stderr.write(`${spec.label}: loading pages\n`);
  const started = performance.now();
  const blocksByUrl = new Map<string, string[]>();
  const documents = loadPages(root, spec.baseUrl, spec.isContent, (url, html) =>
    blocksByUrl.set(url, textBlocksOf(html)),
  );
  const entries = spec
    .indexFiles(root)
    .flatMap((file) =>
      spec.parseIndex(readFileSync(path.join(root, file), 'utf8'), new URL(file, spec.baseUrl).href),
    );
  const judged = judgmentsOf(entries, new Set(documents.map(({ url }) => url)), spec.judgmentOptions);
  const template = templateBlocksOf([...blocksByUrl.values()]);
  const loadSeconds = (performance.now() - started) / 1000;
  const packageVersion = packageVersionOf(spec.debianPackage);

  process.stdout.write(`\n== ${spec.label}\n`);
  line('corpus', `${documents.length} pages, Debian ${spec.debianPackage} ${packageVersion}: ${root}`);
  line('index entries', `${judged.entries} read, ${judged.eligible} distinct usable queries`);
  line('judgments', `${judged.judgments.length} queries, ${judged.judgedPages} judged pages`);
  line('how judged', spec.judgmentNote);
  line('load time', `${loadSeconds.toFixed(2)} s`);
  const figures: SetFigures = {
    key: spec.key,
    label: spec.label,
    debianPackage: spec.debianPackage,
    packageVersion,
    pages: documents.length,
    queries: judged.judgments.length,
    judgedPages: judged.judgedPages,
    templateBlocks: template.size,
    systems: [],
  };
  if (judged.judgments.length === 0) return { ok: true, figures };

  const matchers = new Map<string, TemplateMatcher>();
  const matcherOf = (url: string): TemplateMatcher => {
    let matcher = matchers.get(url);
    if (matcher === undefined) {
      matcher = new TemplateMatcher(templateRunsOf(blocksByUrl.get(url) ?? [], template));
      matchers.set(url, matcher);
    }
    return matcher;
  };
  let quality: { snippets: SnippetFigures; suggest: SuggestFigures[] } | undefined;
  const engine = await runSystem(
    'engine',
    () => EngineSystem.open(),
    documents,
    judged.judgments,
    async (system) => {
      quality = await measureQuality(system, judged.judgments, matcherOf);
    },
  );
  const baselines: SystemRun[] = [];
  for (const tokenizer of spec.baselines) {
    const create = () => new Fts5Baseline(tokenizer);
    baselines.push(await runSystem(`FTS5 ${tokenizer}`, create, documents, judged.judgments));
  }
  printComparison(engine, baselines, judged.judgments);
  if (quality !== undefined) printQuality(template.size, quality.snippets, quality.suggest);
  const first = baselines[0];
  if (first !== undefined) printExamples(engine, first, judged.judgments);
  figures.systems = [engine, ...baselines].map((run) => systemFiguresOf(run, judged.judgments));
  if (quality !== undefined) {
    figures.snippets = quality.snippets;
    figures.suggest = quality.suggest;
  }
  return { ok: [engine, ...baselines].every((run) => run.error === undefined), figures };
}

/**
 * Snippet and suggest quality of the engine, through the site search API on its index. Suggest
 * is asked first and on an activity of its own (site-search-probe.ts).
 */
async function measureQuality(
  system: EngineSystem,
  judgments: readonly Judgment[],
  matcherOf: (url: string) => TemplateMatcher,
): Promise<{ snippets: SnippetFigures; suggest: SuggestFigures[] }> {
  const probe = new SiteSearchProbe(system.searchIndex);
  try {
    const queries = judgments.map(({ query }) => query);
    await probe.suggestionsSettled();
    const suggest = suggestFiguresOf(queries, (prefix) => probe.suggest(prefix));
    const tally = new SnippetTally(matcherOf);
    for (const query of queries) tally.add(query, await probe.shown(query));
    return { snippets: tally.figures(), suggest };
  } finally {
    await probe.close();
  }
}

function systemFiguresOf(run: SystemRun, judgments: readonly Judgment[]): SystemFigures {
  if (run.error !== undefined) return { name: run.name, error: run.error };
  const summary = summaryOf(run, judgments);
  return {
    name: run.name,
    mrr: summary.mrr,
    ndcg: summary.ndcg,
    missed: summary.missed,
    empty: summary.empty,
    indexSeconds: run.indexSeconds,
    searchSeconds: run.searchSeconds,
  };
}
