/**
 * `npm run eval:search`: search quality against human-made judgments. Real documentation sites
 * from Debian packages are served on loopback and crawled by the crawler; the run is fed to the
 * engine as a scheduled run feeds its search service, and its documents to a plain SQLite FTS5
 * baseline; the sites' own indexes (a term → the pages it points to) judge both, by MRR@10 and
 * nDCG@10, through the site search API. The engine's snippets and suggestions are measured there
 * too. `--corpus files` reads the content pages from disk instead, as runs before the crawl did.
 * Options: docs/search-evaluation.md, Comparing runs. Exit status 2 when a documentation package
 * is missing, 1 when a system failed to run, 64 on a bad argument.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { APACHE_HTTPD_JA } from './apache-httpd-ja.js';
import type { CorpusSpec } from './corpus-spec.js';
import { comparisonLines } from './eval-compare.js';
import { parseFigures, type EvalFigures } from './eval-figures.js';
import { parseEvalOptions, type EvalOptions } from './eval-options.js';
import { evaluateCorpus } from './evaluate-corpus.js';
import type { RankingFailure } from './failure-list.js';
import { GIMP_HELP_JA } from './gimp-help-ja.js';
import { packageFolderOf } from './package-files.js';
import { POSTGRESQL_DOCS } from './postgresql-docs.js';
import { PYTHON_DOCS } from './python-docs.js';

const CORPORA: readonly CorpusSpec[] = [PYTHON_DOCS, GIMP_HELP_JA, POSTGRESQL_DOCS, APACHE_HTTPD_JA];

let options: EvalOptions;
let before: EvalFigures | undefined;
try {
  options = parseEvalOptions(
    process.argv.slice(2),
    CORPORA.map((spec) => spec.key),
  );
  if (options.compare !== undefined)
    before = parseFigures(readFileSync(options.compare, 'utf8'), options.compare);
  if (options.after !== undefined) {
    const after = parseFigures(readFileSync(options.after, 'utf8'), options.after);
    process.stdout.write(`${comparisonLines(before!, after).join('\n')}\n`);
    process.exit(0);
  }
} catch (error) {
  process.stderr.write(`eval:search: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(64);
}

const chosen = CORPORA.filter((spec) => options.sets === undefined || options.sets.includes(spec.key));
const located = chosen.map((spec) => ({ spec, root: packageFolderOf(spec.debianPackage, spec.marker) }));
const missing = located.filter(({ root }) => root === undefined).map(({ spec }) => spec.debianPackage);
if (missing.length > 0) {
  process.stderr.write(
    `eval:search reads documentation installed by Debian packages; missing: ${missing.join(', ')}\n` +
      `  install: sudo apt-get install ${missing.join(' ')}  (or: sudo scripts/install-eval-corpus.sh)\n`,
  );
  process.exit(2);
}

const started = performance.now();
const figures: EvalFigures = { measuredAt: new Date().toISOString(), sets: [] };
const failures: Record<string, RankingFailure[]> = {};
process.stdout.write(
  "eval:search  relevance against the sites' own indexes, top 10, binary relevance, " +
    `${options.corpus === 'files' ? 'content pages read from disk' : 'sites crawled'}\n`,
);
for (const { spec, root } of located) {
  const result = await evaluateCorpus(spec, root!, options.corpus ?? 'crawl');
  figures.sets.push(result.figures);
  failures[spec.key] = result.failures;
  if (!result.ok) process.exitCode = 1;
}
process.stdout.write(`\nrun time  ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
if (options.json !== undefined) {
  writeFileSync(options.json, `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`figures written to ${options.json}\n`);
}
if (options.failures !== undefined) {
  writeFileSync(options.failures, `${JSON.stringify(failures, null, 2)}\n`);
  process.stdout.write(`engine failures (first relevant page not first) written to ${options.failures}\n`);
}
if (before !== undefined) {
  process.stdout.write(`\nbefore (${options.compare}) and after (this run), engine figures\n`);
  process.stdout.write(`${comparisonLines(before, figures).join('\n')}\n`);
}
