/**
 * The known name an unknown one was most likely meant to be (docs/api.md, Common rules): a field
 * name typed with a letter missing, doubled, wrong or two swapped (`allow_url_patterns`, `weigths`)
 * is one or two edits from the name the client meant.
 */

/**
 * The known name closest to `name` by edits (optimal string alignment distance: insertions,
 * deletions, substitutions and swaps of two neighbours, letter case ignored), when at most a
 * third of the name's letters (and at least one) must change; otherwise undefined, since a name
 * further off is a different word rather than a typing slip. Of equally close names, the first.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The reason of an error naming an unknown field, with the closest known name if one is close. */
export function unknownFieldReason(name: string, known: Iterable<string>): string {
  const meant = closestName(name, known);
  return meant === undefined ? 'unknown field' : `unknown field; did you mean \`${meant}\`?`;
}

/** Optimal string alignment distance (Damerau-Levenshtein without edits of an edited part). */
function editDistance(a: string, b: string): number {
  // Three rows of the table suffice: a swap looks two rows back.
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, twoBack[j - 2]! + 1);
      }
      current[j] = distance;
    }
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length]!;
}
