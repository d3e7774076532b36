/**
 * `npm run eval:search`: search relevance against human-made judgments. Real documentation sites
 * from Debian packages are indexed from disk by the engine and by a plain SQLite FTS5 baseline;
 * the sites' own indexes (a term → the pages it points to) judge both, by MRR@10 and nDCG@10.
 * Exit status 2 when a documentation package is missing, 1 when a system failed to run.
 */
import type { CorpusSpec } from './corpus-spec.js';
import { evaluateCorpus } from './evaluate-corpus.js';
import { GIMP_HELP_JA } from './gimp-help-ja.js';
import { packageFolderOf } from './package-files.js';
import { PYTHON_DOCS } from './python-docs.js';

const CORPORA: readonly CorpusSpec[] = [PYTHON_DOCS, GIMP_HELP_JA];

const located = CORPORA.map((spec) => ({ spec, root: packageFolderOf(spec.debianPackage, spec.marker) }));
const missing = located.filter(({ root }) => root === undefined).map(({ spec }) => spec.debianPackage);
if (missing.length > 0) {
  process.stderr.write(
    `eval:search reads documentation installed by Debian packages; missing: ${missing.join(', ')}\n` +
      `  install: sudo apt-get install ${missing.join(' ')}  (or: sudo scripts/install-eval-corpus.sh)\n`,
  );
  process.exit(2);
}

const started = performance.now();
process.stdout.write("eval:search  relevance against the sites' own indexes, top 10, binary relevance\n");
for (const { spec, root } of located) {
  if (!(await evaluateCorpus(spec, root!))) process.exitCode = 1;
}
process.stdout.write(`\nrun time  ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
