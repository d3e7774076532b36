import type { Judgment } from './judgments.js';
import { firstRelevantRank } from './metrics.js';

/**
 * The results a visitor reads before the first relevant page: those ranked above it, or the
 * first result when no relevant page is in the top 10 (docs/search-evaluation.md, Listing pages:
 * the full-crawl baseline: the full-crawl baseline: the full-crawl baseline).
 */
export function pagesAbove(ranked: readonly string[], relevant: ReadonlySet<string>): string[] {
  const rank = firstRelevantRank(ranked, relevant);
  return rank === undefined ? ranked.slice(0, 1) : ranked.slice(0, rank - 1);
}

/** How often listing pages come before the relevant one in a system's rankings. */
export interface ListingAbove {
  /** Queries with a listing page among pagesAbove. */
  queries: number;
  /** Per listing page, the queries it came before the relevant one in, most first. */
  pages: { url: string; queries: number }[];
}

export function listingAboveOf(
  rankings: readonly (readonly string[])[],
  judgments: readonly Judgment[],
  isListing: (url: string) => boolean,
): ListingAbove {
  let queries = 0;
  const byPage = new Map<string, number>();
  judgments.forEach(({ relevant }, index) => {
    const listings = pagesAbove(rankings[index] ?? [], relevant).filter(isListing);
    if (listings.length > 0) queries += 1;
    for (const url of listings) byPage.set(url, (byPage.get(url) ?? 0) + 1);
  });
  const pages = [...byPage]
    .map(([url, count]) => ({ url, queries: count }))
    .sort((a, b) => b.queries - a.queries || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { queries, pages };
}
