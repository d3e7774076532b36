import type { Judgment } from './judgments.js';
import { pagesAbove } from './listing-above.js';
import { firstRelevantRank } from './metrics.js';
import type { EvalDocument } from './page-documents.js';
import type { SystemRun } from './run-system.js';

/** How many of the top results a failure lists. */
const SHOWN = 3;

export interface ListedPage {
  url: string;
  title: string;
  /** One of the set's listing pages (corpus-spec.ts, isListing), which is never relevant. */
  listing: boolean;
}

/** A query whose first relevant page is not ranked first: what came before it, and what it was. */
export interface RankingFailure {
  query: string;
  /** 1-based rank of the first relevant page in the top 10; null when none is there. */
  rank: number | null;
  top: ListedPage[];
  /** The pages ranked above the first relevant one; the first result when none is in the top 10. */
  above: ListedPage[];
  /** Whether a listing page is among `above`. */
  listingAbove: boolean;
  /** The first relevant page in the ranking, else every relevant page. */
  relevant: ListedPage[];
}

/**
 * The queries of a set the engine does not answer with a relevant page first, in judgment order:
 * the material of a failure analysis (docs/search-evaluation.md, Comparing runs).
 */
export function failuresOf(
  run: SystemRun,
  judgments: readonly Judgment[],
  documents: readonly EvalDocument[],
  isListing: (url: string) => boolean,
): RankingFailure[] {
  const titles = new Map(documents.map(({ url, title }) => [url, title]));
  const page = (url: string): ListedPage => ({ url, title: titles.get(url) ?? '', listing: isListing(url) });
  const failures: RankingFailure[] = [];
  judgments.forEach(({ query, relevant }, index) => {
    const ranked = run.rankings[index] ?? [];
    const rank = firstRelevantRank(ranked, relevant);
    if (rank === 1) return;
    const above = pagesAbove(ranked, relevant).map(page);
    failures.push({
      query,
      rank: rank ?? null,
      top: ranked.slice(0, SHOWN).map(page),
      above,
      listingAbove: above.some(({ listing }) => listing),
      relevant: rank === undefined ? [...relevant].map(page) : [page(ranked[rank - 1]!)],
    });
  });
  return failures;
}
