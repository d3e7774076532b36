import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CorpusSpec } from './corpus-spec.js';
import { EngineSystem } from './engine-system.js';
import { printComparison, printExamples, line } from './eval-report.js';
import { Fts5Baseline } from './fts5-baseline.js';
import { judgmentsOf } from './judgments.js';
import { loadPages } from './page-documents.js';
import { runSystem, type SystemRun } from './run-system.js';

/**
 * Loads one corpus from `root`, judges it by its index, and reports engine against baselines.
 * False when a system failed (its figures are missing from the report).
 */
export async function evaluateCorpus(spec: CorpusSpec, root: string): Promise<boolean> {
  process.stderr.write(`${spec.label}: loading pages\n`);
  const started = performance.now();
  const documents = loadPages(root, spec.baseUrl, spec.isContent);
  const entries = spec
    .indexFiles(root)
    .flatMap((file) =>
      spec.parseIndex(readFileSync(path.join(root, file), 'utf8'), new URL(file, spec.baseUrl).href),
    );
  const judged = judgmentsOf(entries, new Set(documents.map(({ url }) => url)), spec.judgmentOptions);
  const loadSeconds = (performance.now() - started) / 1000;

  process.stdout.write(`\n== ${spec.label}\n`);
  line('corpus', `${documents.length} pages, Debian ${spec.debianPackage}: ${root}`);
  line('index entries', `${judged.entries} read, ${judged.eligible} distinct usable queries`);
  line('judgments', `${judged.judgments.length} queries, ${judged.judgedPages} judged pages`);
  line('how judged', spec.judgmentNote);
  line('load time', `${loadSeconds.toFixed(2)} s`);
  if (judged.judgments.length === 0) return true;

  const engine = await runSystem('engine', () => EngineSystem.open(), documents, judged.judgments);
  const baselines: SystemRun[] = [];
  for (const tokenizer of spec.baselines) {
    const create = () => new Fts5Baseline(tokenizer);
    baselines.push(await runSystem(`FTS5 ${tokenizer}`, create, documents, judged.judgments));
  }
  printComparison(engine, baselines, judged.judgments);
  const first = baselines[0];
  if (first !== undefined) printExamples(engine, first, judged.judgments);
  return [engine, ...baselines].every((run) => run.error === undefined);
}
