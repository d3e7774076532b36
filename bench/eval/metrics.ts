/** Ranks are judged down to this depth, as a results page shows them. */
export const DEPTH = 10;

/** 1-based rank of the first relevant URL in the top DEPTH, else undefined. */
export function firstRelevantRank(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
): number | undefined {
  const index = ranked.slice(0, DEPTH).findIndex((url) => relevant.has(url));
  return index === -1 ? undefined : index + 1;
}

/** Reciprocal rank at DEPTH: 1/rank of the first relevant result, 0 without one. */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  const rank = firstRelevantRank(ranked, relevant);
  return rank === undefined ? 0 : 1 / rank;
}

/**
 * nDCG at DEPTH with binary relevance: DCG = Σ rel_i / log2(i + 1) over the ranks, divided by the
 * DCG of an ideal ranking, which puts min(DEPTH, |relevant|) relevant pages first.
 */
export function ndcg(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 0;
  let dcg = 0;
  ranked.slice(0, DEPTH).forEach((url, index) => {
    if (relevant.has(url)) dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(DEPTH, relevant.size); index += 1) ideal += 1 / Math.log2(index + 2);
  return dcg / ideal;
}
