import { CORPUS_MODES, type CorpusMode } from './eval-corpus.js';

/** What `npm run eval:search -- …` was asked (docs/search-evaluation.md, Comparing runs). */
export interface EvalOptions {
  /** Write the figures of this run to this file. */
  json?: string;
  /** Print a before/after table: this file's figures against this run's (or --after's). */
  compare?: string;
  /** With --compare: the "after" figures from this file; nothing is run. */
  after?: string;
  /** Keys of the sets to run; all when absent. */
  sets?: string[];
  /** Write the engine's failures (queries whose first relevant page is not first) to this file. */
  failures?: string;
  /** `files`: the content pages read from disk, as before the eval crawled; `crawl` when absent. */
  corpus?: CorpusMode;
}

export const EVAL_USAGE =
  'usage: eval:search [--sets KEY,…] [--corpus crawl|files] [--json OUT.json] [--failures OUT.json] ' +
  '[--compare BEFORE.json [--after AFTER.json]]';

/** Parses the arguments; throws an Error naming the argument and the reason. */
export function parseEvalOptions(args: readonly string[], knownSets: readonly string[]): EvalOptions {
  const options: EvalOptions = {};
  for (let at = 0; at < args.length; at += 1) {
    const name = args[at]!;
    if (!['--json', '--compare', '--after', '--sets', '--failures', '--corpus'].includes(name)) {
      throw new Error(`unknown argument ${JSON.stringify(name)}; ${EVAL_USAGE}`);
    }
    const value = args[at + 1];
    if (value === undefined || value.startsWith('--'))
      throw new Error(`${name} needs a value; ${EVAL_USAGE}`);
    at += 1;
    if (name === '--sets') {
      const keys = value
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key !== '');
      const unknown = keys.filter((key) => !knownSets.includes(key));
      if (keys.length === 0 || unknown.length > 0) {
        throw new Error(
          `--sets: unknown set ${JSON.stringify(unknown.join(',') || value)}; known: ${knownSets.join(', ')}`,
        );
      }
      options.sets = keys;
    } else if (name === '--corpus') {
      const mode = CORPUS_MODES.find((known) => known === value);
      if (mode === undefined) {
        throw new Error(
          `--corpus: unknown corpus ${JSON.stringify(value)}; known: ${CORPUS_MODES.join(', ')}`,
        );
      }
      options.corpus = mode;
    } else options[name.slice(2) as 'json' | 'compare' | 'after' | 'failures'] = value;
  }
  if (options.after !== undefined && options.compare === undefined) {
    throw new Error(`--after needs --compare BEFORE.json; ${EVAL_USAGE}`);
  }
  return options;
}
