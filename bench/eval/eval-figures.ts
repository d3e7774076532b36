import type { CorpusMode, CrawlFigures } from './eval-corpus.js';
import type { SnippetFigures } from './snippet-quality.js';
import type { SuggestFigures } from './suggest-quality.js';

/** One system's relevance figures on one set; `error` instead when it failed. */
export interface SystemFigures {
  name: string;
  mrr?: number;
  ndcg?: number;
  /** Queries with no relevant page in the top 10, and with no result at all. */
  missed?: number;
  empty?: number;
  /** Queries with a listing page above the first relevant one, or first without one (listing-above.ts). */
  listingAbove?: number;
  indexSeconds?: number;
  searchSeconds?: number;
  error?: string;
}

/** Everything measured on one set: what `--json` writes and `--compare` reads. */
export interface SetFigures {
  key: string;
  label: string;
  debianPackage: string;
  packageVersion: string;
  /** Absent in files written before the eval crawled, which read the files. */
  corpus?: CorpusMode;
  /** Documents indexed. */
  pages: number;
  crawl?: CrawlFigures;
  queries: number;
  judgedPages: number;
  /** Distinct template blocks found in the set's pages (template-blocks.ts). */
  templateBlocks: number;
  systems: SystemFigures[];
  /** The listing pages the engine put above the relevant one most often, with their counts. */
  listingWinners?: { url: string; queries: number }[];
  /** The engine's results through the site search API; absent when the engine failed. */
  snippets?: SnippetFigures;
  suggest?: SuggestFigures[];
}

export interface EvalFigures {
  /** ISO time of the run. */
  measuredAt: string;
  sets: SetFigures[];
}

/** Reads a `--json` file back, with a clear error when it is not one. */
export function parseFigures(text: string, file: string): EvalFigures {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { sets?: unknown }).sets)) {
    throw new Error(`${file}: not an eval:search figures file (no "sets" list; write one with --json)`);
  }
  return value as EvalFigures;
}
