import type { Judgment } from './judgments.js';
import { DEPTH } from './metrics.js';
import type { EvalCorpus } from './eval-corpus.js';
import type { SearchSystem } from './search-system.js';

/** What one system returned for every query, or why it could not. */
export interface SystemRun {
  name: string;
  /** Ranked URLs per judgment, in judgment order; empty when the system failed. */
  rankings: string[][];
  /** Set when the system failed to build, index or search: the others are still measured. */
  error?: string;
  indexSeconds: number;
  searchSeconds: number;
}

/**
 * Builds a system, indexes the corpus and runs every query; a failure is reported, not thrown.
 * `inspect` measures more on the indexed system before it is closed.
 */
export async function runSystem<S extends SearchSystem>(
  name: string,
  create: () => S | Promise<S>,
  corpus: EvalCorpus,
  judgments: readonly Judgment[],
  inspect?: (system: S) => Promise<void>,
): Promise<SystemRun> {
  const run: SystemRun = { name, rankings: [], indexSeconds: 0, searchSeconds: 0 };
  let system: S | undefined;
  try {
    const indexing = performance.now();
    system = await create();
    await system.index(corpus);
    run.indexSeconds = (performance.now() - indexing) / 1000;
    const searching = performance.now();
    for (const { query } of judgments) run.rankings.push(await system.search(query, DEPTH));
    run.searchSeconds = (performance.now() - searching) / 1000;
    await inspect?.(system);
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error);
    run.rankings = [];
    process.stderr.write(`  ${name}: failed: ${run.error}\n`);
  }
  try {
    await system?.close();
  } catch (error) {
    // The figures are taken already; a failing close only loses the throwaway index.
    process.stderr.write(`  ${name}: close failed: ${String(error)}\n`);
  }
  return run;
}
