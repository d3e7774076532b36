/**
 * Dunning's log-likelihood ratio (G²) of a 2×2 contingency table, as significant-terms and
 * collocation finders use it (docs/reference/site-search.md, Related keywords): how surprising
 * it is that a word is in `k11` of the `k11 + k12` matching documents when it is in `k21` of the
 * `k21 + k22` others. Large for a word clearly more (or less) frequent among the matches; the
 * caller keeps only words more frequent there.
 */
export function logLikelihoodRatio(k11: number, k12: number, k21: number, k22: number): number {
  const rows = entropy(k11 + k12, k21 + k22);
  const columns = entropy(k11 + k21, k12 + k22);
  const matrix = entropy(k11, k12, k21, k22);
  // Rounding can make an independent table come out a hair below zero.
  return Math.max(0, 2 * (rows + columns - matrix));
}

/** Unnormalized Shannon entropy of counts: N·log N − Σ k·log k. */
function entropy(...counts: number[]): number {
  let sum = 0;
  let result = 0;
  for (const count of counts) {
    result -= xLogX(count);
    sum += count;
  }
  return result + xLogX(sum);
}

function xLogX(x: number): number {
  return x <= 0 ? 0 : x * Math.log(x);
}
