/**
 * Kumo's engine in this process: the index built as `kumo index` builds it, and the engine's
 * own match and top 10 timed per query.
 */
import { BatchIndexer } from '../../src/search/indexing.js';
import { SearchIndex } from '../../src/search/local-index.js';
import type { EvalDocument } from '../eval/page-documents.js';
import { threadPreemptions } from './preemptions.js';
import { planQuery, queryLanguageOf, queryTreeOf, indexWordForms } from '../../src/search/ranking.js';

/** Documents per batch, as `kumo index` (and bench:search) writes them. */
const BATCH = 500;
const FEED = 'bench:engines';

export interface KumoIndexing {
  ms: number;
  segments: number;
}

/**
 * BatchIndexer into a new index file: analysis in worker threads while the previous batch is
 * written, each batch one transaction, segments merged as they accumulate; the time ends when
 * the last batch is written.
 */
export async function indexWithKumo(
  indexFile: string,
  documents: readonly EvalDocument[],
): Promise<KumoIndexing> {
  const index = new SearchIndex(indexFile);
  try {
    const started = performance.now();
    const indexer = new BatchIndexer(
      index.writer.forFeed(FEED),
      (totals) => {
        const done = totals.added + totals.updated + totals.unchanged;
        process.stderr.write(`kumo: indexed ${done} / ${documents.length}\n`);
      },
      { batchSize: BATCH },
    );
    for (const document of documents) await indexer.add(document);
    await indexer.finish();
    const ms = performance.now() - started;
    return { ms, segments: index.searcher().snapshot.segments.length };
  } finally {
    index.close();
  }
}

export interface TailSamples {
  /** Milliseconds of each measured round, per query (in query order). */
  perQuery: number[][];
  /** Per sample of perQuery: whether the thread lost its core meanwhile (preemptions.ts). */
  preempted: boolean[][];
  /** Matches of each query. */
  hits: number[];
}

/**
 * The searcher's top 10 (Searcher.top), the engine without the site search around it: the query planned (syntax,
 * word forms), every matching document scored, the top 10 picked, with URL and title from the
 * summaries held in memory; no highlights, facets or did-you-mean. The index is opened first and
 * warmed with `warmupRounds` rounds, so the figures are of a serving index.
 */
export function kumoTail(
  indexFile: string,
  queries: readonly string[],
  warmupRounds: number,
  rounds: number,
): TailSamples {
  const index = new SearchIndex(indexFile);
  try {
    const perQuery = queries.map(() => [] as number[]);
    const preempted = queries.map(() => [] as boolean[]);
    const hits = queries.map(() => 0);
    for (let round = 0; round < warmupRounds + rounds; round += 1) {
      queries.forEach((query, at) => {
        const switches = threadPreemptions();
        const started = performance.now();
        // The whole tail: the query parsed and planned, matched and the top 10 ranked.
        const searcher = index.searcher();
        const tree = queryTreeOf(query, undefined, indexWordForms(searcher.snapshot));
        const answer = searcher.top(planQuery(tree), queryLanguageOf(query), 10);
        const took = performance.now() - started;
        if (round >= warmupRounds) {
          perQuery[at]!.push(took);
          preempted[at]!.push(threadPreemptions() !== switches);
        }
        hits[at] = answer.hits;
      });
    }
    return { perQuery, preempted, hits };
  } finally {
    index.close();
  }
}
